import Glibc

/// A room's typical level: the median of its 10 ms levels over the last few seconds, to
/// 1 dB. What a voice must stand out of to be the one a take is about.
///
/// The noise floor (`RoomLevel.noiseFloorDB`, a minimum) finds the room in the pauses of one
/// voice, but a room of voices (babble) pauses rarely all at once: its 250 ms minimum lies
/// 11–17 dB under its level, while its 10 ms levels stay within 7 dB over their median. The
/// median reads steady noise at its RMS (white, pink, fan, hum within 1 dB) and brown noise
/// ~3 dB under it. A pure value: no clock, no allocation after `init`.
public struct RoomMedian: Sendable {
    /// Slots the median is taken over (3 s).
    public static let windowSlots = 300
    /// Slots needed before the median is given (0.5 s).
    public static let minimumSlots = 50
    /// The lowest level a slot is counted at, in dBFS (quieter slots count as this).
    static let lowestDB = -120

    /// Frames per slot (10 ms).
    public var slotFrames: Int { slots.slotFrames }
    private var slots: PowerSlots
    /// Each of the last slots' level as a histogram bin (dB above `lowestDB`).
    private var slotBins: [UInt8]
    private var slotsSeen = 0
    /// How many of the window's slots are in each 1 dB bin.
    private var histogram: [Int32]
    /// Slots heard but not yet counted, oldest at `pendingStart` (see `discardRecent()`).
    private var pendingBins: [UInt8]
    private var pendingStart = 0
    private var pendingCount = 0

    /// - Parameters:
    ///   - sampleRate: frames per second (a slot is 1/100 of it, at least one frame).
    ///   - delaySlots: how many of the newest slots wait before they count, so that
    ///     `discardRecent()` can take them back.
    public init(sampleRate: Int, delaySlots: Int = 0) {
        slots = PowerSlots(sampleRate: sampleRate)
        slotBins = Array(repeating: 0, count: Self.windowSlots)
        histogram = Array(repeating: 0, count: -Self.lowestDB + 1)
        pendingBins = Array(repeating: 0, count: max(0, delaySlots))
    }

    /// Forgets the slots still waiting to count: what was heard just before something that is
    /// not the room (the start of a word, heard before the take it starts).
    public mutating func discardRecent() {
        pendingCount = 0
    }

    /// Adds `frames` frames whose mean power (RMS²) is `power`.
    public mutating func add(power: Double, frames: Int) {
        var remaining = frames
        while remaining > 0 {
            if let slotPower = slots.take(power: power, remaining: &remaining) { completeSlot(slotPower) }
        }
    }

    /// The median 10 ms level of the last `windowSlots` slots in dBFS, to 1 dB; `nil` until
    /// `minimumSlots` have been heard.
    public var levelDB: Double? { levelDB(atFraction: 0.5) }

    /// The 10 ms level that `fraction` (0…1) of the last `windowSlots` slots reach at most, in
    /// dBFS, to 1 dB (0.5: the median; 0.99: what only the loudest slots of the room exceed);
    /// `nil` until `minimumSlots` have been heard.
    public func levelDB(atFraction fraction: Double) -> Double? {
        let count = min(slotsSeen, Self.windowSlots)
        guard count >= Self.minimumSlots else { return nil }
        let wanted = max(1, Int((fraction * Double(count)).rounded(.up)))
        var below = 0
        for (bin, slots) in histogram.enumerated() {
            below += Int(slots)
            if below >= wanted { return Double(bin + Self.lowestDB) }
        }
        return 0
    }

    private mutating func completeSlot(_ power: Double) {
        let decibels = power > 0 ? 10 * log10(power) : -Double.infinity
        var bin = UInt8(max(0, min(Double(-Self.lowestDB), (decibels - Double(Self.lowestDB)).rounded())))
        if !pendingBins.isEmpty {
            let last = (pendingStart + pendingCount) % pendingBins.count
            if pendingCount < pendingBins.count {
                pendingBins[last] = bin
                pendingCount += 1
                return
            }
            let oldest = pendingBins[pendingStart]
            pendingBins[pendingStart] = bin
            pendingStart = (pendingStart + 1) % pendingBins.count
            bin = oldest
        }
        let index = slotsSeen % Self.windowSlots
        if slotsSeen >= Self.windowSlots { histogram[Int(slotBins[index])] -= 1 }
        slotBins[index] = bin
        histogram[Int(bin)] += 1
        slotsSeen += 1
    }
}
