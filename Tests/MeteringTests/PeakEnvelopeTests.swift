import Testing

@testable import Metering

/// The peak envelope a memo keeps, and the waveform line drawn from it.
@Suite struct PeakEnvelopeTests {
    /// `seconds` of a signal at 1 kHz (50 frames a block), mono, as floats.
    static func envelope(seconds: Double, _ amplitude: (Double) -> Double) -> PeakEnvelope {
        let rate = 1000
        let samples = (0..<Int(seconds * Double(rate))).map { frame -> Float in
            let time = Double(frame) / Double(rate)
            return Float(amplitude(time) * (frame % 2 == 0 ? 1 : -1))
        }
        var envelope = PeakEnvelope(channels: 1, sampleRate: rate)
        samples.withUnsafeBufferPointer { envelope.consume($0) }
        return envelope.finished
    }

    @Test func blocksHoldTheHighestPeakOfAnyChannelRoundedUp() {
        var envelope = PeakEnvelope(channels: 2, sampleRate: 40)  // 2 frames a block
        let samples: [Int16] = [0, 0, 1, -3, 16_384, 0, 0, -32_768, 0, 0]
        samples.withUnsafeBufferPointer { envelope.consume($0) }
        let small = PeakEnvelope.code(forAmplitude: 3.0 / 32768)
        #expect(small > 1 && small < 60, "−80.8 dBFS is neither silence nor lumped with −96")
        #expect(envelope.peaks == [small, 255], "the partial block waits")
        #expect(envelope.finished.peaks == [small, 255, 0])
        #expect(envelope.finished.blockFrames == 2)
    }

    @Test func columnsTakeTheHighestBlockAndSilenceIsTheFloor() {
        let envelope = PeakEnvelope(blockFrames: 10, peaks: [0, 0, 255, 0, PeakEnvelope.code(forAmplitude: 0.5), 0])
        #expect(envelope.columnPeaks(width: 3).map { ($0 * 10).rounded() / 10 } == [-160, 0, -6])
        #expect(envelope.columnPeaks(width: 0).isEmpty)
        #expect(PeakEnvelope(blockFrames: 10, peaks: []).columnPeaks(width: 5).isEmpty)
        #expect(envelope.columnPeaks(width: 12).count == 12, "wider than the envelope: blocks repeat")
    }

    @Test func silenceDrawsBlank() {
        let envelope = Self.envelope(seconds: 4) { _ in 0 }
        #expect(WaveformLine.text(envelope.columnPeaks(width: 80)) == String(repeating: " ", count: 80))
        #expect(WaveformLine.text(envelope.columnPeaks(width: 20)) == String(repeating: " ", count: 20))
    }

    /// One second of a full-scale burst in the middle of four seconds of silence.
    @Test func aToneBurstDrawsAsAFullBlockWhereItIs() {
        let envelope = Self.envelope(seconds: 4) { time in (1.5..<2.5).contains(time) ? 1 : 0 }
        #expect(WaveformLine.text(envelope.columnPeaks(width: 20)) == "       ██████       ", "a column shows any sound in it: the burst's edges fall inside columns 7 and 12")
        #expect(
            WaveformLine.text(envelope.columnPeaks(width: 80))
                == String(repeating: " ", count: 30) + String(repeating: "█", count: 20) + String(repeating: " ", count: 30))
    }

    /// A ramp from −60 dBFS to 0 dBFS (linear in dB) climbs through every glyph.
    @Test func aRampInDecibelsClimbsThroughEveryGlyph() {
        let envelope = Self.envelope(seconds: 4) { time in Self.pow10(3 * (time / 4 - 1)) }
        #expect(WaveformLine.text(envelope.columnPeaks(width: 20)) == "▁▁▂▂▃▃▃▄▄▅▅▅▆▆▆▇▇███", "7.5 dB a glyph: 2.5 columns each")
        let wide = WaveformLine.text(envelope.columnPeaks(width: 80))
        #expect(wide.count == 80)
        #expect(Array(wide) == Array(wide).sorted { WaveformLine.glyphs.firstIndex(of: $0)! < WaveformLine.glyphs.firstIndex(of: $1)! })
        #expect(wide.first == "▁" && wide.last == "█")
    }

    @Test func codesKeepTheDecibelsToAFractionOfADecibel() {
        for decibels in stride(from: -95.0, through: 0, by: 2.5) {
            let code = PeakEnvelope.code(forAmplitude: Float(Decibels.toAmplitude(decibels)))
            #expect(abs(PeakEnvelope.decibels(forCode: code) - decibels) < 0.2, "\(decibels) dB")
        }
        #expect(PeakEnvelope.code(forAmplitude: 0) == 0)
        #expect(PeakEnvelope.code(forAmplitude: 1e-9) == 1)
        #expect(PeakEnvelope.code(forAmplitude: 4) == 255)
    }

    @Test func levelsMapTheDecibelScaleOntoEighths() {
        #expect(WaveformLine.level(-160) == 0)
        #expect(WaveformLine.level(-60) == 0)
        #expect(WaveformLine.level(-59.9) == 1)
        #expect(WaveformLine.level(-30) == 4)
        #expect(WaveformLine.level(0) == 8)
        #expect(WaveformLine.level(6) == 8)
    }

    private static func pow10(_ exponent: Double) -> Double {
        Double(Decibels.toAmplitude(20 * exponent))
    }
}

/// A memo's waveform drawn on the scale of what is heard in it.
@Suite struct HeardWaveformTests {
    /// Speech near full scale over a room at −25 dBFS: words and pauses, not a solid bar.
    @Test func aLoudMemoShowsItsPausesInsteadOfASolidBlock() {
        let room = 0.056  // −25 dBFS
        let envelope = PeakEnvelopeTests.envelope(seconds: 4) { time in
            (0.5..<1.5).contains(time) || (2.5..<3.5).contains(time) ? 0.9 : room
        }
        let peaks = envelope.columnPeaks(width: 8)
        #expect(WaveformLine.text(peaks) == "▅██▅▅██▅", "on the −60…0 scale the room alone is ▅")
        #expect(WaveformLine.heardText(peaks) == "▁██▁▁██▁")
    }

    /// A room at −54 dBFS: the scale reaches down to 3 dB under it, nearly the whole −60…0.
    @Test func aMemoOverAQuietRoomKeepsNearlyTheWholeScale() {
        let envelope = PeakEnvelopeTests.envelope(seconds: 4) { time in (1.5..<2.5).contains(time) ? 0.5 : 0.002 }
        let scale = WaveformLine.heardScale(envelope.columnPeaks(width: 20))
        #expect((scale.floor * 10).rounded() / 10 == -57 && (scale.top * 10).rounded() / 10 == -6)
        #expect(WaveformLine.heardText(envelope.columnPeaks(width: 20)) == "▁▁▁▁▁▁▁██████▁▁▁▁▁▁▁")
    }

    @Test func aSteadyToneIsAFullBarAndSilenceAndNoiseNeverTrap() {
        let tone = PeakEnvelopeTests.envelope(seconds: 2) { _ in 0.1 }
        #expect(WaveformLine.heardText(tone.columnPeaks(width: 10)) == String(repeating: "█", count: 10))
        #expect(WaveformLine.heardText([]) == "")
        #expect(WaveformLine.heardText([-.infinity, .nan, -160, 3]) == "   █")
        #expect(WaveformLine.heardScale([.nan]) == (-60, 0))
    }
}
