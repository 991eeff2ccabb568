import Foundation

extension VoiceMemoSandbox {
    /// `voicememo list --json [--deleted] [--no-wait]`, decoded (`--no-wait`: recoveries are left for later).
    func listedMemos(deleted: Bool = false, noWait: Bool = false, timeout: Duration = .seconds(30)) throws -> [[String: Any]] {
        let outcome = try run(
            arguments: ["list", "--json"] + (deleted ? ["--deleted"] : []) + (noWait ? ["--no-wait"] : []), timeout: timeout)
        guard outcome.status == 0,
            let array = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]]
        else {
            throw LibraryTestFailure(description: "list --json failed: \(outcome)")
        }
        return array
    }

    /// Records a short memo (unpaced tone) and returns its id.
    func recordMemo(
        title: String? = nil, format: String = "wav", seconds: String = "0.3", timeout: Duration = .seconds(30)
    ) throws -> String {
        var arguments = ["record", "--source", "tone:440@-6", "--duration", seconds, "--format", format]
        if let title { arguments += ["--title", title] }
        var environment = self.environment
        environment["VOICEMEMO_UNPACED"] = "1"
        let outcome = try ProcessRunner.run(
            try VoiceMemoBinary.url(), arguments: arguments, environment: environment, timeout: timeout)
        guard outcome.status == 0 else { throw LibraryTestFailure(description: "record failed: \(outcome)") }
        return outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct LibraryTestFailure: Error, CustomStringConvertible {
    let description: String
}
