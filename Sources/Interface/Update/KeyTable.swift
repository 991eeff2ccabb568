/// A screen's keys, one row each: which keys, what they do, what the `?` screen says of them
/// and where the footer shows them (`KeyTable`: the memo table, Recently Deleted, the
/// transcript, the settings panel). The handler (`KeyHandling`), the help screen
/// (`KeyScreen.helpSections`, under the rows' `group`s) and the footer
/// (`KeyHelp.footer(for:)`) all read these tables, so a key cannot do what its help does not
/// say, and no two rows can claim one key (`KeyTableTests`).
///
/// Adding a key to one of these screens is one row. A key whose meaning depends on what is
/// going on (`s` stops a stream, else playback, else the recording) is one row whose action
/// says so in that order. A key refused while some work is in flight (`r` while an input
/// opens) says when in its row (`disabled`, Bubble Tea's `SetEnabled`): the handler asks it
/// before the action and says the reason instead.
struct KeyBinding: Sendable {
    /// The keys that do it.
    let keys: [Key]
    /// The keys as the help screen shows them.
    let label: String
    /// What they do, for the help screen.
    let help: String
    /// Under which heading the help screen lists them (the memo table's keys: each has one;
    /// another screen's few keys are one list, `nil`).
    let group: KeyGroup?
    /// Where the footer shows them (none: only on the help screen).
    let footer: [FooterSpot]
    /// Why the keys are refused now, for the status line; `nil` while they are enabled.
    /// Asked before `action`, which a refused key does not run.
    let disabled: @Sendable (AppState) -> String?
    /// What they do. Gets the key pressed (one of `keys`).
    let action: @Sendable (Key, inout AppState) -> [Effect]

    init(
        _ keys: [Key], _ label: String, _ help: String, group: KeyGroup? = nil, footer: [FooterSpot] = [],
        disabled: @escaping @Sendable (AppState) -> String? = { _ in nil },
        action: @escaping @Sendable (Key, inout AppState) -> [Effect]
    ) {
        self.keys = keys
        self.label = label
        self.help = help
        self.group = group
        self.footer = footer
        self.disabled = disabled
        self.action = action
    }

    /// A row for character keys: `"nN"` are the keys `n` and `N`.
    init(
        _ characters: String, label: String? = nil, _ help: String, group: KeyGroup? = nil, footer: [FooterSpot] = [],
        disabled: @escaping @Sendable (AppState) -> String? = { _ in nil },
        action: @escaping @Sendable (Key, inout AppState) -> [Effect]
    ) {
        self.init(
            characters.map { Key.character($0) }, label ?? characters, help, group: group, footer: footer, disabled: disabled, action: action)
    }
}

/// The memo table's keys by what they are about, as the help screen shows them under headings
/// (htop's and lazygit's help), in this order.
enum KeyGroup: String, CaseIterable, Sendable {
    case record, play, edit, library, input, app

    /// The heading.
    var title: String {
        switch self {
        case .record: "Record"
        case .play: "Play"
        case .edit: "Edit"
        case .library: "Library"
        case .input: "Input"
        case .app: "App"
        }
    }
}

/// One place in a footer: in which of the memo table's situations, how important (a lower
/// rank shows first; the footer shows what fits), and its words.
struct FooterSpot: Sendable {
    /// What the memo table is doing, for its footer.
    enum Situation: CaseIterable, Sendable {
        /// Nothing records, plays or streams.
        case idle
        /// A memo is being recorded (or paused).
        case recording
        /// A memo plays.
        case playing
        /// A memo is paused.
        case paused
        /// A stream plays and nothing records.
        case streaming

        init(_ state: AppState) {
            if let playback = state.playback {
                self = playback.isPaused ? .paused : .playing
            } else if state.stream != nil, state.recording == .idle {
                self = .streaming
            } else if state.recording != .idle {
                self = .recording
            } else {
                self = .idle
            }
        }
    }

    let situations: Set<Situation>
    let rank: Int
    /// The keys as the footer shows them; `nil`: the row's label.
    let keys: String?
    let word: String
    /// The word on a narrow terminal (`KeyTable.narrowFooterWidth`), where it is given.
    var short: String? = nil

    /// On the table while nothing plays or streams (idle and recording alike).
    static func table(_ rank: Int, _ word: String, keys: String? = nil, short: String? = nil) -> FooterSpot {
        FooterSpot(situations: [.idle, .recording], rank: rank, keys: keys, word: word, short: short)
    }

    /// While a memo plays or is paused.
    static func playback(_ rank: Int, _ word: String, keys: String? = nil) -> FooterSpot {
        FooterSpot(situations: [.playing, .paused], rank: rank, keys: keys, word: word)
    }

    static func only(_ situations: Set<Situation>, _ rank: Int, _ word: String, keys: String? = nil) -> FooterSpot {
        FooterSpot(situations: situations, rank: rank, keys: keys, word: word)
    }

    /// Whatever goes on (a screen other than the memo table has one footer).
    static func any(_ rank: Int, _ word: String, keys: String? = nil) -> FooterSpot {
        FooterSpot(situations: Set(Situation.allCases), rank: rank, keys: keys, word: word)
    }
}

enum KeyTable {
    /// The memo table's keys, in the order the help screen lists them.
    static let memoTable: [KeyBinding] = [
        KeyBinding(
            "r", "record; again: pause / resume", group: .record,
            footer: [
                .table(10, "record/pause", short: "rec"), .playback(190, "record"), .only([.streaming], 50, "record input"),
            ],
            disabled: { state in
                if state.hasWork({ $0 == .startingRecording }) {
                    return "The recording is being started; r pauses it once the timer runs."
                }
                if let opening = state.inputBeingOpened { return "\(opening) is being opened; press r once the meter moves." }
                // A save that takes long (encoding the backlog of a long MP3) would start the
                // new recording minutes after r: refused. A quick one (not yet on the status
                // line) is waited for (the action says so).
                guard state.recording == .idle, !state.voice.isArmed, state.input != nil else { return nil }
                if let saving = state.work.first, case .saving = saving.kind, state.now - saving.startedAt >= WorkInFlight.visibleAfter {
                    return "Still saving the last memo; press r again once it is saved."
                }
                return nil
            }
        ) { _, state in
            if state.recording == .idle, !state.voice.isArmed, state.input != nil {
                if let saving = state.memoBeingSaved {
                    state.say("Recording starts once “\(saving)” is saved.")
                } else if state.isLibraryLoading {
                    state.say("Recording starts once the library is open.")
                }
            }
            ScheduleUpdate.startNow(&state)
            return KeyHandling.recordKey(&state)
        },
        KeyBinding(
            "s", "stop and save (then name the memo); stop playback or a stream", group: .record,
            // Not on the idle table's footer: there is nothing to stop, and its room goes to / and t.
            footer: [.only([.recording], 20, "stop"), .playback(30, "stop"), .only([.streaming], 10, "stop")],
            disabled: { state in
                guard state.recording == .idle, !state.voice.isArmed, state.playback == nil else { return nil }
                if let saving = state.memoBeingSaved { return "Already saving “\(saving)”." }
                if state.hasWork({ $0 == .startingRecording }) {
                    return "The recording is being started; press s again once the timer runs."
                }
                return nil
            }
        ) { _, state in
            StreamKeys.stopOnS(&state) ?? PlaybackUpdate.stopPlaying(&state) ?? ScheduleUpdate.cancel(&state)
                ?? KeyHandling.stopKey(&state)
        },
        KeyBinding("c", "reset the clip indicator and peak hold", group: .input, footer: [.table(190, "clear clip")]) { _, state in
            KeyHandling.resetClip(&state)
        },
        KeyBinding(
            "C", "live captions on / off: draft words under the meter while recording", group: .record,
            footer: [.only([.recording], 195, "captions")]
        ) { _, state in
            KeyHandling.toggleCaptions(&state)
        },
        KeyBinding(
            "m", "meter: " + MeterMode.allCases.map(\.descriptor.name).joined(separator: " → "), group: .input,
            footer: [.table(150, "meter"), .only([.streaming], 60, "meter")]
        ) { _, state in KeyHandling.nextMeterMode(&state) },
        KeyBinding([.up, .down, .character("j"), .character("k")], "↑ ↓  j k", "select a memo", group: .library) { key, state in
            KeyHandling.moveMemoSelection(key, &state)
        },
        KeyBinding([.pageUp, .pageDown], "PgUp PgDn", "page through memos", group: .library) { key, state in
            KeyHandling.moveMemoSelection(key, &state)
        },
        KeyBinding("gG", label: "g G", "first / last memo", group: .library) { key, state in KeyHandling.moveMemoSelection(key, &state) },
        KeyBinding(
            [.home, .end], "Home End", "while a memo plays: its start / end; else the first / last memo", group: .play,
            footer: [.playback(160, "start/end")]
        ) { key, state in
            PlaybackUpdate.jumpToEdge(key, &state) ?? KeyHandling.moveMemoSelection(key, &state)
        },
        KeyBinding("/", "find memos by title or spoken words (Esc clears)", group: .library, footer: [.table(62, "find")]) { _, state in
            state.mode = .filtering(TextField(state.filter))
            return []
        },
        KeyBinding([.escape], "Esc", "clear the search; stop a stream", group: .library) { _, state in
            StreamKeys.stopOnEscape(&state) ?? KeyHandling.clearFilter(&state)
        },
        KeyBinding("T", "transcript of the selected memo (the word heard lights up)", group: .library, footer: [.table(90, "words")]) {
            _, state in TranscriptUpdate.open(&state)
        },
        KeyBinding("e", "rename the selected memo", group: .library, footer: [.table(50, "rename")]) { _, state in
            KeyHandling.renameSelected(&state)
        },
        KeyBinding("*", "star / unstar the selected memo (a favourite)", group: .library, footer: [.table(125, "star")]) {
            _, state in TagKeys.toggleStar(&state)
        },
        KeyBinding("#", "tags of the selected memo: +tag -tag, or the list", group: .library, footer: [.table(126, "tags")]) {
            _, state in TagKeys.open(&state)
        },
        KeyBinding(
            [.character("d"), .delete], "d Del", "delete the selected memo at once (to Recently Deleted; u undoes)", group: .library,
            footer: [.table(60, "delete", keys: "d")]
        ) { _, state in KeyHandling.deleteSelected(&state) },
        KeyBinding(
            "E", "export the selected memo to a file (its extension names the format; .srt .vtt .txt .md: its transcript)", group: .library, footer: [.table(120, "export")]
        ) { _, state in ExportKeys.open(&state) },
        KeyBinding(
            "I", "details of the selected memo: its file, format, levels and state", group: .library, footer: [.table(200, "info")]
        ) { _, state in KeyHandling.showDetails(&state) },
        KeyBinding(
            "a", "order of the memos: newest first → by title → longest first", group: .library, footer: [.table(210, "order")]
        ) { _, state in KeyHandling.nextSortOrder(&state) },
        KeyBinding("u", "undo the last delete, rename, tags, trim, split, pause cut or enhance", group: .library, footer: [.table(70, "undo")]) { _, state in
            KeyHandling.undo(&state)
        },
        KeyBinding("t", "Recently Deleted: ⏎ restore, p purge, Esc back", group: .library, footer: [.table(64, "deleted")]) {
            _, state in KeyHandling.openRecentlyDeleted(&state)
        },
        KeyBinding(
            "i", "choose the input (microphones, test tone)", group: .input, footer: [.table(110, "input")],
            disabled: KeyTable.refusedWhileAnInputOpens
        ) { _, state in KeyHandling.openInputPicker(&state) },
        KeyBinding("O", "choose where memos play (the playback device)", group: .play, footer: [.table(130, "output")]) { _, state in
            KeyHandling.openOutputPicker(&state)
        },
        KeyBinding(
            "o", "play a stream: type its http(s) URL (s, space, Esc stop it)", group: .play,
            footer: [.table(140, "stream"), .only([.streaming], 30, "other stream")]
        ) { _, state in StreamKeys.open(&state) },
        KeyBinding(
            "R", "record the stream that plays into a memo (s stops and names it)", group: .record,
            footer: [.only([.streaming], 20, "record it")]
        ) { _, state in StreamKeys.record(&state) },
        KeyBinding(
            [.enter], "⏎", "play the selected memo (a word match: from that word)", group: .play,
            footer: [.table(30, "play"), .playback(180, "play selected"), .only([.streaming], 40, "play memo")]
        ) { _, state in StreamKeys.playMemoInstead(&state) ?? PlaybackUpdate.play(&state) },
        KeyBinding(" ", label: "space", "pause / resume playback (a stream: stop it)", group: .play,
            footer: [.only([.playing], 10, "pause"), .only([.paused], 10, "resume")]
        ) { _, state in StreamKeys.stopOnSpace(&state) ?? PlaybackUpdate.togglePause(&state) },
        KeyBinding(
            [.left, .right, .character("H"), .character("L")], "← →  H L",
            "seek back / forward 5 s (H L: 30 s) while playing", group: .play,
            footer: [.playback(20, "seek 5 s", keys: "← →"), .playback(150, "30 s", keys: "H L")]
        ) { key, state in PlaybackUpdate.seek(key, &state) },
        KeyBinding("[]", label: "[ ]", "playback speed −/+ 0.1× (0.5× to 3×, pitch kept)", group: .play, footer: [.playback(60, "speed")]) {
            key, state in PlaybackAdjustmentKeys.adjust(key, &state)
        },
        KeyBinding("{}", label: "{ }", "playback pitch −/+ 1 semitone (±12, speed kept)", group: .play, footer: [.playback(80, "pitch")]) {
            key, state in PlaybackAdjustmentKeys.adjust(key, &state)
        },
        KeyBinding("-+=", label: "- + =", "playback volume −/+ 10 % (0 to 150 %; above 100 % can clip)", group: .play,
            footer: [.playback(70, "vol", keys: "- +")]
        ) { key, state in PlaybackAdjustmentKeys.adjust(key, &state) },
        KeyBinding("x", "skip silence while playing: on / off", group: .play, footer: [.playback(90, "skip")]) { key, state in
            PlaybackAdjustmentKeys.adjust(key, &state)
        },
        KeyBinding("f", "enhance while playing (background noise suppressed): on / off", group: .play, footer: [.playback(175, "enhance")]) {
            key, state in PlaybackAdjustmentKeys.adjust(key, &state)
        },
        KeyBinding("0123456789", label: "0 … 9", "jump to 0 % … 90 % of the memo that plays", group: .play, footer: [.playback(130, "jump", keys: "0-9")]) {
            key, state in PlaybackAdjustmentKeys.adjust(key, &state)
        },
        KeyBinding(",.", label: ", .", "seek back / forward 1 s while playing", group: .play, footer: [.playback(140, "1 s")]) { key, state in
            PlaybackAdjustmentKeys.adjust(key, &state)
        },
        KeyBinding(
            "b", "marker at the play head, or at the recording's time", group: .edit,
            footer: [.playback(100, "mark"), .only([.recording], 25, "mark")]
        ) { _, state in MarkerKeys.mark(&state) },
        KeyBinding("B", "label the marker at the play head (or the one before it) while playing", group: .edit, footer: [.playback(115, "label mark")]) {
            _, state in MarkerKeys.openLabel(&state)
        },
        KeyBinding("nN", label: "n N", "next / previous marker while playing", group: .edit, footer: [.playback(110, "next/prev mark")]) {
            key, state in MarkerKeys.jump(key, &state)
        },
        KeyBinding("()", label: "( )", "in / out point at the play head (for X)", group: .edit) { key, state in
            EditKeys.setPoint(isIn: key == .character("("), &state)
        },
        KeyBinding("P", "preview what X keeps: play from in, pause at out", group: .edit, footer: [.playback(120, "preview trim")]) {
            _, state in EditKeys.preview(&state)
        },
        KeyBinding(
            "X", "trim the memo to in … out (asks; the original to Recently Deleted)", group: .edit,
            footer: [.playback(40, "trim", keys: "( ) X")]
        ) { _, state in EditKeys.askTrim(&state) },
        KeyBinding("S", "split the memo that plays in two at the play head (asks)", group: .edit, footer: [.playback(50, "split")]) {
            _, state in EditKeys.askSplit(&state)
        },
        KeyBinding(
            "Z", "remove the pauses: each to 0.5 s (asks; the original to Recently Deleted)", group: .edit,
            footer: [.playback(170, "cut pauses")]
        ) { _, state in EditKeys.askRemoveSilences(&state) },
        KeyBinding("F", "make an enhanced memo: background noise suppressed (asks; the original to Recently Deleted)", group: .edit) { _, state in
            EditKeys.askEnhance(&state)
        },
        KeyBinding(
            "v", "voice activation: record each utterance as a memo; again: off", group: .record, footer: [.table(40, "voice")],
            disabled: KeyTable.refusedWhileAnInputOpens
        ) { _, state in VoiceKeys.toggle(&state) },
        KeyBinding("V", "settings: voice activation, noise alert (level, time)", group: .input, footer: [.table(160, "settings")]) {
            _, state in
            state.mode = .voiceSettings(.voice(.threshold))
            return []
        },
        KeyBinding("<>M", label: "< >  M", "input's capture volume -/+ 1 dB (or 1 %); M mute / unmute", group: .input,
            footer: [.table(170, "gain", keys: "< >"), .table(180, "mute", keys: "M")]
        ) { key, state in
            CaptureGainUpdate.change(key == .character("<") ? .down : key == .character(">") ? .up : .toggleSwitch, &state)
        },
        KeyBinding(
            "?", "this help", group: .app,
            footer: [.any(1000, "help")]
        ) { _, state in
            HelpLayout.open(&state)
            return []
        },
        KeyBinding(
            "q", "quit (asks while recording; stopping saves)", group: .app,
            footer: [.any(1010, "quit")]
        ) { _, state in
            // With work in flight (a save), asks, then waits for it: nothing is left
            // half-written. Opening or listing inputs leaves nothing half-done: the loop
            // abandons it and quits at once.
            if state.recording == .idle, !state.voice.isRecordingTake, !state.work.isEmpty,
                !state.work.allSatisfy(\.kind.isAbandonedByQuitting)
            {
                state.mode = .confirmingQuit
                return []
            }
            return KeyHandling.quitKey(&state)
        },
    ]

    /// `i` and `v` while an input is being opened or a recording started: refused, with why.
    @Sendable static func refusedWhileAnInputOpens(_ state: AppState) -> String? {
        if let opening = state.inputBeingOpened { return "\(opening) is being opened." }
        if state.hasWork({ $0 == .startingRecording }) { return "The recording is being started; wait for the timer to run." }
        return nil
    }

    /// Recently Deleted's keys (`t` on the table).
    static let recentlyDeleted: [KeyBinding] = [
        KeyBinding([.up, .down, .character("j"), .character("k")], "↑ ↓  j k", "select a deleted memo", footer: [.any(30, "select", keys: "↑↓")]) {
            key, state in KeyHandling.moveDeletedSelection(key, &state)
        },
        KeyBinding([.pageUp, .pageDown], "PgUp PgDn", "page through them") { key, state in
            KeyHandling.moveDeletedSelection(key, &state)
        },
        KeyBinding([.home, .end, .character("g"), .character("G")], "Home End  g G", "first / last") { key, state in
            KeyHandling.moveDeletedSelection(key, &state)
        },
        KeyBinding([.enter], "⏎", "restore the selected memo to the table", footer: [.any(10, "restore")]) { _, state in
            KeyHandling.restoreSelected(&state)
        },
        KeyBinding("I", "details of the selected memo, why it was deleted among them") { _, state in
            KeyHandling.showDeletedDetails(&state)
        },
        // `r` records everywhere else: here it says so rather than restore by habit.
        KeyBinding("r", "records on the memo table, not here: Esc goes back (⏎ restores)") { _, state in
            state.say("r records on the memo table: Esc goes back to it. Here ⏎ restores the selected memo.")
            return []
        },
        KeyBinding(
            [.character("p"), .character("d"), .delete], "p d Del", "purge the selected memo for good (asks)",
            footer: [.any(20, "purge", keys: "p")]
        ) { _, state in KeyHandling.askPurge(&state) },
        KeyBinding([.escape, .character("t"), .character("q")], "Esc t q", "back to the memo table", footer: [.any(40, "back", keys: "Esc q")]) {
            _, state in
            state.mode = .browsing
            return []
        },
        KeyBinding("?", "these keys", footer: [.any(50, "help")]) { _, state in
            HelpLayout.open(&state)
            return []
        },
    ]

    /// The transcript view's keys (`T` on the table).
    static let transcript: [KeyBinding] = [
        KeyBinding([.enter], "⏎", "play the memo from the top line (the view follows the word heard)", footer: [.any(10, "play")]) {
            _, state in TranscriptUpdate.playFromTop(&state)
        },
        KeyBinding(" ", label: "space", "pause / resume", footer: [.any(20, "pause")]) { _, state in PlaybackUpdate.togglePause(&state) },
        KeyBinding([.left, .right], "← →", "seek back / forward 5 s", footer: [.any(30, "seek")]) { key, state in
            PlaybackUpdate.seek(key, &state)
        },
        KeyBinding("s", "stop playing", footer: [.any(40, "stop")]) { _, state in PlaybackUpdate.stopPlaying(&state) ?? [] },
        KeyBinding([.up, .down, .character("j"), .character("k")], "↑ ↓  j k", "scroll a line", footer: [.any(50, "scroll", keys: "↑↓")]) {
            key, state in TranscriptUpdate.scroll(key, &state)
        },
        KeyBinding([.pageUp, .pageDown], "PgUp PgDn", "scroll a page") { key, state in TranscriptUpdate.scroll(key, &state) },
        KeyBinding([.character("w"), .character("b")], "w b", "the word cursor to the next / previous word", footer: [.any(49, "word", keys: "w b")]) {
            key, state in TranscriptUpdate.moveCursor(key, &state)
        },
        KeyBinding("v", "select words from the cursor (w b extend; v again lets go)", footer: [.any(51, "select")]) { _, state in
            TranscriptUpdate.toggleSelection(&state)
        },
        KeyBinding("x", "cut the selected words out (a new memo; u on the table brings the original back)", footer: [.any(56, "cut")]) {
            _, state in TranscriptUpdate.askWordEdit(keeping: false, &state)
        },
        KeyBinding("K", "keep only the selected words (a trim at the pauses around them)", footer: [.any(58, "keep")]) { _, state in
            TranscriptUpdate.askWordEdit(keeping: true, &state)
        },
        KeyBinding([.home, .end, .character("g"), .character("G")], "Home End  g G", "the first / last line") { key, state in
            TranscriptUpdate.scroll(key, &state)
        },
        KeyBinding([.escape, .character("T"), .character("q")], "Esc T q", "back to the memo table", footer: [.any(15, "back", keys: "Esc q")]) {
            _, state in TranscriptUpdate.close(&state)
        },
        KeyBinding("/", "back to the memo table to find memos by title or spoken words", footer: [.any(48, "find")]) { _, state in
            TranscriptUpdate.findOnTable(&state)
        },
        KeyBinding("?", "these keys", footer: [.any(70, "help")]) { _, state in
            HelpLayout.open(&state)
            return []
        },
    ]

    /// The settings panel's keys (`V` on the table).
    static let voiceSettings: [KeyBinding] = [
        KeyBinding([.up, .down, .character("j"), .character("k"), .tab], "↑ ↓  j k Tab", "choose a setting", footer: [.any(10, "choose", keys: "↑↓")]) {
            key, state in VoiceKeys.choose(key, &state)
        },
        KeyBinding(
            [.left, .right, .character("-"), .character("+"), .character("="), .character("_")], "← →  - +",
            "change it a step", footer: [.any(20, "change")]
        ) { key, state in VoiceKeys.change(key, &state) },
        KeyBinding([.pageUp, .pageDown], "PgUp PgDn", "change it ten steps") { key, state in VoiceKeys.change(key, &state) },
        KeyBinding(
            [.escape, .enter, .character("V"), .character("q")], "Esc ⏎ V q",
            "done: back to the table (changes re-arm voice activation)", footer: [.any(30, "done", keys: "Esc")]
        ) { _, state in VoiceKeys.closeSettings(&state) },
        KeyBinding("?", "these keys", footer: [.any(40, "help")]) { _, state in
            HelpLayout.open(&state)
            return []
        },
    ]

    /// The rows of `rows` by key (the first row that claims a key has it; `KeyTableTests`
    /// refuses a key claimed twice).
    static func index(_ rows: [KeyBinding]) -> [Key: KeyBinding] {
        var bindings: [Key: KeyBinding] = [:]
        for binding in rows {
            for key in binding.keys where bindings[key] == nil { bindings[key] = binding }
        }
        return bindings
    }

    /// The memo table's footer in `situation`, most important first.
    static func footer(
        in situation: FooterSpot.Situation, of rows: [KeyBinding] = memoTable, narrow: Bool = false
    ) -> [(String, String)] {
        rows
            .flatMap { binding in
                binding.footer.filter { $0.situations.contains(situation) }.map { (spot: $0, label: binding.label) }
            }
            .sorted { $0.spot.rank < $1.spot.rank }
            .map { ($0.spot.keys ?? $0.label, narrow ? $0.spot.short ?? $0.spot.word : $0.spot.word) }
    }

    /// Below this width the footer takes its entries' short words, so that `⏎ play` and
    /// `v voice` still fit beside `? help` at 40 columns.
    static let narrowFooterWidth = 60
}

/// A screen with keys of its own, its rows and its help.
public enum KeyScreen: Sendable, Hashable, CaseIterable {
    case memoTable, recentlyDeleted, transcript, voiceSettings

    /// The screen whose keys `mode` takes; `nil` for prompts, pickers, confirmations and help.
    init?(_ mode: Mode) {
        switch mode {
        case .browsing: self = .memoTable
        case .recentlyDeleted: self = .recentlyDeleted
        case .transcript: self = .transcript
        case .voiceSettings: self = .voiceSettings
        default: return nil
        }
    }

    var rows: [KeyBinding] {
        switch self {
        case .memoTable: KeyTable.memoTable
        case .recentlyDeleted: KeyTable.recentlyDeleted
        case .transcript: KeyTable.transcript
        case .voiceSettings: KeyTable.voiceSettings
        }
    }

    /// The row that handles `key` on this screen, if any.
    func binding(for key: Key) -> KeyBinding? {
        switch self {
        case .memoTable: Self.memoTableIndex[key]
        case .recentlyDeleted: Self.recentlyDeletedIndex[key]
        case .transcript: Self.transcriptIndex[key]
        case .voiceSettings: Self.voiceSettingsIndex[key]
        }
    }

    private static let memoTableIndex = KeyTable.index(KeyTable.memoTable)
    private static let recentlyDeletedIndex = KeyTable.index(KeyTable.recentlyDeleted)
    private static let transcriptIndex = KeyTable.index(KeyTable.transcript)
    private static let voiceSettingsIndex = KeyTable.index(KeyTable.voiceSettings)

    /// The help screen's title for these keys.
    var helpTitle: String {
        switch self {
        case .memoTable: "Keys"
        case .recentlyDeleted: "Keys of Recently Deleted"
        case .transcript: "Keys of the transcript"
        case .voiceSettings: "Keys of the settings panel"
        }
    }

    /// (keys, what they do), in the rows' order.
    var helpEntries: [(String, String)] { rows.map { ($0.label, $0.help) } }

    /// What the help screen lists: the rows by group, in `KeyGroup`'s order, each group under
    /// its heading (the rows' order within it); rows without a group after them, untitled.
    var helpSections: [(title: String?, entries: [(String, String)])] {
        let grouped: [(title: String?, entries: [(String, String)])] = KeyGroup.allCases.map { group in
            (group.title, rows.filter { $0.group == group }.map { ($0.label, $0.help) })
        }
        let ungrouped = rows.filter { $0.group == nil }.map { ($0.label, $0.help) }
        return grouped.filter { !$0.entries.isEmpty } + (ungrouped.isEmpty ? [] : [(nil, ungrouped)])
    }

    /// The footer of a screen other than the memo table (whose footer follows what it is doing).
    var footer: [(String, String)] { KeyTable.footer(in: .idle, of: rows) }
}
