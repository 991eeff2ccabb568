/// The y/N questions of the confirming modes, worded for a status line `width` columns wide.
extension AppState {
    /// The question the mode asks, if it asks one; titles shortened to leave the question room.
    public func confirmation(width: Int) -> Confirmation? {
        let answer = Confirmation.answer
        switch mode {
        case .confirmingPurge(let id):
            let title = quoted(deletedMemos.first { $0.id == id }?.title, width: max(width / 2, 8))
            return Confirmation(full: "Purge \(title) for good? This cannot be undone. \(answer)", short: "Purge \(title)? \(answer)")
        case .confirmingEdit(let request):
            return EditKeys.question(request, width: width)
        case .confirmingQuit:
            if recording == .idle, let work = work.first { return Confirmation("\(work.summary)… quit when done? \(answer)") }
            return Confirmation("Recording. Stop, save and quit? \(answer)")
        default:
            return nil
        }
    }

    /// “title”, shortened to `width` columns; "this memo" when there is none.
    private func quoted(_ title: String?, width: Int) -> String {
        guard let title else { return "this memo" }
        return "“\(TextFitting.truncated(title, toWidth: width))”"
    }
}
