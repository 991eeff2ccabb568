import Foundation
import Interface
import Testing

@testable import VoiceMemoCLI

/// The app's block at the end of the config file: text in, text out, and read back by the parser.
@Suite struct AppSettingsBlockTests {
    static let path = "/home/a/.config/voicememo/config"
    static let block = AppSettingsBlock.marker + "\n" + AppSettingsBlock.note + "\n"

    @Test func aBlockIsAddedAfterThePersonsLinesWhichStayByteForByte() throws {
        let own = "# my defaults\nformat = wav   # wav flac ogg\n\n  rate = 44.1k\n"
        let edited = try AppSettingsBlock.edited(own, setting: [("meter.mode", "vu"), ("sort", "title")])
        #expect(edited.hasPrefix(own))
        #expect(edited == own + "\n" + Self.block + "meter.mode = vu\nsort = title\n")
        let configuration = try ConfigurationParser.parse(edited, path: Self.path)
        #expect(configuration.format == .wav && configuration.sampleRate == 44100)
        #expect(configuration.meterMode == .vu && configuration.sortOrder == .byTitle)
    }

    @Test func theBlockIsReplacedInPlaceAndKeepsItsOrder() throws {
        let own = "format = flac\n"
        let first = try AppSettingsBlock.edited(own, setting: [("meter.mode", "vu"), ("play.volume", "80")])
        let second = try AppSettingsBlock.edited(first, setting: [("play.volume", "120"), ("sort", "longest")])
        #expect(second == own + "\n" + Self.block + "meter.mode = vu\nplay.volume = 120\nsort = longest\n")
        // Once there, the block is edited where it is: no second marker, no growing blank lines.
        let third = try AppSettingsBlock.edited(second, setting: [("meter.mode", "ppm1")])
        #expect(third == own + "\n" + Self.block + "meter.mode = ppm1\nplay.volume = 120\nsort = longest\n")
        #expect(third.components(separatedBy: AppSettingsBlock.marker).count == 2)
        let configuration = try ConfigurationParser.parse(third, path: Self.path)
        #expect(configuration.meterMode == .ppm1 && configuration.playbackVolume == 120 && configuration.sortOrder == .longestFirst)
    }

    @Test func anEmptyOrMissingFileGetsTheBlockAlone() throws {
        let edited = try AppSettingsBlock.edited("", setting: [("play.enhance", "on")])
        #expect(edited == Self.block + "play.enhance = on\n")
        #expect(try ConfigurationParser.parse(edited, path: Self.path).playbackEnhances == true)
    }

    @Test func aLastLineWithoutALineBreakGetsOneBeforeTheBlock() throws {
        let own = "format = wav"
        let edited = try AppSettingsBlock.edited(own, setting: [("sort", "title")])
        #expect(edited == "format = wav\n\n" + Self.block + "sort = title\n")
        #expect(try ConfigurationParser.parse(edited, path: Self.path).format == .wav)
    }

    @Test func crlfFilesKeepTheirLinesAndTheBlockEndsItsLinesTheSameWay() throws {
        let own = "# mine\r\nformat = wav\r\nrate = 48k\r\n"
        let edited = try AppSettingsBlock.edited(own, setting: [("meter.mode", "vu")])
        #expect(edited == own + "\r\n" + AppSettingsBlock.marker + "\r\n" + AppSettingsBlock.note + "\r\nmeter.mode = vu\r\n")
        let configuration = try ConfigurationParser.parse(edited, path: Self.path)
        #expect(configuration.format == .wav && configuration.sampleRate == 48000 && configuration.meterMode == .vu)
        let again = try AppSettingsBlock.edited(edited, setting: [("meter.mode", "ppm2")])
        #expect(again == own + "\r\n" + AppSettingsBlock.marker + "\r\n" + AppSettingsBlock.note + "\r\nmeter.mode = ppm2\r\n")
    }

    @Test func aKeyThePersonSetAboveIsOverriddenByTheBlockWhichSaysSo() throws {
        let own = "meter.mode = ppm2  # my meter\nsort = newest\n"
        let edited = try AppSettingsBlock.edited(own, setting: [("meter.mode", "vu")])
        #expect(edited.hasPrefix(own))
        #expect(edited.hasSuffix("meter.mode = vu  # overrides meter.mode above\n"))
        #expect(try ConfigurationParser.parse(edited, path: Self.path).meterMode == .vu, "the block comes last and wins")
    }

    @Test func aKeySetTwiceInThePersonsLinesIsStillRefused() {
        let text = "meter.mode = vu\nmeter.mode = ppm2\n" + Self.block + "sort = title\n"
        #expect(throws: ConfigurationError.self) { try ConfigurationParser.parse(text, path: Self.path) }
        let twiceInBlock = Self.block + "sort = title\nsort = longest\n"
        #expect(throws: ConfigurationError.self) { try ConfigurationParser.parse(twiceInBlock, path: Self.path) }
    }

    @Test func valuesAreQuotedAsTheParserReadsThem() throws {
        let values = ["file:/tmp/take #2.wav", " padded ", "#first", "alsa:hw:1,0", "a#b", "plug:\"odd\""]
        for value in values {
            let edited = try AppSettingsBlock.edited("", setting: [("play.device", value)])
            #expect(try ConfigurationParser.parse(edited, path: Self.path).playbackDevice == value, "\(edited)")
        }
        let source = try AppSettingsBlock.edited("", setting: [("source", "file:/tmp/take #2.wav")])
        #expect(source.contains("source = \"file:/tmp/take #2.wav\""))
        #expect(try ConfigurationParser.parse(source, path: Self.path).source == .file(path: "/tmp/take #2.wav"))
    }

    @Test func valuesThatCannotBeReadBackAreRefused() {
        #expect(AppSettingsBlock.written("two\nlines") == nil)
        #expect(AppSettingsBlock.written("\"quoted\" # and a comment") == nil)
        #expect(throws: AppSettingsBlock.Problem.unwritable(key: "play.device", value: "a\tb")) {
            try AppSettingsBlock.edited("format = wav\n", setting: [("play.device", "a\tb")])
        }
    }

    @Test func linesThePersonAddedInTheBlockAreKeptWhenTheyAreSettings() throws {
        let text = "format = wav\n\n" + Self.block + "sort = title\n# a note\nplay.volume = 90\n"
        let edited = try AppSettingsBlock.edited(text, setting: [("sort", "longest")])
        #expect(edited == "format = wav\n\n" + Self.block + "sort = longest\nplay.volume = 90\n")
    }

    @Test func everySettingChangeReadsBackAsTheAppGaveIt() throws {
        let changes: [SettingChange] = [
            .voiceThreshold(-35), .voiceSilence(2.5), .voiceMinimum(0.3), .voicePreRoll(1.2), .replay(true),
            .replayPitch(-3), .alert(true), .alertLevel(-25), .alertHold(1.5), .meterMode(.loudness),
            .input(.tone(frequency: 440, peakDBFS: -12.5)), .playbackDevice("pulse"), .enhance(true), .volume(130),
            .sortOrder(.longestFirst),
        ]
        let edited = try AppSettingsBlock.edited("", setting: changes.map(\.configurationEntry))
        let configuration = try ConfigurationParser.parse(edited, path: Self.path)
        var app = AppState()
        app.apply(configuration)
        #expect(app.voice.parameters.thresholdDB == -35 && app.voice.parameters.silence == 2.5)
        #expect(app.voice.parameters.minimum == 0.3 && app.voice.parameters.preRoll == 1.2)
        #expect(app.voice.parameters.replay == ReplayParameters(isOn: true, pitchSemitones: -3))
        #expect(app.alert.parameters == NoiseAlertParameters(isOn: true, levelDB: -25, hold: 1.5))
        #expect(app.meterMode == .loudness && app.sortOrder == .longestFirst)
        #expect(app.playbackSettings.enhances && app.playbackSettings.volumePercent == 130)
        #expect(configuration.source == .tone(frequency: 440, peakDBFS: -12.5))
        #expect(configuration.playbackDevice == "pulse")
    }
}
