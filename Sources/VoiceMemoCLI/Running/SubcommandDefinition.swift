import ArgumentParsing

/// The declaration of one subcommand: its arguments, how they become typed options, and
/// which slot of ``CommandImplementations`` runs it.
protocol SubcommandDefinition: Sendable {
    /// The typed result of parsing, handed to the implementation.
    associatedtype Options: Sendable

    /// The arguments, for the parser and the help text.
    static var specification: CommandSpecification { get }

    /// Builds the typed options, checking what no single value parser can (combinations).
    static func options(from arguments: ParsedArguments) throws(UsageError) -> Options

    /// The implementation in `implementations`, if it is built.
    static func implementation(
        in implementations: CommandImplementations
    ) -> CommandImplementation<Options>?
}

/// A subcommand with its option type erased, so all of them fit in one table.
struct Subcommand: Sendable {
    /// The subcommand's declarations.
    let specification: CommandSpecification
    /// What running the subcommand with parsed arguments does.
    let perform: @Sendable (ParsedArguments, CommandContext, CommandImplementations) throws -> ExitCode

    init<Definition: SubcommandDefinition>(_ definition: Definition.Type) {
        specification = definition.specification
        perform = { arguments, context, implementations in
            let options = try definition.options(from: arguments)
            guard let implementation = definition.implementation(in: implementations) else {
                throw NotBuiltYet.subcommand(definition.specification.name)
            }
            return try implementation(options, context)
        }
    }

    /// The name that selects it: `record`.
    var name: String { specification.name }
}

/// A subcommand, or the app, whose implementation does not exist yet.
enum NotBuiltYet: Error {
    case app
    case subcommand(String)

    /// What is missing, as the message names it: `'record'`, `the full-screen app`.
    var name: String {
        switch self {
        case .app: "the full-screen app"
        case .subcommand(let name): "'\(name)'"
        }
    }
}
