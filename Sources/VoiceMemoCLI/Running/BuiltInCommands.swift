extension CommandImplementations {
    /// The implementations the `voicememo` binary runs.
    ///
    /// To plug in a subcommand, set its slot here, e.g.
    /// `implementations.record = { options, context in try Recording.run(options, context) }`.
    public static var builtIn: CommandImplementations {
        let implementations = CommandImplementations()
        return implementations
    }
}
