import Foundation
import Testing

/// `voicememo devices`: ALSA's PCMs as `arecord -L` / `aplay -L` list them.
@Suite struct DevicesCommandTests {
    @Test func listsWhatArecordListsLessTheHelperPluginsUnlessAll() throws {
        let sandbox = try VoiceMemoSandbox()
        let ours = try sandbox.run("devices")
        #expect(ours.status == 0, "\(ours)")
        let all = try sandbox.run("devices", "--all")
        #expect(all.status == 0, "\(all)")
        let arecord = try sandbox.shell("arecord -L 2>/dev/null | grep -v '^ '")
        let helpers: Set<String> = ["null", "lavrate", "samplerate", "speexrate", "speex", "upmix", "vdownmix", "dmix"]
        for name in arecord.standardOutput.split(separator: "\n").map(String.init) {
            #expect(all.standardOutput.contains("\n  \(name)\n"), "--all lists \(name)")
            if helpers.contains(String(name.prefix { $0 != ":" })) {
                #expect(!ours.standardOutput.contains("\n  \(name)\n"), "\(name) is a helper: not listed")
                #expect(ours.standardOutput.contains("(not listed: "), "\(ours)")
            } else {
                #expect(ours.standardOutput.contains("\n  \(name)\n"), "\(name) is listed")
            }
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
