import Vocabulary

/// The two sides of a meeting memo (`ChannelRoles`) and which of them a stretch is decoded from.
///
/// The segmenter and the speech gate work on the mix of both sides; each stretch they hand the
/// recogniser is then decoded from one side only: the one whose samples carry more energy over
/// the stretch, and its words are that side's (`Speaker`). Someone on the desktop heard again
/// through the microphone (echo) is quieter there than on the desktop, so the desktop wins; where
/// both speak in one stretch, the louder side is decoded and the other's words are not.
public enum SpeakerChoice {
    /// The mono mix of each side's channels of `frames` interleaved frames of `channels`
    /// channels, into the first `frames` samples of `microphone` and `desktop`.
    public static func splitSides(
        _ block: [Float], frames: Int, channels: Int, roles: ChannelRoles,
        microphone: inout [Float], desktop: inout [Float]
    ) {
        mix(block, frames: frames, channels: channels, group: roles.microphone, into: &microphone)
        mix(block, frames: frames, channels: channels, group: roles.desktop, into: &desktop)
    }

    /// The side whose samples hold more energy (the sum of their squares) over a stretch; the
    /// microphone when both hold the same (two silent sides).
    public static func louder(microphone: ArraySlice<Int16>, desktop: ArraySlice<Int16>) -> Speaker {
        energy(desktop) > energy(microphone) ? .them : .me
    }

    /// The sum of the squares of `samples` (at most 2^30 each: a 30 s utterance at 16 kHz sums
    /// to under 2^49).
    static func energy(_ samples: ArraySlice<Int16>) -> Int64 {
        var sum: Int64 = 0
        for sample in samples {
            let value = Int64(sample)
            sum += value * value
        }
        return sum
    }

    private static func mix(_ block: [Float], frames: Int, channels: Int, group: Range<Int>, into mono: inout [Float]) {
        let scale = 1 / Float(group.count)
        for frame in 0..<frames {
            var sum: Float = 0
            let base = frame * channels
            for channel in group { sum += block[base + channel] }
            mono[frame] = sum * scale
        }
    }
}
