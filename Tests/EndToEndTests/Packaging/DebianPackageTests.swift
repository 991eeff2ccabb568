import Foundation
import Testing

/// The Debian package of the binary under test, installed as a user would (`apt-get install ./….deb`),
/// then run from where it installed: `voicememo --version`, a one-second recording of a tone,
/// `voicememo list`; its man page and completions are where Debian looks; then removed, leaving
/// nothing behind.
///
/// It installs into this machine's /usr, so it runs only as root (or with a password-less
/// sudo) and only where no voicememo package or /usr/bin/voicememo is there already (it would
/// replace the user's and then remove it): otherwise it is skipped, saying which.
///
/// Tests/run-all.sh makes the package beside the unit tier (`nice -n 19 packaging/build-deb.sh`
/// on the release build's `voicememo`, linked with the Swift runtime inside, as `make deb`'s is)
/// and runs this suite once it is done, writing the exit status to the file
/// `VOICEMEMO_TEST_DEB_STATUS` names, with the log beside it; the test still waits for that file
/// (without holding a thread) when run otherwise.
@Suite(.serialized) struct DebianPackageTests {
    static let installed = "/usr/bin/voicememo"

    /// "" as root, "sudo -n" where sudo needs no password, nil where neither.
    static let privilege: String? = {
        if getuid() == 0 { return "" }
        let sudo = try? ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "sudo -n true"], environment: [:])
        return sudo?.status == 0 ? "sudo -n" : nil
    }()

    static let alreadyThere: Bool = {
        let query = try? ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "dpkg-query -W -f='${Status}' voicememo 2>/dev/null"],
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"])
        return FileManager.default.fileExists(atPath: installed) || (query?.standardOutput.contains("installed") ?? false)
    }()

    /// The .deb run-all's packaging made, once it is done; throws with its log if it failed.
    static func builtPackage() async throws -> String {
        guard let statusFile = ProcessInfo.processInfo.environment["VOICEMEMO_TEST_DEB_STATUS"], !statusFile.isEmpty else {
            throw LibraryTestFailure(description:
                "VOICEMEMO_TEST_DEB_STATUS is not set: run the e2e tier through Tests/run-all.sh (make test), which makes the package")
        }
        let log = statusFile + ".log"
        let deadline = Date().addingTimeInterval(30 * 60)
        while !FileManager.default.fileExists(atPath: statusFile) {
            guard Date() < deadline else {
                throw LibraryTestFailure(description: "the packaging did not finish within 30 minutes (no \(statusFile)); its log \(log)")
            }
            try await Task.sleep(for: .seconds(2))
        }
        let status = (try? String(contentsOfFile: statusFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard status == "0", let last = said.split(separator: "\n").last.map(String.init), last.hasSuffix(".deb"),
            FileManager.default.fileExists(atPath: last)
        else {
            throw LibraryTestFailure(description: "the packaging failed (exit \(status ?? "?")): \(said.suffix(3000))")
        }
        return last
    }

    /// `Depends:` names FFmpeg's four libraries and libpulse's package, which the binary loads at
    /// first use (dlopen, unseen by dpkg-shlibdeps), beside what it links with; libpulse0 once.
    @Test func theControlFileDependsOnTheFFmpegItLoads() async throws {
        let sandbox = try VoiceMemoSandbox()
        let package = try await Self.builtPackage()
        let control = try sandbox.shell("dpkg-deb -f '\(package)' Depends")
        #expect(control.status == 0, "\(control)")
        let depends = control.standardOutput.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        for library in ["libavutil", "libswresample", "libavcodec", "libavformat", "libsndfile1", "libpulse0"] {
            #expect(depends.contains { $0.hasPrefix(library) && $0.contains("(>= ") }, "\(library) in \(depends)")
        }
        #expect(depends.filter { $0.hasPrefix("libpulse0 ") }.count == 1, "\(depends)")
    }

    @Test(
        .enabled(if: privilege != nil, "installing a package needs root or a password-less sudo"),
        .enabled(if: !alreadyThere, "voicememo is installed on this machine already (\(installed)); the test would replace it"))
    func thePackageInstallsRunsAndRemovesCleanly() async throws {
        let sandbox = try VoiceMemoSandbox()
        let package = try await Self.builtPackage()
        let sudo = Self.privilege ?? ""
        let apt = "\(sudo) env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin"
        let install = try sandbox.shell("\(apt) apt-get install -y -q '\(URL(fileURLWithPath: package).path)' 2>&1", timeout: .seconds(300))
        defer {
            let removed = try? sandbox.shell("\(apt) apt-get remove -y -q voicememo 2>&1", timeout: .seconds(300))
            #expect(removed?.status == 0, "apt-get remove: \(String(describing: removed))")
            #expect(!FileManager.default.fileExists(atPath: Self.installed), "removed: \(String(describing: removed))")
        }
        #expect(install.status == 0, "apt-get install: \(install)")
        try #require(FileManager.default.fileExists(atPath: Self.installed), "installed at \(Self.installed): \(install)")

        // Run from /usr/bin with a PATH that has no build folder in it.
        var environment = sandbox.environment
        environment["PATH"] = "/usr/bin:/bin"
        environment["VOICEMEMO_BIN_DIR"] = nil
        func run(_ arguments: String...) throws -> ProcessOutcome {
            try ProcessRunner.run(URL(fileURLWithPath: Self.installed), arguments: arguments, environment: environment, timeout: .seconds(60))
        }
        let version = try run("--version")
        #expect(version.status == 0 && version.standardOutput.hasPrefix("voicememo "), "\(version)")
        #expect(package.contains("voicememo_" + version.standardOutput.dropFirst("voicememo ".count).prefix { $0 != "\n" } + "-"),
            "the package is named for the version it holds: \(package), \(version.standardOutput)")
        let recorded = try run("record", "--source", "tone:440@-12", "--duration", "1", "--title", "From the package")
        #expect(recorded.status == 0, "\(recorded)")
        let listed = try run("list")
        #expect(listed.status == 0 && listed.standardOutput.contains("From the package"), "\(listed)")
        #expect(listed.standardOutput.contains("00:00:01"), "a second long: \(listed)")

        // Where Debian's man, bash, zsh and fish look; the binary needs no Swift toolchain.
        let files = try sandbox.shell("dpkg -L voicememo")
        for path in [
            "/usr/share/man/man1/voicememo.1.gz", "/usr/share/bash-completion/completions/voicememo",
            "/usr/share/zsh/vendor-completions/_voicememo", "/usr/share/fish/vendor_completions.d/voicememo.fish",
            "/usr/share/doc/voicememo/copyright",
        ] {
            #expect(files.standardOutput.split(separator: "\n").contains { $0 == path }, "\(path) in \(files.standardOutput)")
        }
        let linked = try sandbox.shell("ldd \(Self.installed)")
        #expect(linked.status == 0 && !linked.standardOutput.contains("libswift"), "no Swift runtime library needed: \(linked)")
    }
}
