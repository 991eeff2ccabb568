import Streaming

extension CommandImplementations {
    /// The implementations the `voicememo` binary runs.
    ///
    /// To plug in a subcommand, set its slot here. A slot left empty makes the
    /// subcommand say it is not built yet (exit 2).
    public static var builtIn: CommandImplementations {
        var implementations = CommandImplementations()
        implementations.app = { options, context in try AppRunner.run(options, context: context) }
        implementations.record = { options, context in
            try RecordRunner.run(RecordRequest(options, context: context), context: context)
        }
        implementations.meter = { options, context in
            try MeterRunner.run(MeterRequest(options, context: context), console: context.console)
        }
        implementations.play = { options, context in
            if StreamURL.isStreamURL(options.memo) {
                return try StreamPlayRunner.run(StreamPlayRequest(options, context: context), console: context.console)
            }
            return try PlayRunner.run(PlayRequest(options, context: context), console: context.console)
        }
        implementations.devices = { _, context in
            DevicesRunner.run(console: context.console)
        }
        implementations.list = { options, context in try LibraryRunners.list(options, context: context) }
        implementations.rename = { options, context in try LibraryRunners.rename(options, context: context) }
        implementations.delete = { options, context in try LibraryRunners.delete(options, context: context) }
        implementations.restore = { options, context in try LibraryRunners.restore(options, context: context) }
        implementations.purge = { options, context in try LibraryRunners.purge(options, context: context) }
        implementations.recover = { _, context in try LibraryRunners.recover(context: context) }
        implementations.export = { options, context in try LibraryRunners.export(options, context: context) }
        implementations.mark = { options, context in try LibraryRunners.mark(options, context: context) }
        implementations.trim = { options, context in try EditRunners.trim(options, context: context) }
        implementations.split = { options, context in try EditRunners.split(options, context: context) }
        implementations.enhance = { options, context in try EditRunners.enhance(options, context: context) }
        implementations.waveform = { options, context in try EditRunners.waveform(options, context: context) }
        implementations.gain = { options, context in try GainRunner.run(options, context: context) }
        implementations.analyze = { options, context in
            try AnalyzeRunner.run(options, context: context)
        }
        implementations.transcribe = { options, context in try TranscriptionRunners.transcribe(options, context: context) }
        implementations.search = { options, context in try TranscriptionRunners.search(options, context: context) }
        return implementations
    }
}
