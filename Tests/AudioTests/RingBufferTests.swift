import Testing

@testable import Audio

/// The ring's producer-side region: bytes put there in place are handed over without a copy
/// and read back as written, across the wrap.
@Suite struct RingBufferTests {
    @Test func bytesWrittenInPlaceAreReadBackAcrossTheWrap() {
        let ring = RingBuffer(minimumCapacity: 64)
        var next: UInt8 = 0
        var expected: [UInt8] = []
        var received: [UInt8] = []
        for round in 0..<20 {
            let region = ring.writableRegion()
            let count = min(region.count, 5 + round % 7)
            #expect(count > 0)
            for index in 0..<count {
                region[index] = next
                expected.append(next)
                next &+= 1
            }
            #expect(ring.write(UnsafeRawPointer(region.baseAddress!), count: count) == count)
            _ = ring.read(maximum: 9) { bytes in
                received.append(contentsOf: bytes)
                return bytes.count
            }
        }
        _ = ring.read { bytes in
            received.append(contentsOf: bytes)
            return bytes.count
        }
        #expect(received == expected)
    }

    @Test func regionEndsAtTheWrapAndIsEmptyWhenFull() {
        let ring = RingBuffer(minimumCapacity: 64)
        let filler = [UInt8](repeating: 7, count: 40)
        filler.withUnsafeBytes { _ = ring.write($0.baseAddress!, count: 40) }
        #expect(ring.writableRegion().count == 24)
        _ = ring.read(maximum: 30) { $0.count }
        #expect(ring.writableRegion().count == 24, "contiguous up to the end, not the 54 free bytes")
        filler.withUnsafeBytes { _ = ring.write($0.baseAddress!, count: 40) }
        #expect(ring.writableRegion().count == 14)
        filler.withUnsafeBytes { _ = ring.write($0.baseAddress!, count: 14) }
        #expect(ring.writableRegion().count == 0)
    }
}
