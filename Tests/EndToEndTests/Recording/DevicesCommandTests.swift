import Foundation
import Testing

/// `voicememo devices`: ALSA's PCMs as `arecord -L` / `aplay -L` list them.
@Suite struct DevicesCommandTests {
    @Test func listsWhatArecordLists() throws {
        let sandbox = try VoiceMemoSandbox()
        let ours = try sandbox.run("devices")
        #expect(ours.status == 0, "\(ours)")
        let arecord = try sandbox.shell("arecord -L 2>/dev/null | grep -v '^ '")
        for name in arecord.standardOutput.split(separator: "\n") {
            #expect(ours.standardOutput.contains("\n  \(name)\n"), "\(name) is listed")
        }
    }

    @Test func saysSoWhenThereAreNone() throws {
        let sandbox = try VoiceMemoSandbox()
        let empty = sandbox.file("empty.conf")
        try Data("\n".utf8).write(to: URL(fileURLWithPath: empty))
        sandbox.environment["ALSA_CONFIG_PATH"] = empty
        let outcome = try sandbox.run("devices")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains("ALSA lists no capture device"))
        #expect(outcome.standardOutput.contains("tone:1000@-12"))
    }
}
