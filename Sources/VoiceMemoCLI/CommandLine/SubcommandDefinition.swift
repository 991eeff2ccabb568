import ArgumentParsing

/// One subcommand: its arguments, how they become typed options, and what running it does.
///
/// A subcommand is a folder under `Subcommands/` (its definition, its options, its runner)
/// and one line in ``CommandLineRunner/subcommands``.
protocol SubcommandDefinition: Sendable {
    /// The typed result of parsing, handed to ``run(_:context:)``.
    associatedtype Options: Sendable

    /// The arguments, for the parser and the help text.
    static var specification: CommandSpecification { get }

    /// Builds the typed options, checking what no single value parser can (combinations).
    static func options(from arguments: ParsedArguments) throws(UsageError) -> Options

    /// Runs the subcommand with its parsed options.
    ///
    /// Return ``ExitCode/success`` when done, ``ExitCode/interrupted`` when interrupted before
    /// anything was kept; throw ``CommandFailure`` (or any error) for runtime failures and
    /// ``UsageError`` for combinations only found wrong while running (e.g. a format that cannot
    /// hold the requested rate).
    static func run(_ options: Options, context: CommandContext) throws -> ExitCode
}

/// A subcommand with its option type erased, so all of them fit in one table.
struct Subcommand: Sendable {
    /// The subcommand's declarations.
    let specification: CommandSpecification
    /// What running the subcommand with parsed arguments does.
    let perform: @Sendable (ParsedArguments, CommandContext) throws -> ExitCode

    /// The name that selects it: `record`.
    var name: String { specification.name }
}

extension Subcommand {
    init<Definition: SubcommandDefinition>(_ definition: Definition.Type) {
        self.init(
            specification: definition.specification,
            perform: { arguments, context in
                try definition.run(try definition.options(from: arguments), context: context)
            })
    }
}
