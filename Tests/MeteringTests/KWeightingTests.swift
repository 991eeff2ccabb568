import Glibc
import Testing

@testable import Metering

/// K-weighting derived from its analogue prototype: the BS.1770-4 table at 48 kHz, and the
/// response at any rate.
@Suite struct KWeightingTests {
    @Test func reproducesTheBS1770TableAt48kHz() {
        let filter = KWeighting(sampleRate: 48_000)
        let shelf = filter.shelf
        #expect(abs(shelf.b0 - 1.53512485958697) < 1e-9)
        #expect(abs(shelf.b1 - -2.69169618940638) < 1e-9)
        #expect(abs(shelf.b2 - 1.19839281085285) < 1e-9)
        #expect(abs(shelf.a1 - -1.69065929318241) < 1e-9)
        #expect(abs(shelf.a2 - 0.73248077421585) < 1e-9)
        let highPass = filter.highPass
        #expect(highPass.b0 == 1 && highPass.b1 == -2 && highPass.b2 == 1)
        #expect(abs(highPass.a1 - -1.99004745483398) < 1e-9)
        #expect(abs(highPass.a2 - 0.99007225036621) < 1e-9)
    }

    /// Expected gains computed once from the same prototype with Python's math module (bilinear
    /// transform, |H(e^jω)|²); the −0.691 dB of BS.1770 is the gain at 997 Hz.
    @Test(arguments: [
        (48_000, 20.0, -13.2754), (48_000, 100, -1.1335), (48_000, 500, 0.0425), (48_000, 997, 0.6910),
        (48_000, 1000, 0.6977), (48_000, 2000, 3.0713), (48_000, 4000, 3.9680), (48_000, 10_000, 4.0419),
        (44_100, 997, 0.6938), (44_100, 1000, 0.7005), (44_100, 20, -13.2715), (44_100, 10_000, 4.0458),
        (96_000, 997, 0.6737), (96_000, 1000, 0.6804), (96_000, 20, -13.2970), (96_000, 20_000, 4.0214),
    ])
    func responseAtSpotFrequencies(rate: Int, frequency: Double, expected: Double) {
        let filter = KWeighting(sampleRate: Double(rate))
        #expect(abs(filter.gain(atFrequency: frequency, sampleRate: Double(rate)) - expected) < 0.001)
    }

    @Test func fallsAwayTowardsDC() {
        let filter = KWeighting(sampleRate: 48_000)
        #expect(filter.gain(atFrequency: 1, sampleRate: 48_000) < -60)
        #expect(filter.gain(atFrequency: 0.1, sampleRate: 48_000) < -100)
    }

    /// The streaming filter does what the formula says: a sine's power gain after settling.
    @Test(arguments: [(48_000, 50.0), (48_000, 1000), (44_100, 3000), (96_000, 15_000)])
    func streamingFilterMatchesTheResponse(rate: Int, frequency: Double) {
        let filter = KWeighting(sampleRate: Double(rate))
        var state = KWeightingState()
        var inputPower = 0.0
        var outputPower = 0.0
        for frame in 0..<(2 * rate) {
            let x = sin(2 * Double.pi * frequency * Double(frame) / Double(rate))
            let y = state.process(x, filter)
            if frame >= rate {
                inputPower += x * x
                outputPower += y * y
            }
        }
        let measured = 10 * log10(outputPower / inputPower)
        #expect(abs(measured - filter.gain(atFrequency: frequency, sampleRate: Double(rate))) < 0.01)
    }
}
