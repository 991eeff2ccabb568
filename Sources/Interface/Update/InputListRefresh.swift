/// The open input picker asks for its list again every `inputListInterval` seconds, so a
/// microphone plugged in (or a sound server's source added) while it is open appears in it.
/// The loop asks `inputListIsDue` on each tick and sends `Action.inputListDue`; the reducer
/// answers with `Effect.listInputs`, and `Action.inputsListed` keeps the selection on the
/// input it was on.
extension AppState {
    /// How often the open input picker asks for its list again, in seconds.
    public static let inputListInterval = 2.0

    /// Whether the loop should send `Action.inputListDue` now: the input picker is open with
    /// its list, which was asked for `inputListInterval` ago or more, and no listing runs.
    public func inputListIsDue(at time: Double) -> Bool {
        guard case .pickingInput(choices: .some) = mode, let inputsAskedAt else { return false }
        return time - inputsAskedAt >= Self.inputListInterval && !work.contains { $0.kind == .listingInputs }
    }
}
