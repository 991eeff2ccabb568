import Audio
import Interface
import Metering
import SoundFiles

/// The app's sample-level analysis of the open input: every captured frame reaches it
/// through an `AnalysisTap`, drained on the app's queue at each tick (never on the capture
/// thread, which must not allocate or wait on anything heavier than the ring).
///
/// The pure processors live in `Metering` and are fed here with the engine's own sample
/// type; what they conclude goes to the screen in the `EngineSnapshot` of each tick.
public final class InputAnalysis {
    private let tap: AnalysisTap
    private let engine: CaptureEngine
    public let format: StreamFormat
    /// PPM, VU and loudness of the input: the meter modes' readings.
    private var meterModes: MeterModeProcessors?
    /// Sample peak, true peak, loudness and range of everything captured (`meter --loudness`).
    public private(set) var programme: ProgrammeMeter?
    /// Silence, a dead channel, too hot, too quiet: for the status line.
    private var diagnostics: InputDiagnostics
    /// Frames analysed so far: the audio time the diagnosis and the programme are at. The
    /// engine hands a chunk to its taps before it counts it as captured, so this can be a
    /// chunk ahead of `CaptureEngine.capturedFrames`.
    public private(set) var analysedFrames = 0

    /// Attaches to `engine`; frames captured from now on are analysed.
    ///
    /// - Parameter overflow: `.drop` (the app's default) makes it a watcher only: if the
    ///   app's queue stalls, frames are dropped here rather than holding up the capture
    ///   thread (and with it a recording). `voicememo meter`, which records nothing, waits
    ///   instead, so an unpaced source is analysed whole.
    /// - Parameter measuresMeterModes: whether the meter modes' PPM, VU and loudness run
    ///   (the app's LED rows need them; `voicememo meter` does not).
    /// - Parameter measuresProgramme: whether a `ProgrammeMeter` measures the whole run
    ///   (`voicememo meter --loudness`; its history grows with the run, so not for the app).
    public init(
        engine: CaptureEngine, overflow: AnalysisTap.Overflow = .drop, measuresMeterModes: Bool = true,
        measuresProgramme: Bool = false
    ) {
        tap = AnalysisTap(engine: engine, seconds: 2, overflow: overflow)
        self.engine = engine
        format = engine.format
        diagnostics = InputDiagnostics(channels: format.channels, sampleRate: format.sampleRate)
        meterModes = measuresMeterModes ? MeterModeProcessors(format: engine.format) : nil
        programme = measuresProgramme ? ProgrammeMeter(channels: format.channels, sampleRate: format.sampleRate) : nil
    }

    /// The meter modes' readings since the previous call; `nil` when they are not measured
    /// or the input's format cannot be (a sample rate outside the loudness meter's range).
    public func ballisticReadings() -> BallisticReadings? {
        meterModes?.read()
    }

    /// What is wrong with the input now: `noAudio` while the engine has had no frame for
    /// `InputDiagnosis.noAudioAfter` seconds (the samples cannot tell), else what the
    /// diagnostics found in the frames (as of the last `update()`).
    public var diagnosis: InputDiagnosis? { engine.isStalled ? .noAudio : diagnostics.diagnosis }

    deinit {
        tap.detach()
    }

    /// Stops receiving frames (the input is closing).
    public func detach() {
        tap.detach()
    }

    /// Analyses what was captured since the last call (the processors keep time by the
    /// frames they are fed), at most `maxFrames`: the app passes half a second of audio,
    /// so a tick stays short even when the input delivers faster than it is analysed (an
    /// unpaced device; the rest is dropped by the tap, as when the queue stalls).
    public func update(maxFrames: Int = .max) {
        let samplesPerFrame = format.channels
        let sampleFormat = format.sampleFormat
        tap.drain(maxFrames: maxFrames) { frames, count in
            analysedFrames += count
            sampleFormat.deliver(frames, samples: count * samplesPerFrame, to: &diagnostics)
            sampleFormat.deliver(frames, samples: count * samplesPerFrame, to: &meterModes)
            sampleFormat.deliver(frames, samples: count * samplesPerFrame, to: &programme)
        }
    }
}
