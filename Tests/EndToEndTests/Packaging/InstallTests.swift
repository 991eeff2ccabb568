import Foundation
import Testing

@testable import VoiceMemoCLI

/// `make install` / `make uninstall` into a temporary DESTDIR, and what they install: a man
/// page that renders, and bash, zsh and fish completions that complete from the command
/// declarations and the library. (`install-files` with the binary these tests drive: the
/// release build that `make install` makes first is what `make run` builds too.)
@Suite struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let installed = [
        "bin/voicememo", "share/man/man1/voicememo.1", "share/bash-completion/completions/voicememo",
        "share/zsh/site-functions/_voicememo", "share/fish/vendor_completions.d/voicememo.fish",
    ]
    /// Every subcommand, as the command line's runner lists them.
    static var subcommands: [String] { CommandLineRunner.subcommands.map(\.name) }

    /// Installs into `$WORK/dest` with PREFIX=/usr; returns the sandbox.
    func installed() throws -> VoiceMemoSandbox {
        let sandbox = try VoiceMemoSandbox()
        let binary = try VoiceMemoBinary.url().path
        let outcome = try sandbox.shell(
            "make -s -C '\(Self.repository.path)' install-files BINARY='\(binary)' DESTDIR=\"$WORK/dest\" PREFIX=/usr",
            timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        return sandbox
    }

    @Test func installPutsEveryFileInPlaceAndUninstallRemovesExactlyThose() throws {
        let sandbox = try installed()
        let listed = try sandbox.shell("cd dest/usr && find . -type f | sort")
        #expect(listed.standardOutput == Self.installed.sorted().map { "./" + $0 + "\n" }.joined(), "\(listed)")
        let modes = try sandbox.shell("cd dest/usr && stat -c '%a %n' \(Self.installed.joined(separator: " "))")
        #expect(modes.standardOutput.hasPrefix("755 bin/voicememo\n"), "\(modes)")
        #expect(modes.standardOutput.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix("644 ") }, "\(modes)")
        let version = try sandbox.shell("dest/usr/bin/voicememo --version")
        #expect(version.standardOutput.hasPrefix("voicememo "), "\(version)")

        // Something else in the same folders stays.
        let uninstall = try sandbox.shell("""
            touch dest/usr/bin/other dest/usr/share/man/man1/other.1
            make -s -C '\(Self.repository.path)' uninstall DESTDIR="$WORK/dest" PREFIX=/usr && cd dest/usr && find . -type f | sort
            """)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(uninstall.standardOutput == "./bin/other\n./share/man/man1/other.1\n", "\(uninstall)")
    }

    @Test func manPageRendersWithEverySectionAndSubcommand() throws {
        let sandbox = try installed()
        let page = "dest/usr/share/man/man1/voicememo.1"
        let rendered = try sandbox.shell("MANWIDTH=100 LANG=C.UTF-8 man --warnings -l \(page) 2>warnings.txt | col -b; cat warnings.txt >&2")
        #expect(rendered.status == 0, "\(rendered)")
        #expect(rendered.standardError.isEmpty, "groff's warnings: \(rendered.standardError)")
        let text = rendered.standardOutput
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"] {
            #expect(text.contains("\n" + section + "\n"), "section \(section): \(text)")
        }
        for subcommand in Self.subcommands {
            #expect(text.contains("voicememo \(subcommand)"), "subcommand \(subcommand)")
        }
        for name in ["VOICEMEMO_HOME", "XDG_CONFIG_HOME", "NO_COLOR", "ALSA_CONFIG_PATH", "--vox-threshold", "--output"] {
            #expect(text.contains(name), "\(name) is in the page")
        }
        let whatis = try sandbox.shell("lexgrog \(page)")
        #expect(whatis.standardOutput.contains("\"voicememo - record voice memos"), "\(whatis)")
    }

    /// Completes `line` (the cursor at its end) with the installed bash script, splitting words
    /// as bash does (COMP_WORDBREAKS: spaces and `:`), and returns what it offers.
    func bashCompletion(_ line: String, in sandbox: VoiceMemoSandbox) throws -> [String] {
        let outcome = try sandbox.shell("""
            source dest/usr/share/bash-completion/completions/voicememo
            PATH="$WORK/dest/usr/bin:$PATH"
            line=\(shellQuoted(line))
            COMP_LINE=$line COMP_POINT=${#line}
            COMP_WORDS=($(printf '%s' "$line" | sed 's/:/ : /g'))
            [[ $line == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _voicememo
            printf '%s\\n' "${COMPREPLY[@]}"
            """)
        #expect(outcome.status == 0, "\(outcome)")
        return outcome.standardOutput.split(separator: "\n").map(String.init)
    }

    private func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @Test func bashCompletesSubcommandsOptionsValuesAndMemos() throws {
        let sandbox = try installed()
        _ = try sandbox.recordMemo(title: "Kitchen idea")
        _ = try sandbox.recordMemo(title: "Kettle's song")
        #expect(try bashCompletion("voicememo rec", in: sandbox) == ["record", "recover"])
        #expect(try bashCompletion("voicememo recor", in: sandbox) == ["record"])
        #expect(try bashCompletion("voicememo record --format ", in: sandbox) == ["wav", "flac", "ogg", "opus", "mp3", "caf", "aiff", "m4a"])
        #expect(try bashCompletion("voicememo record --vox-s", in: sandbox) == ["--vox-silence"])
        #expect(try bashCompletion("voicememo play ", in: sandbox) == ["2", "1", "Kettle\\'s\\ song", "Kitchen\\ idea"])
        #expect(try bashCompletion("voicememo rename Kit", in: sandbox) == ["Kitchen\\ idea"])
        #expect(try bashCompletion("voicememo rename 1 ", in: sandbox).isEmpty, "a new title is free text")
        #expect(try bashCompletion("voicememo --source alsa:p", in: sandbox) == ["pulse", "pipewire"], "after the colon bash replaces only the rest")
        #expect(try bashCompletion("voicememo meter --source to", in: sandbox) == ["tone:1000@-12"])
        #expect(try bashCompletion("voicememo help de", in: sandbox) == ["delete", "devices"])
    }

    @Test func zshAndFishScriptsLoadAndFishCompletes() throws {
        let sandbox = try installed()
        _ = try sandbox.recordMemo(title: "Kitchen idea")
        let zsh = try sandbox.shell("""
            zsh -n dest/usr/share/zsh/site-functions/_voicememo || exit 3
            zsh -f -c 'fpath=("$WORK/dest/usr/share/zsh/site-functions" $fpath); autoload -Uz compinit; compinit -u -D; autoload -Uz _voicememo; whence -w _voicememo; print -r -- ${_comps[voicememo]}'
            """)
        #expect(zsh.status == 0, "\(zsh)")
        #expect(zsh.standardOutput == "_voicememo: function\n_voicememo\n", "compinit registers it for voicememo: \(zsh)")
        #expect(zsh.standardError.isEmpty, "\(zsh)")

        let fish = try sandbox.shell("""
            fish -n dest/usr/share/fish/vendor_completions.d/voicememo.fish || exit 3
            PATH="$WORK/dest/usr/bin:$PATH" fish -c 'source dest/usr/share/fish/vendor_completions.d/voicememo.fish
                complete -C "voicememo recor"; echo ---; complete -C "voicememo export --format "; echo ---; complete -C "voicememo delete "'
            """)
        #expect(fish.status == 0, "\(fish)")
        let parts = fish.standardOutput.components(separatedBy: "---\n").map { part in
            part.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(parts.count == 3, "\(fish)")
        #expect(parts.first == ["record"], "\(fish)")
        #expect(parts.dropFirst().first?.sorted() == ["aiff", "caf", "flac", "m4a", "mp3", "ogg", "opus", "wav"], "\(fish)")
        #expect(parts.last == ["1", "Kitchen idea"], "\(fish)")
    }

    @Test func generatorArgumentsAreChecked() throws {
        let sandbox = try VoiceMemoSandbox()
        let unknown = try sandbox.run("--generate-completion", "tcsh")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.standardError.contains("bash, zsh") || unknown.standardError.contains("bash"), "\(unknown)")
        let missing = try sandbox.run("--generate-completion")
        #expect(missing.status == 2, "\(missing)")
        let extra = try sandbox.run("--generate-man-page", "now")
        #expect(extra.status == 2, "\(extra)")
        // No library yet: completion prints nothing rather than an error into the command line.
        let memos = try sandbox.run("--complete-memos")
        #expect(memos.standardError.isEmpty, "\(memos)")
    }
}
