/// Block powers of any size gathered into slots of equal duration (10 ms), so figures taken
/// per slot do not depend on how the caller cuts its audio. A pure value.
struct PowerSlots: Sendable {
    /// Frames per slot (10 ms, at least one frame).
    let slotFrames: Int
    /// The slot being filled: energy (power × frames) and frames so far.
    private(set) var partialEnergy = 0.0
    private(set) var partialFrames = 0

    init(sampleRate: Int) {
        slotFrames = max(1, sampleRate / 100)
    }

    /// Takes as many of `remaining` frames of mean power `power` (RMS²) as fit in the slot
    /// being filled, and returns the slot's mean power when that completes it. Power that is
    /// not a number, or negative, counts as silence.
    mutating func take(power: Double, remaining: inout Int) -> Double? {
        let power = power.isFinite ? max(0, power) : 0
        let taken = min(remaining, slotFrames - partialFrames)
        partialEnergy += power * Double(taken)
        partialFrames += taken
        remaining -= taken
        guard partialFrames == slotFrames else { return nil }
        let slotPower = partialEnergy / Double(slotFrames)
        partialEnergy = 0
        partialFrames = 0
        return slotPower
    }
}
