import Metering
import SoundFiles

/// The player's level meter: what the playback thread writes to the device, measured
/// as it goes, and the snapshot the owner reads (AVAudioPlayer's metering model).
///
/// Kept under the player's lock; `consume` never allocates.
struct PlaybackMeters {
    var isEnabled = true
    private var live: LevelMeter
    private var average: [Float]
    private var peak: [Float]

    init(channels: Int) {
        live = LevelMeter(channels: channels)
        average = Array(repeating: Decibels.floor, count: channels)
        peak = Array(repeating: Decibels.floor, count: channels)
    }

    /// Measures `frames` interleaved frames of `format` at `buffer`.
    mutating func consume(_ buffer: UnsafeRawPointer, frames: Int, format: StreamFormat) {
        guard isEnabled else { return }
        format.sampleFormat.deliver(buffer, samples: frames * format.channels, to: &live)
    }

    /// Takes a snapshot of the levels since the previous one (−160 dB where nothing played).
    mutating func update() {
        live.updateMeters()
        for channel in average.indices {
            average[channel] = live.averagePower(forChannel: channel)
            peak[channel] = live.peakPower(forChannel: channel)
        }
    }

    /// The RMS level of `channel` in the latest snapshot, in dBFS (−160 for an unknown channel).
    func averagePower(forChannel channel: Int) -> Float {
        average.indices.contains(channel) ? average[channel] : Decibels.floor
    }

    /// The peak level of `channel` in the latest snapshot, in dBFS (−160 for an unknown channel).
    func peakPower(forChannel channel: Int) -> Float {
        peak.indices.contains(channel) ? peak[channel] : Decibels.floor
    }
}
