import Metering

/// The keys that change how the memo plays and where, while one plays: `[` `]` speed
/// ∓0.1× (0.5–3×), `{` `}` pitch ∓1 semitone (±12), `-` and `+`/`=` volume ∓10 % (0–150 %),
/// `x` skip silence, `0`–`9` jump to 0–90 % of the memo, `,` `.` seek ∓1 s. Part of `reduce`.
///
/// The header shows the new settings at once; the player takes them from the effect
/// runner (`Effect.adjustPlayback`). The settings stay for the next memo played, and the
/// settings keys (not the jumps) also work with nothing playing, for the next memo. Their
/// rows in `KeyTable` name the keys.
enum PlaybackAdjustmentKeys {
    /// How far `,` and `.` move the play head, in seconds.
    static let fineSeekStep: Double = 1

    /// What one of these keys does (another key does nothing).
    static func adjust(_ key: Key, _ state: inout AppState) -> [Effect] {
        guard case .character(let character) = key else { return [] }
        var playback = state.playback ?? PlaybackState(memoID: -1, title: "", duration: 0, channels: 0)
        let isPlaying = state.playback != nil
        if character.isNumber || character == "," || character == "." {
            guard isPlaying else { return unchanged("Nothing is playing. Press ⏎ to play; then 0–9 jump, , . seek 1 s.", &state) }
        }
        if let digit = character.wholeNumberValue {
            let target = playback.duration * Double(digit) / 10
            playback.elapsed = target
            state.playback = playback
            return [.jumpPlayback(to: target)]
        }
        var settings = state.playbackSettings
        switch character {
        case ",", ".":
            let step = character == "," ? -fineSeekStep : fineSeekStep
            playback.elapsed = min(max(playback.elapsed + step, 0), playback.duration)
            state.playback = playback
            return [.seekPlayback(by: step)]
        case "[", "]":
            let range = PlaybackSettings.speedTenthsRange
            let next = settings.speedTenths + (character == "]" ? 1 : -1)
            guard range.contains(next) else {
                return unchanged(character == "]" ? "Already at the fastest speed, 3×." : "Already at the slowest speed, 0.5×.", &state)
            }
            settings.speedTenths = next
            state.say("Speed \(settings.speedText), pitch kept.")
        case "{", "}":
            let next = settings.pitchSemitones + (character == "}" ? 1 : -1)
            guard PlaybackSettings.pitchRange.contains(next) else {
                return unchanged(character == "}" ? "Already 12 semitones up." : "Already 12 semitones down.", &state)
            }
            settings.pitchSemitones = next
            state.say("Pitch \(settings.pitchText), speed kept.")
        case "+", "=", "-":
            let range = PlaybackSettings.volumeRange
            let step = character == "-" ? -PlaybackSettings.volumeStep : PlaybackSettings.volumeStep
            let next = min(max(settings.volumePercent + step, range.lowerBound), range.upperBound)
            guard next != settings.volumePercent else {
                return unchanged(character == "-" ? "The volume is already 0 %." : "The volume is already at its most, 150 %.", &state)
            }
            settings.volumePercent = next
            playback.clippedSamplesAtVolumeChange = playback.clippedSamples
            if isPlaying { state.playback = playback }
            state.say(next > 100 ? "Volume \(next) %: above 100 % loud parts clip (CLIP shows it)." : "Volume \(next) %.")
        case "x":
            settings.skipsSilence.toggle()
            state.say(settings.skipsSilence ? "Skipping silence (all but a quarter second of each pause)." : "Skip silence off.")
        case "f":
            settings.enhances.toggle()
            state.say(
                settings.enhances
                    ? "Enhance on: background noise suppressed while playing; F makes an enhanced memo of it."
                    : "Enhance off.")
        default:
            return []
        }
        state.playbackSettings = settings
        if !isPlaying, let status = state.status { state.say(status.text + " For the memos you play.") }
        return [.adjustPlayback(settings)]
    }

    /// The player's skipped seconds and clipped samples at a tick; says so once when the
    /// current volume starts to clip.
    static func absorb(_ snapshot: PlaybackSnapshot, into playback: inout PlaybackState, _ state: inout AppState) {
        let wasClipping = playback.isClipping
        playback.skippedSeconds = max(snapshot.skippedSeconds.isFinite ? snapshot.skippedSeconds : 0, 0)
        // A count that went down is a new player's: nothing of it clipped at this volume yet.
        if snapshot.clippedSamples < playback.clippedSamplesAtVolumeChange { playback.clippedSamplesAtVolumeChange = 0 }
        playback.clippedSamples = max(snapshot.clippedSamples, 0)
        if playback.isClipping, !wasClipping {
            state.say("Clipping at \(state.playbackSettings.volumePercent) %: press - to lower the volume.")
        }
    }

    private static func unchanged(_ message: String, _ state: inout AppState) -> [Effect] {
        state.say(message)
        return []
    }
}
