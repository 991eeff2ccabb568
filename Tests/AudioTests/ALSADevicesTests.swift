import TestSupport
import Foundation
import Testing

@testable import Audio

/// `ALSADevices.list` against what alsa-utils prints for the same configuration.
@Suite struct ALSADevicesTests {
    /// The device names `arecord -L` / `aplay -L` print (lines not indented).
    private func namesListed(by program: String) throws -> [String] {
        try Tool.run(program, ["-L"]).text
            .split(separator: "\n")
            .filter { !$0.hasPrefix(" ") && !$0.hasPrefix("\t") }
            .map(String.init)
    }

    @Test func captureDevicesIncludeNull() {
        let devices = ALSADevices.list(stream: .capture)
        let null = devices.first { $0.name == "null" }
        #expect(null != nil)
        #expect(null?.description.contains("Discard all samples") == true)
        #expect(devices.allSatisfy { $0.streams.contains(.capture) })
    }

    @Test(.enabled(if: Tool.exists("/usr/bin/arecord"), "arecord (alsa-utils) is not installed"))
    func captureListMatchesArecord() throws {
        #expect(ALSADevices.list(stream: .capture).map(\.name) == (try namesListed(by: "/usr/bin/arecord")))
    }

    @Test(.enabled(if: Tool.exists("/usr/bin/aplay"), "aplay (alsa-utils) is not installed"))
    func playbackListMatchesAplay() throws {
        #expect(ALSADevices.list(stream: .playback).map(\.name) == (try namesListed(by: "/usr/bin/aplay")))
    }

    @Test func listedDevicesOpen() throws {
        // "null" works everywhere; it is the one device this machine certainly has.
        let pcm = try ALSAPCM(device: "null", stream: .capture)
        #expect(pcm.state == .open)
        try pcm.configure(ALSATestDevices.stereo48k)
        #expect(pcm.state == .prepared)
        pcm.close()
        #expect(pcm.state == .closed)
    }
}
