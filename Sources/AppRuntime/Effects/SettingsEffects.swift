import Dispatch
import Interface
import Synchronization

/// The settings kept in the config file (`Effect.saveSettings`): written on a queue of their
/// own, beside the loop and the effect runner (a save that encodes for minutes must not hold
/// them back, nor they it). Changes that arrive while a write runs wait as one batch, the
/// latest value of each setting, and go in the next write: holding `+` writes a handful of
/// times, not once a key.
///
/// The writer (`AppRuntimeSettings.keepSettings`) is the caller's: the runtime never reads or
/// writes the config file itself. Without one, nothing is kept.
final class SettingsEffects: Sendable {
    private let queue = DispatchQueue(label: "voicememo.settings")
    private let keep: (@Sendable ([SettingChange]) throws(SettingsNotSaved) -> Void)?
    private let pending = Mutex(Pending())

    private struct Pending {
        /// The latest change of each setting not yet written, in the order they were first changed.
        var changes: [SettingChange] = []
        /// Whether a write is queued that will take `changes`.
        var isQueued = false
    }

    init(keep: (@Sendable ([SettingChange]) throws(SettingsNotSaved) -> Void)?) {
        self.keep = keep
    }

    func perform(_ effect: Effect, on loop: AppLoop) {
        guard case .saveSettings(let changes) = effect, keep != nil else { return }
        let queueWrite = pending.withLock { pending in
            for change in changes {
                if let index = pending.changes.firstIndex(where: { $0.setting == change.setting }) {
                    pending.changes[index] = change
                } else {
                    pending.changes.append(change)
                }
            }
            defer { pending.isQueued = true }
            return !pending.isQueued
        }
        guard queueWrite else { return }
        queue.async { [self] in
            guard let failure = write() else { return }
            loop.queue.async {
                loop.dispatch(.settingsNotSaved(.settingsNotSaved(detail: failure.reason)))
                loop.render()
            }
        }
    }

    /// Writes what is pending; the failure, if the file could not take it.
    private func write() -> SettingsNotSaved? {
        let changes = pending.withLock { pending in
            defer {
                pending.changes = []
                pending.isQueued = false
            }
            return pending.changes
        }
        guard let keep, !changes.isEmpty else { return nil }
        do {
            try keep(changes)
            return nil
        } catch {
            return error
        }
    }

    /// Waits for the writes asked for so far (the app is ending: none may be lost).
    func finish() {
        queue.sync {}
    }
}

/// Why the config file did not take the settings: its path and the reason, in words.
public struct SettingsNotSaved: Error, Sendable, Equatable {
    /// "the config file is read-only (/home/a/.config/voicememo/config)".
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
