/// The code that runs a subcommand once its arguments are parsed into `Options`.
///
/// Return ``ExitCode/success`` when done, ``ExitCode/interrupted`` when interrupted before
/// anything was kept; throw ``CommandFailure`` (or any error) for runtime failures and
/// ``UsageError`` for combinations only found wrong while running (e.g. a format that cannot
/// hold the requested rate).
public typealias CommandImplementation<Options> =
    @Sendable (Options, CommandContext) throws -> ExitCode

/// The registry of subcommand implementations, one typed slot per subcommand.
///
/// A slot left `nil` makes the subcommand validate its arguments and then report
/// `voicememo: 'record' is not built yet` with exit status 2. ``builtIn`` is the table the
/// real binary uses; tests pass their own.
public struct CommandImplementations: Sendable {
    /// `voicememo` with no subcommand: the full-screen app.
    public var app: CommandImplementation<AppOptions>?
    public var record: CommandImplementation<RecordOptions>?
    public var meter: CommandImplementation<MeterOptions>?
    public var list: CommandImplementation<ListOptions>?
    public var play: CommandImplementation<PlayOptions>?
    public var rename: CommandImplementation<RenameOptions>?
    public var delete: CommandImplementation<DeleteOptions>?
    public var restore: CommandImplementation<RestoreOptions>?
    public var purge: CommandImplementation<PurgeOptions>?
    public var export: CommandImplementation<ExportOptions>?
    public var mark: CommandImplementation<MarkOptions>?
    public var trim: CommandImplementation<TrimOptions>?
    public var split: CommandImplementation<SplitOptions>?
    public var enhance: CommandImplementation<EnhanceOptions>?
    public var waveform: CommandImplementation<WaveformOptions>?
    public var devices: CommandImplementation<DevicesOptions>?
    public var analyze: CommandImplementation<AnalyzeOptions>?
    public var gain: CommandImplementation<GainOptions>?
    public var transcribe: CommandImplementation<TranscribeOptions>?
    public var search: CommandImplementation<SearchOptions>?
    public var recover: CommandImplementation<RecoverOptions>?

    /// A table with no implementations: every subcommand is "not built yet".
    public init() {}
}
