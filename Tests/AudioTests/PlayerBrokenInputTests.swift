import TestSupport
import Foundation
import SoundFiles
import Testing

@testable import Audio

/// Files a player must refuse, or stop on, with a sentence naming the file and the cause.
@Suite struct PlayerBrokenInputTests {
    private func refusal(_ file: String, fixture: PlayerFixture) -> PlayerError? {
        let error = #expect(throws: PlayerError.self) { try fixture.player(file) }
        #expect(error?.kind == .file)
        #expect(error?.message.contains(file) == true, "names the file: \(error?.message ?? "")")
        return error
    }

    @Test func missingFile() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let error = refusal(fixture.path("nothing.wav"), fixture: fixture)
        #expect(error?.message.contains("no such file") == true)
    }

    @Test func directory() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let error = refusal(fixture.devices.directory.path, fixture: fixture)
        #expect(error?.message.contains("is a directory") == true)
    }

    @Test func zeroLengthFile() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = fixture.path("empty.wav")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let error = refusal(file, fixture: fixture)
        #expect(error?.message.contains("empty (0 bytes)") == true)
    }

    @Test func nonAudioFile() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = fixture.path("notes.wav")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("shopping list: eggs, milk\n".utf8)))
        let error = refusal(file, fixture: fixture)
        #expect(error?.message.contains("not a sound file") == true, "\(error?.message ?? "")")
    }

    @Test func fileCutInsideItsHeader() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("cut.wav", frames: 4800)
        try Data(try Data(contentsOf: URL(fileURLWithPath: file)).prefix(20)).write(to: URL(fileURLWithPath: file))
        let error = refusal(file, fixture: fixture)
        #expect(error?.message.isEmpty == false)
    }

    @Test func headerWithoutAudio() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("silent.wav", frames: 0)
        let error = refusal(file, fixture: fixture)
        #expect(error?.message.contains("holds no audio (0 frames)") == true)
    }

    @Test func unsupportedEncoding() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("odd.wav", frames: 4800)
        // The fmt chunk's format tag set to a codec nobody knows (found by its id: a WAV
        // starts with a JUNK chunk kept for an RF64 header, so fmt is not at offset 12).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let fmt = try #require(bytes.range(of: Data("fmt ".utf8))).lowerBound
        bytes[fmt + 8] = 0x34
        bytes[fmt + 9] = 0x12
        try bytes.write(to: URL(fileURLWithPath: file))
        let error = refusal(file, fixture: fixture)
        #expect(error?.message.contains("libsndfile") == true, "\(error?.message ?? "")")
    }

    @Test func truncatedFLACPlaysWhatIsThereThenReportsTheCut() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeSines("cut.flac", seconds: 2, peak: 0.5, format: .flac)
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: file))
        let log = PlayerEventLog()
        let player = try fixture.player(file, events: log.events)
        try player.play()
        #expect(log.waitForFinish())
        #expect(log.finishes == [false])
        #expect(log.errors.map(\.kind) == [.decode])
        #expect(log.errors.first?.message.contains(file) == true, "\(log.errors)")
        #expect(player.error?.kind == .decode)
        let played = try fixture.played()
        #expect(played.count > 48_000, "what precedes the cut is played")
    }

    /// A WAV cut mid-data (a crash) is not refused: libsndfile reads what is there,
    /// and all of it plays (a killed recording stays playable).
    @Test func wavCutMidDataPlaysWhatIsThere() throws {
        let fixture = try PlayerFixture()
        defer { fixture.remove() }
        let file = try fixture.writeCounter("cut.wav", frames: 48_000)
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        try Data(whole.prefix(whole.count - 4 * 10_000)).write(to: URL(fileURLWithPath: file))
        let log = PlayerEventLog()
        let player = try fixture.player(file, events: log.events)
        #expect(player.frameCount == 38_000)
        try player.play()
        #expect(log.waitForFinish())
        #expect(log.finishes == [true])
        #expect(firstDifference(try fixture.played(), PlayerFixture.counterSamples(frames: 38_000)) == "")
    }
}
