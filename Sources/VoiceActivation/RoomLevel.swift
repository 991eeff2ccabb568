import Audio
import Glibc

/// The recent level of a room, from block powers: the RMS over the last 200 ms (what ends a
/// take) and a noise floor by minimum statistics (what the room does when nobody speaks).
///
/// Blocks of any size are gathered into 10 ms slots of equal duration, so the figures do not
/// depend on how the caller cuts its audio. A pure value: no clock, no allocation after `init`.
///
/// - The **envelope** is the RMS over the last 20 slots (200 ms). Single samples and single
///   10 ms blocks of a noisy room rise well above its RMS (Gaussian noise at −55 dBFS RMS peaks
///   near −40 in every 100 ms; a 10 ms block of brown noise at −52 reaches −41), but a 200 ms
///   RMS stays within ~1–6 dB of what the meter's RMS bar shows for the room.
/// - The **noise floor** is the lowest 250 ms RMS seen over the last ~10 s (ten 1 s
///   segments, each keeping its minimum). Speech has pauses of 250 ms every few words, so the
///   minimum finds the room between them; a room that grows louder is followed within ~10 s, one
///   that grows quieter at once. For steady noise it reads within 1 dB of the RMS (white, pink,
///   hum, band-limited); for brown noise, whose level wanders, ~5 dB under it.
public struct RoomLevel: Sendable {
    /// Slots in the envelope's window (200 ms).
    public static let envelopeSlots = 20
    /// Slots in each window the floor's minimum is taken over (250 ms).
    public static let floorWindowSlots = 25
    /// Slots per segment of the floor's minimum (1 s).
    public static let segmentSlots = 100
    /// Segments the floor remembers (10 s).
    public static let segmentCount = 10

    /// Frames per slot (10 ms).
    public var slotFrames: Int { slots.slotFrames }
    private var slots: PowerSlots
    /// Mean power of each of the last slots, newest at `(slotsSeen - 1) % capacity`.
    private var slotPowers: [Double]
    private var slotsSeen = 0
    /// The minimum 250 ms power of each completed segment, newest at `(segmentsSeen - 1) % count`.
    private var segmentMinimums: [Double]
    private var segmentsSeen = 0
    private var currentMinimum = Double.infinity
    private var slotsInSegment = 0

    /// - Parameter sampleRate: frames per second (a slot is 1/100 of it, at least one frame).
    public init(sampleRate: Int) {
        slots = PowerSlots(sampleRate: sampleRate)
        slotPowers = Array(repeating: 0, count: max(Self.envelopeSlots, Self.floorWindowSlots))
        segmentMinimums = Array(repeating: .infinity, count: Self.segmentCount)
    }

    /// Adds `frames` frames whose mean power (RMS²) is `power`.
    public mutating func add(power: Double, frames: Int) {
        var remaining = frames
        while remaining > 0 {
            if let slotPower = slots.take(power: power, remaining: &remaining) { completeSlot(slotPower) }
        }
    }

    /// The RMS over the last 200 ms (linear, 1.0 = full scale); 0 before anything was added.
    public var envelope: Float {
        var energy = slots.partialEnergy
        var frames = slots.partialFrames
        let complete = min(slotsSeen, Self.envelopeSlots - (slots.partialFrames > 0 ? 1 : 0))
        for back in 0..<complete {
            energy += slotPowers[(slotsSeen - 1 - back) % slotPowers.count] * Double(slotFrames)
            frames += slotFrames
        }
        return frames > 0 ? Float((energy / Double(frames)).squareRoot()) : 0
    }

    /// The noise floor in dBFS; `nil` until 250 ms have been heard.
    public var noiseFloorDB: Double? {
        var lowest = currentMinimum
        for index in 0..<min(segmentsSeen, Self.segmentCount) { lowest = min(lowest, segmentMinimums[index]) }
        guard lowest.isFinite else { return nil }
        return lowest > 0 ? max(-160, 10 * log10(lowest)) : -160
    }

    private mutating func completeSlot(_ power: Double) {
        slotPowers[slotsSeen % slotPowers.count] = power
        slotsSeen += 1
        if slotsSeen >= Self.floorWindowSlots {
            var sum = 0.0
            for back in 0..<Self.floorWindowSlots { sum += slotPowers[(slotsSeen - 1 - back) % slotPowers.count] }
            currentMinimum = min(currentMinimum, sum / Double(Self.floorWindowSlots))
        }
        slotsInSegment += 1
        if slotsInSegment == Self.segmentSlots {
            if currentMinimum.isFinite {
                segmentMinimums[segmentsSeen % Self.segmentCount] = currentMinimum
                segmentsSeen += 1
            }
            currentMinimum = .infinity
            slotsInSegment = 0
        }
    }
}
