import Platform
import Audio
import Foundation

/// A key `voicememo play` takes on a terminal: the app's playback keys.
enum PlayKey: Equatable {
    /// Space: pause, or resume.
    case togglePause
    /// ← →: seek by these seconds.
    case seek(Double)
    /// `[` `]`: speed down or up by this many tenths.
    case speed(Int)
    /// `q`: stop and exit 0.
    case quit
}

/// Turns the bytes a terminal sends into `PlayKey`s (pure: bytes in, keys out). Arrows come as
/// `ESC [ C` / `ESC [ D` (or `ESC O C` in application mode), possibly split across reads;
/// anything else is ignored.
struct PlayKeyDecoder {
    /// Seconds an arrow seeks, as in the app.
    static let seekStep = 5.0
    private var pending: [UInt8] = []

    mutating func keys(from bytes: [UInt8]) -> [PlayKey] {
        var keys: [PlayKey] = []
        for byte in bytes {
            if !pending.isEmpty {
                pending.append(byte)
                if pending.count == 2 {
                    if byte != UInt8(ascii: "[") && byte != UInt8(ascii: "O") { pending = [] }
                    continue
                }
                // A CSI sequence ends at a byte in 0x40…0x7E; only C and D without parameters mean arrows.
                guard (0x40...0x7E).contains(byte) else {
                    if pending.count > 8 { pending = [] }
                    continue
                }
                if pending.count == 3, byte == UInt8(ascii: "C") { keys.append(.seek(Self.seekStep)) }
                if pending.count == 3, byte == UInt8(ascii: "D") { keys.append(.seek(-Self.seekStep)) }
                pending = []
                continue
            }
            switch byte {
            case 0x1B: pending = [byte]
            case UInt8(ascii: " "): keys.append(.togglePause)
            case UInt8(ascii: "["): keys.append(.speed(-1))
            case UInt8(ascii: "]"): keys.append(.speed(1))
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): keys.append(.quit)
            default: break
            }
        }
        return keys
    }

    /// The speed after `tenths` more steps from `speed`, within 0.5…3 (as `--speed` and the app).
    static func speed(_ speed: Double, stepped tenths: Int) -> Double {
        let steps = Int((speed * 10).rounded()) + tenths
        return Double(min(30, max(5, steps))) / 10
    }
}

/// Standard input, when it is a terminal, in non-canonical mode without echo, read without
/// blocking; restored as it was by `restore()` (called on every way out of `play`: its end,
/// `q`, a stop signal, an error — SIGINT, SIGTERM and SIGHUP are polled by `StopSignals`, so
/// their handlers return and the restore runs). `ISIG` stays on: Ctrl-C is still SIGINT.
final class TerminalKeys {
    private var saved: termios
    private var restored = false
    private var decoder = PlayKeyDecoder()

    /// `nil` when standard input is not a terminal (a pipe, a file, /dev/null) or its modes
    /// cannot be set: then `play` reads no keys and leaves standard input alone.
    init?() {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var modes = termios()
        guard tcgetattr(STDIN_FILENO, &modes) == 0 else { return nil }
        saved = modes
        modes.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &modes.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &modes) == 0 else { return nil }
    }

    deinit { restore() }

    /// The keys pressed since the last call (never blocks).
    func read() -> [PlayKey] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        return decoder.keys(from: Array(buffer.prefix(count)))
    }

    /// Puts the terminal back as it was. Idempotent.
    func restore() {
        guard !restored else { return }
        restored = true
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}

extension TerminalKeys {
    /// Applies `key` to `player`; returns `false` for `q`.
    ///
    /// - Throws: `PlayerError` when resuming fails (the device went away while paused).
    func apply(_ key: PlayKey, to player: Player) throws(PlayerError) -> Bool {
        switch key {
        case .quit:
            return false
        case .togglePause:
            if player.isPlaying { player.pause() } else { try player.play() }
        case .seek(let seconds):
            player.currentTime = min(max(0, player.currentTime + seconds), max(0, player.duration - 0.001))
        case .speed(let tenths):
            var adjustments = player.adjustments
            adjustments.speed = PlayKeyDecoder.speed(adjustments.speed, stepped: tenths)
            try? player.setAdjustments(adjustments)
        }
        return true
    }
}
