import Platform
import Dispatch
import Glibc
import Metering
import SoundFiles
import Streaming
import Synchronization

/// Plays an http(s) stream through ALSA while it downloads: FreeStreamer's counterpart.
///
/// A thread of its own connects (`StreamDecoder`), decodes `StreamOptions.bufferSeconds` of
/// audio, opens the device with the stream's format and then decodes and writes block by
/// block: the network is read only as fast as the device plays, so memory stays bounded (one
/// decoded block and the buffer) however long a live stream runs. A live stream (no length)
/// that drops or stalls is reconnected with backoff, `reconnectAttempts` times in a row at
/// most; a stream with a length that ends early is a failure. Events arrive on `eventQueue`.
public final class StreamPlayer: Sendable {
    public let url: String
    public let device: String

    private let configFile: String?
    private let options: StreamOptions
    private let eventQueue: DispatchQueue
    private let events: @Sendable (StreamEvent) -> Void
    private let interruption = StreamInterruption()
    private let meter = Mutex<LevelMeter?>(nil)
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    private struct State {
        var started = false
        var framesPlayed = 0
        var sampleRate = 0
        var underruns = 0
        var description: StreamDescription?
        var title: String?
    }

    /// - Parameters:
    ///   - url: an http:// or https:// URL.
    ///   - device: the ALSA playback device, as for `aplay -D`.
    ///   - configFile: an extra ALSA configuration file for this device only (tests).
    ///   - events: called on `eventQueue` for each `StreamEvent`.
    public init(
        url: String, device: String = "default", configFile: String? = nil, options: StreamOptions = .init(),
        eventQueue: DispatchQueue, events: @escaping @Sendable (StreamEvent) -> Void
    ) {
        self.url = url
        self.device = device
        self.configFile = configFile
        self.options = options
        self.eventQueue = eventQueue
        self.events = events
    }

    /// Starts connecting and playing on a thread of its own. Calling it again does nothing.
    public func play() {
        let first = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard first else { return }
        let started = JoinableThread { [self] in
            run()
            done.signal()
        }
        started.detach()
    }

    /// Stops: the connection and the device are closed within about 0.2 s (FFmpeg's network
    /// waits poll for it every 0.1 s). Sends no event. Safe to call more than once.
    public func stop() {
        interruption.requestStop()
        let started = state.withLock { $0.started }
        if started, done.wait(timeout: .now() + .seconds(2)) == .success { done.signal() }
    }

    /// Seconds of audio written to the device so far (since the first connect).
    public var playedSeconds: Double {
        state.withLock { $0.sampleRate > 0 ? Double($0.framesPlayed) / Double($0.sampleRate) : 0 }
    }

    /// What is playing, once playback started.
    public var streamDescription: StreamDescription? { state.withLock { $0.description } }

    /// The latest ICY title.
    public var title: String? { state.withLock { $0.title } }

    /// Underruns the device recovered from.
    public var underruns: Int { state.withLock { $0.underruns } }

    /// Takes a snapshot of the levels played since the previous call.
    public func updateMeters() { meter.withLock { $0?.updateMeters() } }

    /// RMS level of `channel` in dBFS at the last `updateMeters()`; −160 for silence.
    public func averagePower(forChannel channel: Int) -> Float {
        meter.withLock { $0?.averagePower(forChannel: channel) ?? Decibels.floor }
    }

    /// Peak level of `channel` in dBFS at the last `updateMeters()`; −160 for silence.
    public func peakPower(forChannel channel: Int) -> Float {
        meter.withLock { $0?.peakPower(forChannel: channel) ?? Decibels.floor }
    }

    // MARK: The playback thread

    private func send(_ event: StreamEvent) {
        let events = self.events
        eventQueue.async { events(event) }
    }

    private func run() {
        var sink: PlaybackOutput?
        defer { sink?.close() }
        var attempt = 0
        while !interruption.isStopRequested {
            let outcome = playOnce(sink: &sink, reconnecting: attempt > 0)
            if interruption.isStopRequested { return }
            switch outcome {
            case .finished:
                send(.finished)
                return
            case .failed(let error):
                send(.failed(error))
                return
            case .dropped(let error, let flowed):
                if flowed { attempt = 0 }
                attempt += 1
                guard attempt <= options.reconnectAttempts else {
                    send(.failed(error))
                    return
                }
                let delay = options.reconnectDelay(forAttempt: attempt)
                send(.reconnecting(attempt: attempt, limit: options.reconnectAttempts, delay: delay, cause: error))
                let until = ContinuousClock.now + .milliseconds(Int(delay * 1000))
                while ContinuousClock.now < until, !interruption.isStopRequested { usleep(20_000) }
            }
        }
    }

    private enum Outcome {
        case finished
        case failed(StreamError)
        /// A live stream dropped or stalled; `flowed` if audio was played since the connect.
        case dropped(StreamError, flowed: Bool)
    }

    /// Whether playback has started on this connection, and when slowness was last said.
    private final class BufferingWatch {
        var isPlaying = false
        var saidAt: Double?
    }

    /// Says `.slow` while buffering lasts over `slowAfter` s and bytes come slower than needed.
    private func watchArrival(_ watch: BufferingWatch) -> (StreamArrival) -> Void {
        let server = StreamURL(url)?.hostAndPort ?? url
        return { [self] arrival in
            guard !watch.isPlaying, arrival.seconds >= Self.slowAfter else { return }
            if let said = watch.saidAt, arrival.seconds - said < Self.slowRepeat { return }
            if let needed = arrival.neededBytesPerSecond, arrival.bytesPerSecond >= needed { return }
            watch.saidAt = arrival.seconds
            send(.slow(arrival, server: server))
        }
    }

    /// Seconds of buffering before slowness is said, and between two reports.
    private static let slowAfter = 2.0
    private static let slowRepeat = 5.0

    private func playOnce(sink: inout PlaybackOutput?, reconnecting: Bool) -> Outcome {
        let decoder: StreamDecoder
        let watch = BufferingWatch()
        do {
            // Buffering from the server's reply: what follows (the container, the first 0.5 s) is ours.
            decoder = try StreamDecoder(
                url: url, options: options, interruption: interruption, arrival: watchArrival(watch),
                connected: { [self] in send(.buffering(seconds: options.bufferSeconds)) })
        } catch {
            // A reconnect that cannot connect (the server restarting) is tried again.
            if reconnecting, case .connection = error.kind { return .dropped(error, flowed: false) }
            if reconnecting, case .timeout = error.kind { return .dropped(error, flowed: false) }
            return .failed(error)
        }
        defer { decoder.close() }
        let format = decoder.format
        if let sink, sink.format != format {
            return .failed(StreamError(.decode("the stream changed from \(sink.format) to \(format) on reconnecting"), url: url))
        }
        let buffered: [UInt8]
        let ended: Bool
        do {
            (buffered, ended) = try prebuffer(decoder)
        } catch {
            return decoder.isLive && error.isDrop ? .dropped(error, flowed: false) : .failed(error)
        }
        if interruption.isStopRequested { return .finished }
        if sink == nil {
            if let failure = openSink(&sink, format: format) { return failure }
        }
        guard let sink else { return .finished }
        let description = StreamDescription(
            format: format, codec: decoder.codecName, name: decoder.streamName, isLive: decoder.isLive,
            duration: decoder.duration)
        state.withLock {
            $0.description = description
            $0.sampleRate = format.sampleRate
        }
        watch.isPlaying = true
        send(.playing(description))
        return play(decoder, buffered: buffered, ended: ended, to: sink)
    }

    /// The first `bufferSeconds` of audio, decoded before the device starts, and whether the
    /// stream ended within them.
    private func prebuffer(_ decoder: StreamDecoder) throws(StreamError) -> ([UInt8], ended: Bool) {
        let format = decoder.format
        let bufferFrames = max(1, Int(options.bufferSeconds * Double(format.sampleRate)))
        var buffered = [UInt8]()
        buffered.reserveCapacity(bufferFrames * format.bytesPerFrame)
        while buffered.count < bufferFrames * format.bytesPerFrame {
            let (block, frames) = try decoder.decode()
            announceTitle(decoder)
            if frames == 0 { return (buffered, true) }
            buffered.append(contentsOf: UnsafeRawBufferPointer(start: block, count: frames * format.bytesPerFrame))
        }
        return (buffered, false)
    }

    /// Opens the playback device in the stream's format, into `sink`, and the meter for it.
    ///
    /// - Returns: the failure when it cannot be opened or plays another format; nil when open.
    private func openSink(_ sink: inout PlaybackOutput?, format: StreamFormat) -> Outcome? {
        do {
            let opened = try PlaybackOutput.open(device: device, format: format, configFile: configFile, operations: nil)
            guard opened.format == format else {
                opened.close()
                return .failed(StreamError(.device("playback device \"\(device)\" plays \(opened.format), not the stream's \(format); use a device that converts, such as \"default\""), url: url))
            }
            sink = opened
        } catch {
            return .failed(StreamError(.device(error.description), url: url))
        }
        meter.withLock { $0 = LevelMeter(channels: format.channels) }
        return nil
    }

    /// Plays what was buffered, then decodes and plays the rest to the stream's end (a live
    /// stream's end is a drop), a stop, or a failure; drains the device at a file's end.
    private func play(_ decoder: StreamDecoder, buffered: consuming [UInt8], ended: Bool, to sink: PlaybackOutput) -> Outcome {
        let format = decoder.format
        var flowed = false
        do {
            let bufferedFrames = buffered.count / format.bytesPerFrame
            if bufferedFrames > 0 {
                let written = try buffered.withUnsafeBytes { bytes throws(PlayerError) -> Int in
                    guard let base = bytes.baseAddress else { return 0 }
                    return try write(base, frames: bufferedFrames, format: format, to: sink)
                }
                if written < bufferedFrames { return .finished }
                flowed = true
            }
            buffered = []
            while !ended {
                let (block, frames): (UnsafeRawPointer, frames: Int)
                do {
                    (block, frames) = try decoder.decode()
                } catch {
                    if interruption.isStopRequested { return .finished }
                    return decoder.isLive && error.isDrop ? .dropped(error, flowed: flowed) : .failed(error)
                }
                announceTitle(decoder)
                if frames == 0 { break }
                if try write(block, frames: frames, format: format, to: sink) < frames { return .finished }
                flowed = true
            }
            if decoder.isLive { return .dropped(StreamError(.dropped, url: url), flowed: flowed) }
            _ = try sink.drain(stopRequested: { interruption.isStopRequested })
            return .finished
        } catch {
            return .failed(StreamError(.device("\(error)"), url: url))
        }
    }

    private func write(
        _ block: UnsafeRawPointer, frames: Int, format: StreamFormat, to sink: PlaybackOutput
    ) throws(PlayerError) -> Int {
        meter.withLock { meter in
            guard meter != nil else { return }
            let samples = frames * format.channels
            switch format.sampleFormat {
            case .int16: meter?.consume(UnsafeBufferPointer(start: block.assumingMemoryBound(to: Int16.self), count: samples))
            case .int32: meter?.consume(UnsafeBufferPointer(start: block.assumingMemoryBound(to: Int32.self), count: samples))
            case .float32: meter?.consume(UnsafeBufferPointer(start: block.assumingMemoryBound(to: Float.self), count: samples))
            }
        }
        let interruption = self.interruption
        let written = try sink.write(from: block, frames: frames, stopRequested: { interruption.isStopRequested })
        let underruns = sink.underruns
        state.withLock {
            $0.framesPlayed += written
            $0.underruns = underruns
        }
        return written
    }

    private func announceTitle(_ decoder: StreamDecoder) {
        guard decoder.titleChanged, let title = decoder.title else { return }
        state.withLock { $0.title = title }
        send(.title(title))
    }
}
