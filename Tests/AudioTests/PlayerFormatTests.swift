import TestSupport
import Foundation
import SoundFiles
import Testing

@testable import Audio

/// Every format and encoding VoiceMemo records plays through the 16-bit test device:
/// lossless ones give back the 16-bit counter they were written from, bit for bit;
/// lossy and companded ones give exactly what libsndfile decodes as int16.
@Suite struct PlayerFormatTests {
    static let lossless: [(FileFormat, Encoding)] = [
        (.wav, .pcm16), (.wav, .pcm24), (.wav, .pcm32), (.wav, .float), (.flac, .pcm16), (.flac, .pcm24),
        (.caf, .pcm16), (.caf, .alac16), (.caf, .alac24), (.caf, .float), (.aiff, .pcm16), (.aiff, .pcm24),
    ]

    static let lossy: [(FileFormat, Encoding)] = [
        (.wav, .ulaw), (.wav, .alaw), (.wav, .imaAdpcm), (.ogg, .vorbis), (.opus, .opus), (.mp3, .mp3),
    ]

    @Test(arguments: lossless)
    func losslessPlaysTheCounterBitExact(format: FileFormat, encoding: Encoding) throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let frames = 30_011
        let file = try fixture.writeCounter("counter.\(format.fileExtensions[0])", frames: frames, format: format, encoding: encoding)
        let log = PlayerEventLog()
        let player = try fixture.player(file, events: log.events)
        try player.play()
        #expect(log.waitForFinish())
        #expect(log.finishes == [true], "\(log.errors)")
        #expect(firstDifference(try fixture.played(), PlayerFixture.counterSamples(frames: frames)) == "")
    }

    @Test(arguments: lossy)
    func lossyPlaysWhatLibsndfileDecodes(format: FileFormat, encoding: Encoding) throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines(
            "sines.\(format.fileExtensions[0])", seconds: 1.5, peak: 0.4, format: format, encoding: encoding)
        let log = PlayerEventLog()
        let player = try fixture.player(file, events: log.events)
        try player.play()
        #expect(log.waitForFinish())
        #expect(log.finishes == [true], "\(log.errors)")
        let decoded = try TestSignals.readInt16(file).samples
        #expect(decoded.count > 48_000 * 2)
        #expect(firstDifference(try fixture.played(), decoded) == "")
    }
}
