import Audio
import Interface
import Metering
import SoundFiles

/// The meters behind the meter modes (`MeterModeDescriptor.meter`: both PPM types and the VU,
/// per channel) and the programme's loudness, fed every sample of the input. All run whatever
/// the mode, so switching shows a settled reading at once (and short-term loudness has its
/// 3 s of history).
struct MeterModeProcessors: InterleavedSampleConsumer {
    private var meters: [(mode: MeterMode, meter: any ChannelLevelMeter)]
    private var loudness: LoudnessMeter

    /// `nil` for a format the loudness meter cannot take (its rates are 8 kHz … 768 kHz, 1 … 32 channels).
    init?(format: StreamFormat) {
        guard LoudnessMeter.supportedSampleRates.contains(format.sampleRate), (1...32).contains(format.channels) else { return nil }
        meters = MeterMode.allCases.compactMap { mode in
            mode.descriptor.meter.map { (mode: mode, meter: $0(format.channels, format.sampleRate)) }
        }
        // Momentary and short-term only: the app may monitor for days.
        loudness = LoudnessMeter(channels: format.channels, sampleRate: format.sampleRate, keepsHistory: false)
    }

    mutating func consume(_ samples: UnsafeBufferPointer<Int16>) {
        for index in meters.indices { meters[index].meter.consume(samples) }
        loudness.consume(samples)
    }

    mutating func consume(_ samples: UnsafeBufferPointer<Int32>) {
        for index in meters.indices { meters[index].meter.consume(samples) }
        loudness.consume(samples)
    }

    mutating func consume(_ samples: UnsafeBufferPointer<Float>) {
        for index in meters.indices { meters[index].meter.consume(samples) }
        loudness.consume(samples)
    }

    /// The readings since the previous call (PPMs: the highest indication in between).
    mutating func read() -> BallisticReadings {
        var levels: [MeterMode: [Float]] = [:]
        for index in meters.indices { levels[meters[index].mode] = meters[index].meter.read() }
        return BallisticReadings(
            levels: levels, momentaryLoudness: loudness.momentaryLoudness, shortTermLoudness: loudness.shortTermLoudness)
    }
}
