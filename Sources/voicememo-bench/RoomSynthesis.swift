import Foundation

/// Rooms for voice activation: three espeak-ng phrases (peak −6 dBFS) 4 s apart, mixed into
/// steady noise at a chosen RMS, seeded so every run writes the same file.
///
/// `voicememo-bench room KIND DBFS SEED OUT.wav` writes one (48 kHz, 16-bit, mono) and prints
/// each phrase's onset and end (first and one past the last sample of the clean phrase above
/// −50 dBFS), in frames, one phrase per line; the end-to-end tests and the `vox` benchmark use it.
enum RoomSynthesis {
    static let rate = 48_000
    static let phrases = [
        "Remember to buy milk and bread on the way home",
        "Call Anna about the concert tickets",
        "The meeting moved to Thursday at three in the afternoon, please tell everyone",
    ]
    static let lead = 3.0
    static let gap = 4.0

    /// The room's noise.
    enum Noise: String, CaseIterable {
        /// Gaussian, flat spectrum.
        case white
        /// −3 dB per octave (Paul Kellet's filter over white).
        case pink
        /// −6 dB per octave above ~8 Hz (a leaky integrator over white).
        case brown
        /// Mains hum: 50, 150 and 250 Hz at 1, 0.5 and 0.3, random phases.
        case hum
        /// A fan: white noise band-limited to 150–1500 Hz (two one-pole high-passes, two low-passes).
        case fan
        /// Babble: six synthetic voices talking at once, each a pulse train (90–220 Hz, gliding)
        /// through two formants that change every syllable (150–300 ms, with pauses).
        case babble
    }

    /// Where a phrase lies in the room, in frames.
    struct Phrase {
        var onset: Int
        var end: Int
    }

    struct Room {
        var samples: [Int16]
        var phrases: [Phrase]
    }

    enum Failure: Error, CustomStringConvertible {
        case tool(String)
        var description: String {
            switch self {
            case .tool(let text): text
            }
        }
    }

    /// Speaks the phrases into `directory` (espeak-ng, then sox to 48 kHz), once.
    static func spokenPhrases(in directory: String) throws -> [[Float]] {
        try phrases.enumerated().map { index, text in try spoken(text, name: "phrase\(index)", in: directory) }
    }

    /// Speaks `text` into `directory/NAME.raw` (espeak-ng, then sox to 48 kHz) unless it is
    /// there, and returns it normalised to a −6 dBFS peak.
    static func spoken(_ text: String, name: String, in directory: String) throws -> [Float] {
        let wav = directory + "/\(name).wav"
        let raw = directory + "/\(name).raw"
        if !FileManager.default.fileExists(atPath: raw) {
            try run("espeak-ng", ["-w", wav, text])
            try run("sox", [wav, "-r", "48000", "-b", "16", "-c", "1", "-e", "signed-integer", "-t", "raw", raw])
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Float($0) / 32768 }
        let peak = samples.map(abs).max() ?? 0
        guard peak > 0 else { throw Failure.tool("espeak-ng wrote silence for \"\(text)\"") }
        let gain = pow(10, -6 / 20) / peak
        return samples.map { $0 * gain }
    }

    static func make(noise: Noise, rmsDBFS: Double, seed: UInt64, phrases spoken: [[Float]]) -> Room {
        var clean: [Float] = Array(repeating: 0, count: Int(lead * Double(rate)))
        var marks: [Phrase] = []
        let quiet = Float(pow(10, -50 / 20.0))
        for phrase in spoken {
            let onset = phrase.firstIndex { abs($0) > quiet } ?? 0
            let last = phrase.lastIndex { abs($0) > quiet } ?? 0
            marks.append(Phrase(onset: clean.count + onset, end: clean.count + last + 1))
            clean += phrase
            clean += Array(repeating: 0, count: Int(gap * Double(rate)))
        }
        var generator = NoiseGenerator(seed: seed)
        let room = generator.noise(noise, count: clean.count, rmsDBFS: rmsDBFS)
        let samples = zip(clean, room).map { clean, room in
            Int16(max(-32768, min(32767, ((clean + room) * 32768).rounded())))
        }
        return Room(samples: samples, phrases: marks)
    }

    /// A 16-bit WAV at `rate` Hz, mono unless `channels` says otherwise (samples interleaved).
    static func write(_ samples: [Int16], to path: String, channels: Int = 1) throws {
        var data = Data()
        func append<Value: FixedWidthInteger>(_ value: Value) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        let bytes = UInt32(samples.count * 2)
        data.append(contentsOf: Array("RIFF".utf8))
        append(36 + bytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(channels))
        append(UInt32(rate))
        append(UInt32(rate * channels * 2))
        append(UInt16(channels * 2))
        append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(bytes)
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// `room KIND DBFS SEED OUT.wav`.
    static func command(_ arguments: [String]) -> Int32 {
        guard arguments.count == 4, let noise = Noise(rawValue: arguments[0]), let level = Double(arguments[1]),
            level.isFinite, level <= 0, let seed = UInt64(arguments[2])
        else {
            printToStandardError(
                "usage: voicememo-bench room \(Noise.allCases.map(\.rawValue).joined(separator: "|")) DBFS SEED OUT.wav"
                    + " (DBFS ≤ 0, SEED a whole number)")
            return 2
        }
        let output = arguments[3]
        do {
            let directory = (output as NSString).deletingLastPathComponent
            let spoken = try spokenPhrases(in: directory.isEmpty ? "." : directory)
            let room = make(noise: noise, rmsDBFS: level, seed: seed, phrases: spoken)
            try write(room.samples, to: output)
            for phrase in room.phrases { print("\(phrase.onset) \(phrase.end)") }
            return 0
        } catch {
            printToStandardError("voicememo-bench room: \(error)")
            return 1
        }
    }

    /// Runs a tool from PATH; throws naming it when it fails.
    static func run(_ name: String, _ arguments: [String]) throws {
        guard let path = which(name) else { throw Failure.tool("\(name) is not installed (make deps installs it)") }
        guard let result = ChildProcess.run(path, arguments, environment: ProcessInfo.processInfo.environment),
            result.status == 0
        else { throw Failure.tool("\(name) \(arguments.joined(separator: " ")) failed") }
    }

    static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }
}

/// Seeded Gaussian noise (SplitMix64, Box–Muller) and the rooms' colours of it.
struct NoiseGenerator {
    private var state: UInt64
    private var spare: Double?

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func uniform() -> Double {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        return (Double(value >> 11) + 0.5) / Double(1 << 53)
    }

    mutating func gaussian() -> Double {
        if let spare {
            self.spare = nil
            return spare
        }
        let radius = (-2 * log(uniform())).squareRoot()
        let angle = 2 * Double.pi * uniform()
        spare = radius * sin(angle)
        return radius * cos(angle)
    }

    /// `count` samples of `kind`, scaled so their RMS is exactly `rmsDBFS`.
    mutating func noise(_ kind: RoomSynthesis.Noise, count: Int, rmsDBFS: Double) -> [Float] {
        var output = [Double](repeating: 0, count: count)
        let rate = Double(RoomSynthesis.rate)
        switch kind {
        case .white:
            for index in 0..<count { output[index] = gaussian() }
        case .pink:
            var b = [Double](repeating: 0, count: 7)
            for index in 0..<count {
                let white = gaussian()
                b[0] = 0.99886 * b[0] + white * 0.0555179
                b[1] = 0.99332 * b[1] + white * 0.0750759
                b[2] = 0.96900 * b[2] + white * 0.1538520
                b[3] = 0.86650 * b[3] + white * 0.3104856
                b[4] = 0.55000 * b[4] + white * 0.5329522
                b[5] = -0.7616 * b[5] - white * 0.0168980
                output[index] = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + white * 0.5362
                b[6] = white * 0.115926
            }
        case .brown:
            var level = 0.0
            for index in 0..<count {
                level = 0.999 * level + gaussian()
                output[index] = level
            }
        case .hum:
            let phases = (0..<3).map { _ in 2 * Double.pi * uniform() }
            for index in 0..<count {
                let time = Double(index) / rate
                output[index] = sin(2 * .pi * 50 * time + phases[0]) + 0.5 * sin(2 * .pi * 150 * time + phases[1])
                    + 0.3 * sin(2 * .pi * 250 * time + phases[2])
            }
        case .fan:
            let high = exp(-2 * Double.pi * 150 / rate)
            let low = 1 - exp(-2 * Double.pi * 1500 / rate)
            var (previous1, high1, previous2, high2, low1, low2) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
            for index in 0..<count {
                let white = gaussian()
                high1 = high * (high1 + white - previous1)
                previous1 = white
                high2 = high * (high2 + high1 - previous2)
                previous2 = high1
                low1 += low * (high2 - low1)
                low2 += low * (low1 - low2)
                output[index] = low2
            }
        case .babble:
            for _ in 0..<6 { addVoice(to: &output) }
        }
        let rms = (output.reduce(0) { $0 + $1 * $1 } / Double(max(count, 1))).squareRoot()
        let gain = rms > 0 ? pow(10, rmsDBFS / 20) / rms : 0
        return output.map { Float($0 * gain) }
    }

    /// Adds one babbling voice: syllables of a gliding pulse train through two formants.
    private mutating func addVoice(to output: inout [Double]) {
        let rate = Double(RoomSynthesis.rate)
        let vowels: [(Double, Double)] = [(730, 1090), (270, 2290), (530, 1840), (570, 840), (300, 870), (660, 1720)]
        var pitch = 90 + 130 * uniform()
        var phase = 0.0
        var index = Int(uniform() * 0.5 * rate)
        var state = (0.0, 0.0, 0.0, 0.0)
        while index < output.count {
            let length = Int((0.15 + 0.15 * uniform()) * rate)
            let (first, second) = vowels[Int(uniform() * Double(vowels.count)) % vowels.count]
            let radius = exp(-Double.pi * 120 / rate)
            let a1 = 2 * radius * cos(2 * .pi * first / rate), b1 = 2 * radius * cos(2 * .pi * second / rate)
            let glide = (uniform() - 0.5) * 40 / Double(length)
            for offset in 0..<length where index + offset < output.count {
                pitch = min(240, max(80, pitch + glide))
                phase += pitch / rate
                var pulse = 0.0
                if phase >= 1 {
                    phase -= 1
                    pulse = 1
                }
                let y = pulse + a1 * state.0 - radius * radius * state.1
                state.1 = state.0
                state.0 = y
                let z = y + b1 * state.2 - radius * radius * state.3
                state.3 = state.2
                state.2 = z
                let envelope = sin(Double.pi * Double(offset) / Double(length))
                output[index + offset] += z * envelope
            }
            index += length + Int(uniform() * uniform() * 0.4 * rate)
        }
    }
}
