import TestSupport
import Foundation
import Interface
import Testing

/// The meter as a person reads it at 80×24: silence (or anything below the meter's floor) read the same way in every meter mode,
/// and the scale line shows where a voice's level should sit.
@Suite(.serialized) struct AppTmuxMeterReadingTests {
    /// The LED rows (`L`, `R`, or loudness's `M`, `S`) of a screen.
    static func meterRows(_ screen: String) -> [String] {
        screen.split(separator: "\n").map(String.init).filter { $0.hasPrefix(" L ") || $0.hasPrefix(" R ") || $0.hasPrefix(" M ") || $0.hasPrefix(" S ") }
    }

    @Test func silenceReadsBelowTheFloorInEveryMode() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.directory.path("silence.wav").path
        try TestSignals.writeSines(to: path, levels: [nil, nil], seconds: 120)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        var screen = try app.waitForStart("Listening to")
        // Every mode `m` cycles through, in its order: each reads the floor, never a figure below it.
        for mode in MeterMode.allCases.map(\.descriptor.name) {
            screen = try app.waitUntil(timeout: 10) { screen in
                let rows = Self.meterRows(screen)
                return screen.contains(mode) && rows.count == 2 && rows.allSatisfy { $0.contains("<-") }
            }
            let rows = Self.meterRows(screen)
            #expect(rows.count == 2, "\(mode): \(screen)")
            for row in rows {
                let readings = mode == "loudness" ? ["<-41 LUFS", "<-18 LU"] : ["<-60", "pk   <-60"]
                #expect(readings.allSatisfy { row.contains($0) }, "\(mode): \(row)")
                #expect(!row.contains("-∞") && !row.contains("-inf") && row.range(of: #"-\d+\.\d"#, options: .regularExpression) == nil, "no figure: \(mode): \(row)")
            }
            try app.press("m")
        }
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }

    /// The scale line (the one with the `0` mark and `dBFS` or `LU`).
    static func scaleRow(_ screen: String) -> String? {
        screen.split(separator: "\n").map(String.init).first { $0.contains("-60") && $0.contains("dBFS") || $0.contains("-18") && $0.contains("LU ") }
    }

    @Test func theScaleMarksTheGoodLevelInEveryMode() throws {
        let sandbox = try VoiceMemoSandbox()
        let path = sandbox.directory.path("speech-level.wav").path
        try TestSignals.writeSines(to: path, levels: [-20, -20], seconds: 120)
        let app = try AppTmuxSession(sandbox: sandbox, arguments: "--source file:\(path)")
        _ = try app.waitForStart("Listening to")
        // The zone's line runs between the marks of its range, and the legend names it.
        let lines = [
            MeterMode.digital: "-30━━━-20━━━━━-10", .ppm1: "-20━━━━━-10━━━━-6", .ppm2: "-20━━━━━-10━━━━-6",
            .vu: "-30━━━-20━━━━━-10", .loudness: "━━━━0━━━━━",
        ]
        // Every mode `m` cycles through: a new one fails here until its scale line is added.
        let zones = try MeterMode.allCases.map { mode in
            (mode.descriptor.name, try #require(lines[mode], "the scale line of the \(mode.descriptor.name) mode"))
        }
        for (mode, line) in zones {
            let screen = try app.waitUntil(timeout: 10) { screen in Self.scaleRow(screen)?.contains(mode) == true }
            let scale = Self.scaleRow(screen) ?? ""
            #expect(scale.contains(line), "\(mode): \(scale)")
            #expect(scale.contains("━━ good"), "\(mode): the legend names the line: \(scale)")
            try app.press("m")
        }
        try app.press("q")
        #expect(try app.waitFor("END").contains("EXIT=0"))
    }
}
