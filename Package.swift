// swift-tools-version:6.0
//
// VoiceMemo: a full-screen terminal voice-memo recorder for Linux.
// Module boundaries and what each may import: docs/ARCHITECTURE.md.
import PackageDescription

/// `-O` in debug builds too, for the modules whose work is per sample or per cell: the meters,
/// sound files' sample checks, the recorder and its sources, noise suppression, voice
/// activation's detector, the app's views and screen diff. Tests run from a debug build
/// (`swift test`) drive the debug binary on a shared two-core machine: unoptimised, the
/// unpaced tone and the meters cost 3.5 times the CPU of a recording (11.6 s against 3.3 s for
/// 20 minutes of 48 kHz stereo), and the app drew its screen at 30 % of a core. `-O` keeps
/// every check Swift makes (overflow, bounds, exclusivity), so behaviour is the same; what is
/// lost is stepping through these modules in a debugger (build with `-Xswiftc -Onone` for that).
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The test targets (and TestSupport) stay unoptimised in release builds. `make test` builds
/// once, in release (`Tests/run-all.sh`): the modules optimised, as the package ships them, and
/// the tests' own code at `-Onone`, where optimising its 1 600 test functions would cost more
/// CPU to compile than it saves to run.
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "VoiceMemo",
    products: [
        .executable(name: "voicememo", targets: ["voicememo"]),
        .executable(name: "voicememo-bench", targets: ["voicememo-bench"]),
    ],
    targets: [
        // C libraries. Each has a module.modulemap and a shim.h with static inline
        // wrappers for what Swift cannot import (macros, variadic callbacks).
        .systemLibrary(
            name: "CALSA", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(
            name: "CSndFile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]),
        // No pkgConfig: ncursesw.pc carries -D_DEFAULT_SOURCE/-D_XOPEN_SOURCE, which
        // SwiftPM drops with a warning on every build; the shim defines what it needs.
        .systemLibrary(
            name: "CNCursesW",
            providers: [.apt(["libncursesw5-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // SoundTouch's plain C interface (SoundTouchDLL.h): tempo and pitch for playback.
        .systemLibrary(
            name: "CSoundTouch",
            providers: [.apt(["libsoundtouch-dev"])]),
        // PocketSphinx's decoder, linked by name: pocketsphinx.pc would add libsphinxad (shim.h).
        .systemLibrary(
            name: "CPocketSphinx",
            providers: [.apt(["libpocketsphinx-dev"])]),
        // FFmpeg 5.1's headers (not linked: CFFmpegLoader loads the libraries): network streams
        // (http/https, ICY), their decoders, AAC. The shim stands in for AVERROR and friends.
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libavutil-dev"])]),
        // FFmpeg loaded at first use (dlopen), so a run without M4A files or streams never loads
        // its ~130 libraries; and its log, kept off the terminal and read back (last error, HTTP
        // status, Location): a C target, so its storage and callback have one definition in the process.
        .target(name: "CFFmpegLoader", dependencies: ["CFFmpeg"]),
        // libpulse (PulseAudio's client library, which PipeWire's pipewire-pulse serves too),
        // loaded at first use (dlopen) with its headers (libpulse-dev): the binary does not link it.
        .target(name: "CPulseLoader"),
        .systemLibrary(
            name: "CSampleRate", pkgConfig: "samplerate",
            providers: [.apt(["libsamplerate0-dev"])]),
        // SpeexDSP's preprocessor: the noise suppression of `enhance`, `export --enhance`, `play --enhance`.
        .systemLibrary(
            name: "CSpeexDSP", pkgConfig: "speexdsp",
            providers: [.apt(["libspeexdsp-dev"])]),
        // libebur128: the peer `voicememo-bench ebur128` measures Metering against (the bench only).
        .systemLibrary(
            name: "CEBUR128", pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"])]),

        // WebRTC's voice activity detector, noise suppression and echo canceller
        // (webrtc-audio-processing 0.3, C++) behind a C API of our own (`include/`): 10 ms mono
        // frames in, voiced yes/no out (or the frame denoised, or the echo taken out).
        .target(
            name: "CWebRTCAudio",
            cxxSettings: [
                .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD"), .define("WEBRTC_POSIX"),
                .unsafeFlags(["-I/usr/include/webrtc_audio_processing"]),
            ],
            linkerSettings: [.linkedLibrary("webrtc_audio_processing")]),

        // Meters, decibels, ballistics, formatting: Swift and libm, no Foundation. Optimised in debug builds
        // too: unoptimised, a memo's statistics (K-weighting, 4× true-peak oversampling) cost
        // 29 % of a core per recording instead of 0.2 %, so a debug binary could not keep the
        // end-to-end tests' 20 concurrent recordings in real time on two cores.
        .target(name: "Metering", swiftSettings: optimisedInDebug),
        // libsndfile: format table, validation, reading and writing sound files; AAC in MP4 (.m4a)
        // through FFmpeg. Optimised in debug builds too: every float sample read or written passes
        // `UsableSamples`, whose eight-lane comparisons, unoptimised, are generic calls per lane
        // (a 2-minute Ogg Vorbis recording took 3.9 CPU-s against 1.2 optimised).
        .target(
            name: "SoundFiles", dependencies: ["CSndFile", "CFFmpeg", "CFFmpegLoader", "Platform"],
            swiftSettings: optimisedInDebug),
        // The process's own plumbing: who writes on standard error (our messages, and C libraries
        // silenced while a decoder runs), the stop signals a command polls, the open-file limit,
        // the event log tests measure from, the product's name and version.
        .target(name: "Platform"),
        // Network streams through FFmpeg: connecting, demuxing, decoding (no device: Audio plays them).
        .target(name: "Streaming", dependencies: ["CFFmpeg", "CFFmpegLoader", "SoundFiles"]),
        // ALSA devices, the sound server's sources (libpulse), sources, the ring buffer, the recorder,
        // a meeting's echo cancelling (WebRTC's echo canceller).
        .target(
            name: "Audio",
            dependencies: ["Platform", "Vocabulary", "Metering", "CALSA", "CPulseLoader", "SoundFiles", "CSoundTouch", "Streaming", "SpeechEnhancement", "CWebRTCAudio"],
            swiftSettings: optimisedInDebug),
        // The words the engine, the library, the app and the command line share, pure Swift: where
        // audio comes from by name (`InputName`), what a memo title may be, Recently Deleted's
        // lifetime, silence removal's parameters, transcript search words, and the one rule for
        // putting someone else's text on a terminal (`TerminalText`).
        .target(name: "Vocabulary"),
        // Noise suppression over SpeexDSP (`SpeechEnhancer`): the library's `enhance` and the
        // player's and export's on-the-fly enhancement share it.
        // Optimised in debug builds too, as Metering is: the low cut and the conversions run per
        // sample, and end-to-end tests run from a debug build drive the debug binary.
        .target(
            name: "SpeechEnhancement", dependencies: ["CSpeexDSP"],
            swiftSettings: optimisedInDebug),
        // Hands-free recording: the detector (level, room and speech), the takes it records with their
        // pre-roll, the talking-app replay, the noise alert; over Audio's engine and recorder.
        .target(
            name: "VoiceActivation", dependencies: ["Audio", "Platform", "Metering", "SoundFiles", "Vocabulary", "CWebRTCAudio"],
            swiftSettings: optimisedInDebug),
        // SQLite index of memos.
        .target(name: "MemoLibrary", dependencies: ["SoundFiles", "Metering", "CSQLite", "Vocabulary", "SpeechEnhancement"]),
        // Offline speech recognition (PocketSphinx, English) and resampling (libsamplerate); only
        // what voice activation's speech detector calls speech is decoded.
        .target(
            name: "Transcription",
            dependencies: ["MemoLibrary", "SoundFiles", "Audio", "Platform", "VoiceActivation", "Vocabulary", "CPocketSphinx", "CSampleRate"]),
        // The full-screen app's pure core: state, actions, reducer, views into a cell Screen.
        .target(name: "Interface", dependencies: ["Vocabulary", "Metering"], swiftSettings: optimisedInDebug),
        // ncursesw backend: draws a Screen, reads keys.
        .target(name: "Terminal", dependencies: ["Interface", "CNCursesW", "Platform"], swiftSettings: optimisedInDebug),
        // Pure command-line parsing: options, values, durations, usage errors.
        .target(name: "ArgumentParsing", dependencies: ["Vocabulary"]),
        // The full-screen app's runtime: the loop that feeds `reduce` and performs its effects,
        // the input, playback and voice sessions, the library on the effect runner; and what the
        // commands run the same way (`Shared/`): `--source` parsing, an input's analysis, the
        // words for a stream's events and for a recording waiting for room.
        .target(
            name: "AppRuntime",
            dependencies: ["VoiceActivation", "ArgumentParsing", "Platform", "Vocabulary", "Metering", "Audio", "SoundFiles", "MemoLibrary", "Interface", "Terminal", "Transcription", "Streaming"]),
        // The commands of `voicememo`: their definitions, help texts and wiring.
        .target(
            name: "VoiceMemoCLI",
            dependencies: ["VoiceActivation", "ArgumentParsing", "Vocabulary", "Metering", "Audio", "SoundFiles", "MemoLibrary", "Interface", "Terminal", "Transcription", "Streaming", "Platform", "AppRuntime"]),
        .executableTarget(name: "voicememo", dependencies: ["VoiceMemoCLI"]),
        .executableTarget(name: "voicememo-bench", dependencies: ["VoiceActivation", "Metering", "Audio", "SoundFiles", "MemoLibrary", "Transcription", "SpeechEnhancement", "Platform", "CEBUR128"]),

        .testTarget(name: "MeteringTests", dependencies: ["TestSupport", "Metering"], swiftSettings: testSettings),
        .testTarget(name: "VocabularyTests", dependencies: ["Vocabulary"], swiftSettings: testSettings),
        .testTarget(name: "ArgumentParsingTests", dependencies: ["ArgumentParsing"], swiftSettings: testSettings),
        .testTarget(name: "BindingsTests", dependencies: ["Audio", "SoundFiles", "MemoLibrary", "Terminal"], swiftSettings: testSettings),
        .testTarget(name: "VoiceMemoCLITests", dependencies: ["VoiceActivation", "VoiceMemoCLI", "AppRuntime", "Vocabulary", "SoundFiles", "Audio", "Platform"], swiftSettings: testSettings),
        .testTarget(
            name: "AppRuntimeTests",
            dependencies: ["TestSupport", "VoiceActivation", "AppRuntime", "Audio", "Vocabulary", "Interface", "Streaming", "MemoLibrary", "SoundFiles", "ArgumentParsing"], swiftSettings: testSettings),
        .testTarget(name: "SoundFilesTests", dependencies: ["TestSupport", "SoundFiles"], swiftSettings: testSettings),
        .testTarget(name: "SpeechEnhancementTests", dependencies: ["TestSupport", "SpeechEnhancement", "Metering"], swiftSettings: testSettings),
        .testTarget(name: "StreamingTests", dependencies: ["Streaming", "CFFmpeg", "CFFmpegLoader"], swiftSettings: testSettings),
        // What every test target shares: the one seeded random generator, the one temporary
        // folder, the unit tier's fence, the suite's private PulseAudio daemon (Tests/pulse-daemon.sh)
        // with per-test sinks, private PipeWire servers, and the fixtures more than one test
        // target uses (file-fed ALSA devices, players, libraries, the app's states, LibriVox clips).
        .target(
            name: "TestSupport",
            dependencies: ["Audio", "VoiceActivation", "SoundFiles", "Metering", "MemoLibrary", "Interface", "Vocabulary", "Transcription"],
            path: "Tests/TestSupport", swiftSettings: testSettings),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "SoundFiles", "Metering", "MemoLibrary", "TestSupport"], swiftSettings: testSettings),
        .testTarget(name: "VoiceActivationTests", dependencies: ["TestSupport", "VoiceActivation", "Audio", "SoundFiles", "Metering", "MemoLibrary"], swiftSettings: testSettings),
        .testTarget(name: "PlatformTests", dependencies: ["TestSupport", "Platform"], swiftSettings: testSettings),
        .testTarget(name: "MemoLibraryTests", dependencies: ["TestSupport", "MemoLibrary", "Vocabulary", "SoundFiles", "Metering"], swiftSettings: testSettings),
        .testTarget(name: "TranscriptionTests", dependencies: ["TestSupport", "Transcription", "MemoLibrary", "SoundFiles", "Audio", "Vocabulary"], swiftSettings: testSettings),
        .testTarget(name: "InterfaceTests", dependencies: ["TestSupport", "Interface", "Vocabulary", "Metering"], exclude: ["Snapshots"], swiftSettings: testSettings),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "Interface"], swiftSettings: testSettings),
        // The e2e tier (Tests/run-all.sh): these three targets.
        // Drives the built `voicememo` binary as a user or a script would.
        .testTarget(name: "EndToEndTests", dependencies: ["SoundFiles", "TestSupport", "VoiceMemoCLI", "Interface"], swiftSettings: testSettings),
        // The modules in-process against audio servers, paced sources, slowed devices and real
        // time, in a folder per module.
        .testTarget(
            name: "RealTimeTests", dependencies: ["TestSupport", "Audio", "VoiceActivation", "SoundFiles", "Metering", "MemoLibrary"], swiftSettings: testSettings),
        // In-process tests too heavy for the unit tier's 60 s, in a folder per module.
        .testTarget(
            name: "HeavyTests", dependencies: ["TestSupport", "Transcription", "MemoLibrary", "SoundFiles", "Interface", "Vocabulary", "Metering", "Audio"], swiftSettings: testSettings),
    ]
)
