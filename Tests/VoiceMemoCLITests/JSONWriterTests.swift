import Foundation
import MemoLibrary
import Testing

@testable import VoiceMemoCLI

/// The byte-level JSON `list --json` and every other JSON output go through.
@Suite struct JSONWriterTests {
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (-0.0001, "0"), (1.0, "1"), (-160.0, "-160"), (0.1, "0.1"), (2.5, "2.5"),
        (-6.0206, "-6.021"), (1.0005, "1.001"), (123456.789, "123456.789"), (0.001, "0.001"), (-0.04, "-0.04"),
        (1e14, "100000000000000"), (1.5e20, "1.5e+20"), (Double.nan, "null"), (Double.infinity, "null"),
    ])
    func numbersMatchTheShortestText(value: Double, expected: String) {
        var writer = JSONWriter()
        writer.number(value)
        #expect(writer.text == expected)
    }

    @Test func roundedNumbersAgreeWithSwiftsOwnText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let value = Double.random(in: -1e6...1e6, using: &generator)
            var writer = JSONWriter()
            writer.number(value)
            let rounded = (value * 1000).rounded() / 1000
            let reference = rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
            #expect(writer.text == reference, "\(value)")
        }
    }

    @Test func stringsEscapeEveryControlCharacter() throws {
        let hostile = "a\"b\\c\n\r\t\u{0}\u{1B}[2J\u{7F}\u{85}\u{9B}é会🎙️\u{202E}"
        var writer = JSONWriter()
        writer.string(hostile)
        #expect(writer.text == #""a\"b\\c\n\r\t\u0000\u001b[2J\u007f\u0085\u009bé会🎙️\#u{202E}""#)
        let decoded = try JSONSerialization.jsonObject(with: Data(writer.text.utf8), options: .fragmentsAllowed) as? String
        #expect(decoded == hostile)
        #expect(!writer.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
    }

    @Test func integersAndDates() {
        var writer = JSONWriter()
        for value in [Int64.min, -1, 0, 7, Int64.max] {
            writer.int(value)
            writer.raw(" ")
        }
        writer.date(1_795_960_992.9)
        writer.raw(" ")
        writer.date(0)
        #expect(writer.text == "-9223372036854775808 -1 0 7 9223372036854775807 \"2026-11-29T14:03:12Z\" \"1970-01-01T00:00:00Z\"")
    }

    @Test func memoArrayIsValidJSONInTheDocumentedOrder() throws {
        let memo = Memo(
            id: 3, title: "T\u{1B}", created: Date(timeIntervalSince1970: 1_795_960_992), duration: 1.5, frames: 72_000,
            sampleRate: 48_000, channels: 2, format: .flac, encoding: .pcm16, path: "/l/a.flac", size: 1234,
            peakDB: -6.02, state: .recovered, deletedAt: nil)
        let text = Memo.jsonText(of: [memo, memo])
        #expect(text.hasPrefix(#"[{"id": 3, "title": "T\u001b", "created": "2026-11-29T14:03:12Z", "duration": 1.5, "frames": 72000, "sample_rate": 48000, "channels": 2, "format": "flac", "encoding": "pcm16", "path": "/l/a.flac", "size": 1234, "peak_db": -6.02, "deleted_at": null, "deleted_reason": null, "state": "recovered", "loudness_lufs": null, "true_peak_dbtp": null, "lra": null, "clips": null, "transcript": "none", "markers": [], "tags": [], "starred": false}, {"#))
        var measured = memo
        measured.loudnessLUFS = -23.04
        measured.truePeakDBTP = -22.98
        measured.loudnessRange = 0
        measured.clipCount = 2
        #expect(measured.jsonText.hasSuffix(#""state": "recovered", "loudness_lufs": -23.04, "true_peak_dbtp": -22.98, "lra": 0, "clips": 2, "transcript": "none", "markers": [], "tags": [], "starred": false}"#))
        let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(array?.count == 2)
        #expect(Memo.jsonText(of: []) == "[]")
        let marked = Memo.jsonText(of: [memo], markers: [3: [Marker(time: 0.25), Marker(time: 1.5, label: "a\"b")]])
        #expect(marked.hasSuffix(#""markers": [{"time": 0.25, "label": ""}, {"time": 1.5, "label": "a\"b"}], "tags": [], "starred": false}]"#), "\(marked)")
        #expect(String(text.dropFirst().prefix(memo.jsonText.count)) == memo.jsonText, "record --json prints the same object")
    }
}
