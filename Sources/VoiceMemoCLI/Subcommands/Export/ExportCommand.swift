import SoundFiles
import ArgumentParsing
import MemoLibrary
import Metering

/// `voicememo export MEMO [PATH] [--labels FILE] [--format F] [--transcript T]`: write a copy of
/// a memo (its audio, or its transcript as text or subtitles) to a file, its markers to a label
/// track, or both.
enum ExportCommand: SubcommandDefinition {
    static let path = Positional<String>(
        name: "PATH",
        help: "The sound file to write (optional with --labels); a folder (one that exists, or "
            + "a path ending in /) gets <title>.<ext> in it; a name without a sound file extension "
            + "gets the format's (Standup → Standup.flac). A name ending in .txt, .srt, .vtt or .md "
            + "gets the memo's transcript instead (text, subtitles, Markdown); - writes to standard output.",
        isOptional: true,
        parser: ValueParser.nonEmptyText.completing(.file))
    static let labels = Option<String>(
        name: "labels", valueName: "FILE",
        help: "Also (or only) write the memo's markers to FILE as an Audacity label track.",
        parser: ValueParser.nonEmptyText.completing(.file))
    static let format = Option<FileFormat>(
        name: "format", valueName: "F",
        help: "The file format: wav, flac, ogg, opus, mp3, caf, aiff or m4a (AAC).",
        defaultDescription: "from PATH's extension, else the memo's own", parser: .choice(otherNames: FileFormat.otherNames))

    static let loudness = Option<Double>(
        name: "loudness", valueName: "LUFS",
        help: "Normalise the copy to this integrated loudness (EBU R128), -70 to 0: -16 for a "
            + "podcast, -23 for broadcast. Two passes: the memo is measured, then written with a "
            + "gain and a true-peak limiter; the copy is measured again and kept only within "
            + "0.5 LU of it.",
        parser: .number(in: LoudnessTarget.integratedRange, unit: "LUFS"))
    static let truePeak = Option<Double>(
        name: "true-peak", valueName: "DBTP",
        help: "With --loudness: the true-peak ceiling the copy stays under, -30 to 0.",
        defaultDescription: "-1", parser: .number(in: -30...LoudnessTarget.highestCeiling, unit: "dBTP"))

    static let enhance = Flag(
        name: "enhance",
        help: "Suppress the background noise in the copy, as 'voicememo enhance' does (before --loudness); "
            + "the memo stays as it is.")

    static let transcript = Option<TranscriptFormat>(
        name: "transcript", valueName: "T",
        help: "Write the memo's transcript instead of its audio: txt (paragraphs), srt or vtt "
            + "(subtitles: cues of at most 2 lines and 7 s, split at pauses) or md (Markdown with times).",
        defaultDescription: "from PATH's extension", parser: .choice)

    static let force = Flag(
        name: "force", help: "Replace a file already at PATH (only once the new copy is complete).")

    static let specification = CommandSpecification(
        name: "export", abstract: "Write a copy of a memo to a file, converting if needed.",
        discussion: "An existing file at PATH is never replaced unless --force is given; even then "
            + "the copy is written beside it first and renamed over it only when complete, so a "
            + "failed export leaves the old file as it was. --force never replaces a memo's file, "
            + "the memo index or anything but a regular file. Every destination is checked before "
            + "anything is written: a folder that does not exist, or --labels naming the audio "
            + "copy's own file, is refused with nothing written.",
        options: [format, force, labels, loudness, truePeak, enhance, transcript], positionals: [SharedArguments.memo, path])

    static func options(from arguments: ParsedArguments) throws(UsageError) -> ExportOptions {
        let path = try arguments.value(of: path)
        let labels = try arguments.value(of: labels)
        guard path != nil || labels != nil else {
            throw UsageError.missingArgument("\(Self.path.name) (or --labels FILE)")
        }
        let transcript = try transcriptFormat(from: arguments, path: path)
        return ExportOptions(
            memo: try arguments.requiredValue(of: SharedArguments.memo),
            path: path, labels: labels,
            format: try arguments.value(of: format),
            force: arguments.isSet(force),
            loudness: try loudnessTarget(from: arguments, path: path),
            enhance: try enhanceFlag(from: arguments, path: path),
            transcript: transcript)
    }

    /// `--transcript`, or the transcript format PATH's extension names (without `--format`);
    /// neither mixes with what only audio has (`--format`, `--loudness`, `--enhance`).
    static func transcriptFormat(from arguments: ParsedArguments, path: String?) throws(UsageError) -> TranscriptFormat? {
        let asked = try arguments.value(of: transcript)
        if asked != nil, path == nil { throw .missingCompanion(option: transcript.longForm, requirement: Self.path.name) }
        let named = path.flatMap(TranscriptFormat.named(byExtensionOf:))
        let audioOnly: String? =
            try arguments.value(of: format) != nil ? format.longForm
            : try arguments.value(of: loudness) != nil ? loudness.longForm
            : arguments.isSet(enhance) ? enhance.longForm : nil
        if let audioOnly {
            if asked != nil { throw .conflictingArguments(transcript.longForm, audioOnly) }
            if named != nil, audioOnly != format.longForm {
                throw .conflictingArguments(Self.path.name + " (a transcript's ." + (named?.rawValue ?? "") + ")", audioOnly)
            }
            return nil
        }
        return asked ?? named
    }

    /// `--enhance`, which needs PATH (a label track has no audio to enhance).
    static func enhanceFlag(from arguments: ParsedArguments, path: String?) throws(UsageError) -> Bool {
        guard arguments.isSet(enhance) else { return false }
        if path == nil { throw .missingCompanion(option: enhance.longForm, requirement: Self.path.name) }
        return true
    }

    /// `--loudness` and `--true-peak`: a target, or `nil` without `--loudness`.
    static func loudnessTarget(from arguments: ParsedArguments, path: String?) throws(UsageError) -> LoudnessTarget? {
        let integrated = try arguments.value(of: loudness)
        let ceiling = try arguments.value(of: truePeak)
        guard let integrated else {
            if ceiling != nil { throw .missingCompanion(option: truePeak.longForm, requirement: loudness.longForm) }
            return nil
        }
        if path == nil { throw .missingCompanion(option: loudness.longForm, requirement: Self.path.name) }
        return LoudnessTarget(integrated: integrated, truePeak: ceiling ?? LoudnessTarget.defaultCeiling)
    }

    static func run(_ options: ExportOptions, context: CommandContext) throws -> ExitCode {
        try ExportRunner.run(options, context: context)
    }
}
