import Audio
import Glibc
import SoundFiles
import Testing
@testable import MemoLibrary
@testable import AppRuntime

/// The app's words for a failed input or playback device, and the library's "disk full", are
/// decided on the typed cause (ALSA's code and function, errno, libsndfile's kind), never by
/// reading the message back: the same sentences as before, and a message that only
/// looks like a cause is not taken for one.
@Suite struct TypedErrorWordingTests {
    /// A real ALSA open of a device that does not exist, as the app's input picker does it.
    @Test func aMissingALSAInputIsWordedFromItsCode() throws {
        let source = InputSource.alsa(device: "voicememo_no_such_device")
        let format = StreamFormat(sampleRate: 48_000, channels: 2, sampleFormat: .int16)
        do {
            let opened = try source.open(format: format, paced: true)
            opened.close()
            Issue.record("an ALSA device that does not exist opened")
        } catch {
            let alsa = try #require(error.cause.flatMap { cause -> ALSAError? in
                if case .alsa(let alsa) = cause { return alsa }
                return nil
            }, "the error keeps ALSA's error: \(error)")
            #expect(alsa == .noEntry, "\(alsa)")
            #expect(alsa.isOpenFailure)
            let words = InputChoices.openFailure(source, error).message
            #expect(words.hasPrefix("No microphone: ALSA 'voicememo_no_such_device' cannot be opened (no such device"), "\(words)")
            #expect(words.hasSuffix("). Press i to choose an input."), "\(words)")
        }
    }

    @Test func anInputOpenFailureKeepsItsWords() {
        let alsa = ALSAError(
            code: -ENOENT, function: "snd_pcm_open", device: "default", stream: .capture, alsaMessage: "Unknown PCM default")
        let error = RecorderError(.input, alsa.description, cause: .alsa(alsa))
        #expect(InputChoices.openFailure(.alsa(device: "default"), error).message
            == "No microphone: ALSA 'default' cannot be opened (no such device: Unknown PCM default). Press i to choose an input.")
        // Without an ALSA cause the message is given whole, not cut at its punctuation.
        let other = RecorderError(.input, "cannot open capture device \"default\": odd (ALSA: words)")
        #expect(InputChoices.openFailure(.alsa(device: "default"), other).message
            == "No microphone: ALSA 'default' cannot be opened (cannot open capture device \"default\": odd (ALSA: words)). Press i to choose an input.")
        #expect(InputChoices.openFailure(.tone(frequency: 440, peakDBFS: -12), RecorderError(.settings, "bad tone")).message
            == "The input tone:440@-12 cannot be opened: bad tone. Press i to choose an input.")
    }

    @Test func aPlaybackDeviceThatWillNotOpenIsWordedFromItsCode() {
        let alsa = ALSAError(
            code: -ENOENT, function: "snd_pcm_open", device: "nope", stream: .playback, alsaMessage: "Unknown PCM nope")
        let error = PlayerError(.device, alsa.description, cause: .alsa(alsa))
        #expect(PlaybackSession.failure(error, title: "Idea", device: "nope").message
            == "Cannot play “Idea”: the playback device 'nope' cannot be opened (no such device). Press O to choose where memos play.")
        // A message that starts like an open failure but has no such cause is not taken for one.
        let lookalike = PlayerError(.device, "cannot open playback device \"nope\": no such device")
        #expect(PlaybackSession.failure(lookalike, title: "Idea", device: "nope").message
            == "Cannot play “Idea”: cannot open playback device \"nope\": no such device.")
        // An ALSA failure while playing (not opening) keeps its own words.
        let unplugged = ALSAError(code: -ENODEV, function: "snd_pcm_writei", device: "hw:1", stream: .playback)
        let midPlay = PlayerError(.device, unplugged.description, cause: .alsa(unplugged))
        #expect(PlaybackSession.failure(midPlay, title: "Idea", device: "hw:1").message
            == "Cannot play “Idea”: \(unplugged.description).")
    }

    /// "Disk full" comes from the code: a German `strerror` text is still a full disk, and the
    /// English words without the code are not.
    @Test func diskFullIsTheCodeInAnyLanguage() {
        let german = MemoLibraryError.file(
            path: "/memos/a.wav", reason: "Auf dem Gerät ist kein Speicherplatz mehr verfügbar", osError: ENOSPC)
        #expect(german.isDiskFull)
        #expect(MemoLibraryError.file(path: "/memos/a.wav", reason: "quota", osError: EDQUOT).isDiskFull)
        #expect(!MemoLibraryError.file(path: "/memos/a.wav", reason: "No space left on device").isDiskFull)
        #expect(!MemoLibraryError.file(path: "/memos/a.wav", reason: "x", osError: EACCES).isDiskFull)
        #expect(MemoLibraryError.sound(SoundFileError(kind: .diskFull, path: "/memos/a.wav")).isDiskFull)
        #expect(MemoLibraryError.index(.full).isDiskFull)
        #expect(german.description == "/memos/a.wav: Auf dem Gerät ist kein Speicherplatz mehr verfügbar", "the words are as before")

        #expect(ErrorCause.osError(ENOSPC).isDiskFull)
        #expect(ErrorCause.soundFile(SoundFileError(kind: .diskFull, path: "a.wav", osError: ENOSPC)).isDiskFull)
        #expect(!ErrorCause.soundFile(SoundFileError(kind: .write, path: "a.wav", osError: EIO)).isDiskFull)
        #expect(!ErrorCause.alsa(.io).isDiskFull)
    }
}
