import Foundation

/// Rooms of one-word answers and non-speech events for voice activation: "Yes.", "Okay." and
/// "No." (espeak-ng, peak −6 dBFS) between a click train, a door's thump, typing, a cough, a
/// burst of steady noise and a steady tone, each 4 s after the last, mixed into a `RoomSynthesis`
/// noise at a chosen RMS; seeded, so every run writes the same file.
///
/// `voicememo-bench answers KIND DBFS SEED OUT.wav` writes one (48 kHz, 16-bit, mono) and prints
/// one line per sound: its name, its onset and its end in frames (above −50 dBFS in the clean
/// sound). Words make one memo each; events make none.
enum AnswerSynthesis {
    static let words = ["Yes.", "Okay.", "No."]

    /// A sound that is not speech.
    enum Event: String, CaseIterable {
        /// 0.2 s: a 1 ms click every 20 ms.
        case clicks
        /// 0.4 s: 45 and 70 Hz, decaying with τ = 80 ms (a door closing).
        case thump
        /// 1.5 s: 12 clicks of 6 ms band-passed noise, 80 to 200 ms apart (keys).
        case typing
        /// 0.35 s: noise through 400–2500 Hz with a fast attack and a slower decay.
        case cough
        /// 2 s of pink-ish noise 20 dB over the threshold (a tap running, a hair dryer).
        case noise
        /// 1.5 s of 440 Hz.
        case tone
    }

    /// One sound's place in the room.
    struct Mark {
        var name: String
        var isWord: Bool
        var onset: Int
        var end: Int
    }

    /// The order of the room: words between events.
    static let order: [(word: Int?, event: Event?)] = [
        (0, nil), (nil, .clicks), (1, nil), (nil, .thump), (2, nil), (nil, .typing), (nil, .cough),
        (nil, .noise), (nil, .tone),
    ]

    static func spokenWords(in directory: String) throws -> [[Float]] {
        try words.enumerated().map { index, text in
            try RoomSynthesis.spoken(text, name: "word\(index)", in: directory)
        }
    }

    static func make(noise: RoomSynthesis.Noise, rmsDBFS: Double, seed: UInt64, words spoken: [[Float]])
        -> (samples: [Int16], marks: [Mark])
    {
        let rate = RoomSynthesis.rate
        var generator = NoiseGenerator(seed: seed &+ 1000)
        var clean: [Float] = Array(repeating: 0, count: Int(RoomSynthesis.lead * Double(rate)))
        var marks: [Mark] = []
        let quiet = Float(pow(10, -50 / 20.0))
        for item in order {
            let sound: [Float]
            let name: String
            if let word = item.word {
                sound = spoken[word]
                name = words[word]
            } else if let event = item.event {
                sound = Self.sound(event, generator: &generator)
                name = event.rawValue
            } else { continue }
            let onset = sound.firstIndex { abs($0) > quiet } ?? 0
            let last = sound.lastIndex { abs($0) > quiet } ?? 0
            marks.append(Mark(name: name, isWord: item.word != nil, onset: clean.count + onset, end: clean.count + last + 1))
            clean += sound
            clean += Array(repeating: 0, count: Int(RoomSynthesis.gap * Double(rate)))
        }
        var roomGenerator = NoiseGenerator(seed: seed)
        let room = roomGenerator.noise(noise, count: clean.count, rmsDBFS: rmsDBFS)
        let samples = zip(clean, room).map { clean, room in
            Int16(max(-32768, min(32767, ((clean + room) * 32768).rounded())))
        }
        return (samples, marks)
    }

    static func sound(_ event: Event, generator: inout NoiseGenerator) -> [Float] {
        let rate = Double(RoomSynthesis.rate)
        func count(_ seconds: Double) -> Int { Int(seconds * rate) }
        var output: [Float]
        switch event {
        case .clicks:
            output = Array(repeating: 0, count: count(0.2))
            for start in stride(from: 0, to: output.count, by: count(0.02)) {
                for index in 0..<count(0.001) where start + index < output.count {
                    output[start + index] = Float(generator.gaussian())
                }
            }
        case .thump:
            output = (0..<count(0.4)).map { index in
                let time = Double(index) / rate
                return Float(exp(-time / 0.08) * (sin(2 * .pi * 45 * time) + 0.6 * sin(2 * .pi * 70 * time)))
            }
        case .typing:
            output = Array(repeating: 0, count: count(1.5))
            var start = 0
            for _ in 0..<12 {
                let burst = bandPassed(count(0.006), low: 1000, high: 6000, generator: &generator)
                for (index, value) in burst.enumerated() where start + index < output.count {
                    output[start + index] = value * Float(exp(-Double(index) / (0.002 * rate)))
                }
                start += count(0.08 + 0.12 * generator.uniform())
            }
        case .cough:
            let length = count(0.35)
            let burst = bandPassed(length, low: 400, high: 2500, generator: &generator)
            output = burst.enumerated().map { index, value in
                let time = Double(index) / rate
                return value * Float(min(1, time / 0.01) * exp(-time / 0.1))
            }
        case .noise:
            output = generator.noise(.pink, count: count(2), rmsDBFS: -20)
            return output
        case .tone:
            output = (0..<count(1.5)).map { Float(sin(2 * .pi * 440 * Double($0) / rate)) }
        }
        let peak = output.map(abs).max() ?? 0
        let gain = peak > 0 ? Float(pow(10, -6 / 20.0)) / peak : 0
        return output.map { $0 * gain }
    }

    /// Gaussian noise through a one-pole high-pass at `low` and a one-pole low-pass at `high`.
    private static func bandPassed(_ count: Int, low: Double, high: Double, generator: inout NoiseGenerator) -> [Float] {
        let rate = Double(RoomSynthesis.rate)
        let highPole = exp(-2 * Double.pi * low / rate)
        let lowGain = 1 - exp(-2 * Double.pi * high / rate)
        var (previous, highPassed, lowPassed) = (0.0, 0.0, 0.0)
        return (0..<count).map { _ in
            let white = generator.gaussian()
            highPassed = highPole * (highPassed + white - previous)
            previous = white
            lowPassed += lowGain * (highPassed - lowPassed)
            return Float(lowPassed)
        }
    }

    /// `answers KIND DBFS SEED OUT.wav`.
    static func command(_ arguments: [String]) -> Int32 {
        guard arguments.count == 4, let noise = RoomSynthesis.Noise(rawValue: arguments[0]), let level = Double(arguments[1]),
            level.isFinite, level <= 0, let seed = UInt64(arguments[2])
        else {
            printToStandardError(
                "usage: voicememo-bench answers \(RoomSynthesis.Noise.allCases.map(\.rawValue).joined(separator: "|")) DBFS SEED OUT.wav")
            return 2
        }
        let output = arguments[3]
        do {
            let directory = (output as NSString).deletingLastPathComponent
            let spoken = try spokenWords(in: directory.isEmpty ? "." : directory)
            let room = make(noise: noise, rmsDBFS: level, seed: seed, words: spoken)
            try RoomSynthesis.write(room.samples, to: output)
            for mark in room.marks { print("\(mark.isWord ? "word" : "event") \(mark.name) \(mark.onset) \(mark.end)") }
            return 0
        } catch {
            printToStandardError("voicememo-bench answers: \(error)")
            return 1
        }
    }
}
