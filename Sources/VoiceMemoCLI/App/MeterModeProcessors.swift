import Audio
import Interface
import Metering
import SoundFiles

/// The processors behind the meter modes, fed every sample of the input: both PPM types and
/// the VU per channel, and the programme's loudness. All run whatever the mode, so switching
/// shows a settled reading at once (and short-term loudness has its 3 s of history).
struct MeterModeProcessors: InterleavedSampleConsumer {
    private var ppmTypeI: PeakProgrammeMeter
    private var ppmTypeII: PeakProgrammeMeter
    private var vu: VolumeUnitMeter
    private var loudness: LoudnessMeter

    /// `nil` for a format the loudness meter cannot take (its rates are 8 kHz … 768 kHz, 1 … 32 channels).
    init?(format: StreamFormat) {
        guard LoudnessMeter.supportedSampleRates.contains(format.sampleRate), (1...32).contains(format.channels) else { return nil }
        ppmTypeI = PeakProgrammeMeter(kind: .typeI, channels: format.channels, sampleRate: format.sampleRate)
        ppmTypeII = PeakProgrammeMeter(kind: .typeII, channels: format.channels, sampleRate: format.sampleRate)
        vu = VolumeUnitMeter(channels: format.channels, sampleRate: format.sampleRate)
        // Momentary and short-term only: the app may monitor for days.
        loudness = LoudnessMeter(channels: format.channels, sampleRate: format.sampleRate, keepsHistory: false)
    }

    mutating func consume(_ samples: UnsafeBufferPointer<Int16>) {
        ppmTypeI.consume(samples)
        ppmTypeII.consume(samples)
        vu.consume(samples)
        loudness.consume(samples)
    }

    mutating func consume(_ samples: UnsafeBufferPointer<Int32>) {
        ppmTypeI.consume(samples)
        ppmTypeII.consume(samples)
        vu.consume(samples)
        loudness.consume(samples)
    }

    mutating func consume(_ samples: UnsafeBufferPointer<Float>) {
        ppmTypeI.consume(samples)
        ppmTypeII.consume(samples)
        vu.consume(samples)
        loudness.consume(samples)
    }

    /// The readings since the previous call (PPMs: the highest indication in between).
    mutating func read() -> BallisticReadings {
        BallisticReadings(
            ppmTypeI: ppmTypeI.read(), ppmTypeII: ppmTypeII.read(), vu: vu.read(),
            momentaryLoudness: loudness.momentaryLoudness, shortTermLoudness: loudness.shortTermLoudness)
    }
}
