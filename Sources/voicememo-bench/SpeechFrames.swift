import Foundation
import SoundFiles
import VoiceActivation

/// `voicememo-bench speech FILE`: what the speech detector says of each 10 ms frame of a
/// file (WebRTC voiced, periodicity, period, speech), and the counts; for tuning
/// `SpeechEvidence` on recorded or synthesised sounds.
enum SpeechFrames {
    static func command(_ arguments: [String]) -> Int32 {
        guard arguments.count == 1 || (arguments.count == 2 && arguments[1] == "--frames") else {
            printToStandardError("usage: voicememo-bench speech FILE [--frames]")
            return 2
        }
        do {
            let reader = try SoundFileReader(path: arguments[0])
            defer { reader.close() }
            let format = StreamFormat(sampleRate: reader.info.sampleRate, channels: reader.info.channels, sampleFormat: .int16)
            let detector = try SpeechDetector(format: format)
            let block = max(1, format.sampleRate / 100)
            var chunk = [Int16](repeating: 0, count: block * format.channels)
            var counts = (frames: 0, voiced: 0, periodic: 0, speech: 0)
            while true {
                let got = try chunk.withUnsafeMutableBytes { bytes -> Int in
                    guard let base = bytes.baseAddress else { return 0 }
                    return try reader.read(into: base, frames: block, as: .int16)
                }
                if got < block { break }
                let speech = chunk.withUnsafeBytes { bytes in bytes.baseAddress.map { detector.consume($0, frames: got) } ?? false }
                let frame = detector.lastFrame
                counts.frames += 1
                if frame.voiced { counts.voiced += 1 }
                if frame.periodicity >= SpeechEvidence.periodicityThreshold { counts.periodic += 1 }
                if speech { counts.speech += 1 }
                if arguments.count == 2 {
                    print(String(format: "%7.2f %@ %.2f %6.1f %@", Double(counts.frames - 1) / 100,
                                 frame.voiced ? "V" : "-", frame.periodicity, frame.period, speech ? "SPEECH" : ""))
                }
            }
            print("frames \(counts.frames) voiced \(counts.voiced) periodic \(counts.periodic) speech \(counts.speech)")
            return 0
        } catch {
            printToStandardError("voicememo-bench speech: \(error)")
            return 1
        }
    }
}
