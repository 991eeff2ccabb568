import ArgumentParsing
import Audio
import Foundation
import Vocabulary

/// Everything `voicememo play` needs once its arguments are parsed.
struct PlayRequest {
    /// The sound file to play.
    var file: String
    /// How messages name what plays: `memo 5 “Standup”` for a memo, else the file's path.
    var shownName: String?
    /// The ALSA playback device name (without `alsa:`).
    var device: String
    /// `--from`: seconds into the file to start at.
    var start: Double?
    /// Speed, pitch, volume, skip silence (identity without those flags: bit-exact playback).
    var adjustments = PlaybackAdjustments()
}

extension PlayRequest {
    /// Resolves MEMO to a file and fills in the default device.
    ///
    /// - Throws: `CommandFailure` (exit 1) when MEMO names nothing playable.
    init(_ options: PlayOptions, context: CommandContext) throws {
        let device = options.device ?? AutomaticDevices.playbackDevice
        let (file, memo) = try LibraryAccess.audioFile(for: options.memo, context: context)
        self.init(
            file: file, shownName: memo.map { "memo \($0.id) “\(TerminalText.safe($0.title))”" },
            device: InputName.playbackDevice(named: device),
            start: options.start?.seconds,
            adjustments: PlaybackAdjustments(
                speed: options.speed ?? 1, pitchSemitones: options.pitch ?? 0, volume: (options.volume ?? 100) / 100,
                skipsSilence: options.skipsSilence, enhances: options.enhances))
    }
}
