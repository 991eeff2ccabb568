import Metering
import Vocabulary

/// `status`: the control socket's `status`, or that nothing runs.
enum StatusRunner {
    static func run(_ options: StatusOptions, context: CommandContext) throws -> ExitCode {
        guard let reply = try ControlConnection.ask(.status, environment: context.environment) else {
            var lastError: (log: String, message: String)?
            if let log = try ControlConnection.logPath(environment: context.environment),
                let message = BackgroundRecording.lastError(inLog: log)
            {
                lastError = (log, message)
            }
            if options.json {
                var members: [(String, JSONValue)] = [("running", false)]
                if let lastError { members.append(("lastError", .string(lastError.message))) }
                context.console.printJSON(JSONValue.object(members).serialized)
            } else {
                context.console.printLine(ControlConnection.nothingRunning(environment: context.environment))
                if let lastError {
                    context.console.printLine("the last background recording failed: \(lastError.message) (log: \(lastError.log))")
                }
            }
            return .success
        }
        switch reply {
        case .error(let text):
            throw CommandFailure(text)
        case .ok(let text):
            throw CommandFailure("the control socket answered status with “\(TerminalText.safe(text))”")
        case .status(let status):
            if options.json {
                var members: [(String, JSONValue)] = [
                    ("running", true), ("process", .string(status.process.rawValue)),
                    ("state", .string(status.state.rawValue)), ("elapsed", .number(status.elapsed)),
                    ("pid", .int(Int64(status.pid))),
                ]
                members.append(("memo", status.memo.map { JSONValue.int($0) } ?? .null))
                members.append(("title", status.title.map { JSONValue.string($0) } ?? .null))
                context.console.printJSON(JSONValue.object(members).serialized)
            } else {
                let what = status.process == .app ? "the app" : "voicememo record"
                var line = "\(what) (pid \(status.pid)): \(status.state.rawValue)"
                if status.state != .idle { line += " \(DisplayFormat.elapsedTime(seconds: status.elapsed))" }
                if let memo = status.memo { line += ", memo \(memo)" }
                if let title = status.title { line += " “\(TerminalText.safe(title))”" }
                context.console.printLine(line)
            }
            return .success
        }
    }
}
