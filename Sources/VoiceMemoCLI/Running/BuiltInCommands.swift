extension CommandImplementations {
    /// The implementations the `voicememo` binary runs.
    ///
    /// To plug in a subcommand, set its slot here. A slot left empty makes the
    /// subcommand say it is not built yet (exit 2).
    public static var builtIn: CommandImplementations {
        var implementations = CommandImplementations()
        implementations.record = { options, context in
            try RecordRunner.run(RecordRequest(options, context: context), console: context.console)
        }
        implementations.meter = { options, context in
            try MeterRunner.run(MeterRequest(options, context: context), console: context.console)
        }
        implementations.play = { options, context in
            try PlayRunner.run(PlayRequest(options, context: context), console: context.console)
        }
        implementations.devices = { _, context in
            DevicesRunner.run(console: context.console)
        }
        return implementations
    }
}
