import Interface

/// Network streams' effects (`o`, `R`; `Interface/Update/StreamKeys.swift`). The player and
/// its events are `AppLoop+Streams.swift`'s (a `StreamPlayer` made and started here, stopped
/// on the runner; its generation count drops a replaced player's events); `R` is an input
/// switch to `url:URL` with a recording (`InputEffects.select`).
struct StreamEffects {
    func perform(_ effect: Effect, on loop: AppLoop, tracked: Bool) {
        switch effect {
        case .playStream(let url):
            loop.playStream(url)
        case .stopStream:
            loop.stopStream()
        case .recordStream(let url, let title):
            loop.inputs.select(.url(url), on: loop, tracked: tracked, thenRecording: title)
        default:
            assertionFailure("not a stream effect: \(effect)")
        }
    }
}
