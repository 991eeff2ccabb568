/// A whole program as its man page and shell completions describe it: the same command
/// declarations the parser and `--help` use, plus the words only a manual has.
public struct ProgramDescription: Sendable {
    /// A titled part of the manual such as FILES or ENVIRONMENT.
    public struct Section: Sendable {
        public var title: String
        /// Each entry is a term (`$VOICEMEMO_HOME`) and what it means; a `nil` term is a plain
        /// paragraph.
        public var entries: [(term: String?, text: String)]

        public init(title: String, entries: [(term: String?, text: String)]) {
            self.title = title
            self.entries = entries
        }
    }

    /// The program's name as typed: `voicememo`.
    public var name: String
    public var version: String
    /// The NAME line's words after the dash.
    public var summary: String
    /// The paragraphs of DESCRIPTION.
    public var description: [String]
    /// What the program takes with no subcommand (the full-screen app's options), without
    /// `--help` and `--version`, which every program here has.
    public var globalOptions: [OptionSpecification]
    public var commands: [CommandSpecification]
    /// FILES, ENVIRONMENT, EXIT STATUS and the like, in order, after OPTIONS.
    public var sections: [Section]
    /// Command lines and what each does.
    public var examples: [(command: String, text: String)]
    /// The arguments that make the program print its memos one per line (ids, then titles),
    /// for completing a MEMO.
    public var memoListingArguments: [String]

    public init(
        name: String, version: String, summary: String, description: [String],
        globalOptions: [OptionSpecification], commands: [CommandSpecification], sections: [Section],
        examples: [(command: String, text: String)], memoListingArguments: [String]
    ) {
        self.name = name
        self.version = version
        self.summary = summary
        self.description = description
        self.globalOptions = globalOptions
        self.commands = commands
        self.sections = sections
        self.examples = examples
        self.memoListingArguments = memoListingArguments
    }

    /// `--help` and `--version`, as every command line of the program understands them.
    static let standardOptions = [
        OptionSpecification.help,
        OptionSpecification(name: "version", help: "Show the version of the program and of its libraries.", kind: .flag),
    ]
}
