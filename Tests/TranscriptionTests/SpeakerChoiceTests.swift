import Foundation
import TestSupport
import Testing
import Vocabulary

@testable import Transcription

/// Which side of a meeting a stretch is decoded from, on synthetic 2- and 4-channel audio: the
/// side whose channels carry more energy, whatever the other side hears of it (echo), and the
/// sides as `SpeechAudioReader` delivers them from a file.
@Suite struct SpeakerChoiceTests {
    static let frames = 16000

    /// The side `SpeakerChoice` picks for `frames` interleaved frames with one tone per channel
    /// (`nil` a silent channel), split as a joined input of that many channels records them.
    static func louder(_ levels: [Double?]) throws -> Speaker {
        let roles = try #require(ChannelRoles(joinedChannels: levels.count))
        let tones = levels.map { TestSignals.Tone(level: $0 ?? -400, period: 37) }
        let block = TestSignals.float(TestSignals.interleaved(tones, frames: frames))
        var microphone = [Float](repeating: 0, count: frames)
        var desktop = microphone
        SpeakerChoice.splitSides(
            block, frames: frames, channels: levels.count, roles: roles, microphone: &microphone, desktop: &desktop)
        return SpeakerChoice.louder(
            microphone: Resampler.int16Samples(microphone)[...], desktop: Resampler.int16Samples(desktop)[...])
    }

    @Test func twoChannelsTheLouderSideWinsOverItsEcho() throws {
        #expect(try Self.louder([-12, nil]) == .me)
        #expect(try Self.louder([nil, -12]) == .them)
        // The microphone hears the desktop 20 dB down: the desktop still wins, and the other way round.
        #expect(try Self.louder([-32, -12]) == .them)
        #expect(try Self.louder([-12, -32]) == .me)
        // Both speak: the louder is decoded.
        #expect(try Self.louder([-14, -12]) == .them)
    }

    @Test func fourChannelsCompareTheTwoPairs() throws {
        // A mono microphone in both of its channels, a stereo desktop.
        #expect(try Self.louder([-12, -12, -30, -30]) == .me)
        #expect(try Self.louder([-30, -30, -12, -12]) == .them)
        // A desktop loud in one channel only: its pair's mix (6 dB down) still beats a quieter microphone.
        #expect(try Self.louder([-24, -24, -12, nil]) == .them)
        #expect(try Self.louder([-12, -12, -24, nil]) == .me)
    }

    @Test func silenceOnBothSidesIsTheMicrophones() throws {
        #expect(try Self.louder([nil, nil]) == .me)
        #expect(SpeakerChoice.louder(microphone: [], desktop: []) == .me)
    }

    @Test func energyIsTheSumOfSquares() {
        #expect(SpeakerChoice.energy([3, -4, 0][...]) == 25)
        #expect(SpeakerChoice.energy([Int16](repeating: .min, count: 480_000)[...]) == 480_000 * 1_073_741_824)
    }

    /// A 48 kHz 4-channel file, the microphone speaking for a second and then the desktop (heard
    /// 24 dB down in the microphone): the reader's sides at 16 kHz say so, and its mix is their average.
    @Test func theReaderDeliversEachSideAtSixteenKilohertz() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("meeting.wav")
        try TestSignals.writeSines(to: path, sections: [(1, [-12, -12, nil, nil]), (1, [-36, -36, -12, -12])])
        let four = try #require(ChannelRoles(joinedChannels: 4))
        let reader = try SpeechAudioReader(path: path, channelRoles: four)
        var mix: [Int16] = []
        var microphone: [Int16] = []
        var desktop: [Int16] = []
        while let block = try reader.nextBlock() {
            let sides = try #require(reader.sides)
            #expect(sides.microphone.count == block.count && sides.desktop.count == block.count)
            mix += block
            microphone += sides.microphone
            desktop += sides.desktop
        }
        #expect(abs(mix.count - 32000) <= 1)
        let first = 1000..<15000
        let second = 17000..<31000
        #expect(SpeakerChoice.louder(microphone: microphone[first], desktop: desktop[first]) == .me)
        #expect(SpeakerChoice.louder(microphone: microphone[second], desktop: desktop[second]) == .them)
        for index in stride(from: 0, to: mix.count, by: 97) {
            #expect(abs(Int(mix[index]) - (Int(microphone[index]) + Int(desktop[index])) / 2) <= 1, "\(index)")
        }
        // Without roles the same file is one mix and no sides.
        let plain = try SpeechAudioReader(path: path)
        #expect(try plain.nextBlock() != nil)
        #expect(plain.sides == nil && plain.channelRoles == nil)
        // Roles naming more channels than the file has are ignored.
        let stereo = folder.file("stereo.wav")
        try TestSignals.writeSines(to: stereo, levels: [-12, -12], seconds: 0.1)
        #expect(try SpeechAudioReader(path: stereo, channelRoles: four).channelRoles == nil)
    }
}
