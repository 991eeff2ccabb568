import Glibc
import Foundation
import MemoLibrary
import Platform
import Vocabulary

/// The library's control socket as the commands see it: where it is, serving it, and asking it.
enum ControlConnection {
    /// The socket of the library the environment names (its folder's real path when it exists).
    static func socketPath(environment: [String: String]) throws -> String {
        "\(ControlPaths.socketFolder(environment: environment, uid: getuid()))/\(try name(environment: environment)).sock"
    }

    /// The log of a recording `toggle` started in the background; `nil` without a state folder.
    static func logPath(environment: [String: String]) throws -> String? {
        guard let folder = ControlPaths.stateFolder(environment: environment) else { return nil }
        return "\(folder)/\(try name(environment: environment)).log"
    }

    private static func name(environment: [String: String]) throws -> String {
        guard let folder = LibraryLocation.folder(environment: environment) else {
            throw CommandFailure("no library: set VOICEMEMO_HOME, XDG_DATA_HOME or HOME")
        }
        let absolute = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
        let real = realpath(absolute, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        }
        return ControlPaths.name(libraryFolder: real ?? absolute)
    }

    /// Serves the library's socket, or says why not (another process holds it; the folder cannot
    /// be made): the caller goes on without one, and says so on standard error.
    static func serve(
        context: CommandContext, answer: @escaping @Sendable (ControlRequest) -> ControlReply
    ) -> Result<ControlServer, CommandFailure> {
        do {
            let path = try socketPath(environment: context.environment)
            do {
                return .success(try ControlServer(path: path) { line in
                    switch ControlRequest.parse(line) {
                    case .success(let request): answer(request).line
                    case .failure(let problem): ControlReply.error(problem.message).line
                    }
                })
            } catch {
                return .failure(CommandFailure("not serving the control socket \(path): \(error.message)"))
            }
        } catch {
            return .failure(CommandFailure("not serving the control socket: \(error)"))
        }
    }

    /// Sends `request` to whichever process serves the library's socket; `nil` when none does.
    static func ask(_ request: ControlRequest, environment: [String: String]) throws -> ControlReply? {
        let path = try socketPath(environment: environment)
        switch ControlClient.send(request.line, to: path) {
        case .success(let line):
            guard let reply = ControlReply.parse(line) else {
                throw CommandFailure("\(path) answered something that is no reply: \(TerminalText.safe(String(line.prefix(80))))")
            }
            return reply
        case .failure(.noServer):
            return nil
        case .failure(.failed(let reason)):
            throw CommandFailure(reason)
        }
    }

    /// What serves the library's socket now; `nil` when nothing does.
    static func currentStatus(context: CommandContext) throws -> ControlStatus? {
        guard case .status(let status)? = try ask(.status, environment: context.environment) else { return nil }
        return status
    }

    /// `ask`, for the requests that need a running recording: a reply's text, or a failure
    /// (exit 1) naming the library when nothing serves it.
    static func require(_ request: ControlRequest, context: CommandContext) throws -> ControlReply {
        guard let reply = try ask(request, environment: context.environment) else {
            throw CommandFailure(nothingRunning(environment: context.environment))
        }
        if case .error(let text) = reply { throw CommandFailure(text) }
        return reply
    }

    /// After a `toggle` or `stop` a `record` answered: waits until that process stops serving
    /// the socket (its recording is saved: the socket closes once the file is complete), saying
    /// on a terminal that it waits when that takes a moment. The words to print then, `nil` when
    /// `status` was no `record`'s (the app saves beside its loop and says so on its screen).
    static func waitForSave(of status: ControlStatus?, context: CommandContext) -> String? {
        guard let status, status.process == .record else { return nil }
        let memo = status.memo.map { "memo \($0)" } ?? "the memo"
        var said = false
        for tick in 0..<(20 * 60 * 10) {
            guard case .status(let now)? = try? ask(.status, environment: context.environment), now.pid == status.pid else {
                return "saved \(memo)"
            }
            if tick == 5, !said, context.console.isErrorTerminal {
                context.console.writeError("waiting for \(memo) to be saved…\n")
                said = true
            }
            usleep(100_000)
        }
        return "\(memo) is still being saved (pid \(status.pid))"
    }

    /// "nothing is recording: …", naming the library and the socket looked for.
    static func nothingRunning(environment: [String: String]) -> String {
        let library = LibraryLocation.folder(environment: environment) ?? "(none)"
        let path = (try? socketPath(environment: environment)) ?? "(none)"
        return "nothing is recording in the library \(library): no voicememo serves \(path)"
    }
}
