import Dispatch
import Foundation

/// A program the tests run to read its output: sox, ffmpeg and ffprobe as independent readers
/// of our files, arecord and aplay beside our ALSA code.
public enum Tool {
    /// A run that exited with a status other than 0.
    public struct Failed: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// What a run left: its exit status, its standard output and its standard error.
    public struct Run {
        public var status: Int32
        public var output: Data
        public var standardError: String

        /// The standard output as text.
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `tool` with `arguments` (and `environment` over this process's) to its end.
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes at once, so a tool that fills one while the other is read never stalls.
        nonisolated(unsafe) var errorData = Data()
        let errorsRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            errorsRead.signal()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: data, standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// `tool`'s standard output.
    ///
    /// - Throws: ``Failed`` when it exits with a status other than 0.
    public static func output(_ tool: String, _ arguments: [String]) throws -> Data {
        let run = try run(tool, arguments)
        guard run.status == 0 else {
            throw Failed(description: "\(tool) \(arguments) exited \(run.status)")
        }
        return run.output
    }

    /// Whether `path` is a program this process may run.
    public static func exists(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }
}
