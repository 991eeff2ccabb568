import TestSupport
import Foundation
import Glibc
import SoundFiles
import Testing

@testable import Audio

/// `ALSAError`: codes, sentences, alsa-lib's captured text, and refused formats.
@Suite struct ALSAErrorTests {
    @Test func unknownDeviceCarriesAlsaLibsReasonAndPrintsNothing() throws {
        let outcome = capturingStandardError {
            Result { () throws(ALSAError) in try ALSAPCM(device: "voicememo_no_such_device", stream: .capture) }
        }
        guard case .failure(let error) = outcome.result else {
            Issue.record("opening an unknown device succeeded")
            return
        }
        #expect(error == .noEntry)
        #expect(error.function == "snd_pcm_open")
        #expect(error.alsaMessage == "Unknown PCM voicememo_no_such_device")
        #expect(
            error.description
                == "cannot open capture device \"voicememo_no_such_device\": no such device (ALSA: Unknown PCM voicememo_no_such_device)"
        )
        #expect(!outcome.standardError.contains("ALSA lib"))
        #expect(!outcome.standardError.contains("Unknown PCM"))
    }

    @Test func defaultDeviceOpensOrFailsQuietlyInOneSentence() {
        // Without a sound card, "default" fails deep in alsa.conf's card lookup,
        // where alsa-lib reports several messages; we keep the last one.
        let outcome = capturingStandardError {
            Result { () throws(ALSAError) in try ALSAPCM(device: "default", stream: .capture) }
        }
        #expect(!outcome.standardError.contains("ALSA lib"))
        if case .failure(let error) = outcome.result {
            #expect(error.description.hasPrefix("cannot open capture device \"default\": "))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func staleAlsaTextIsNotAttachedToALaterError() throws {
        // alsa-lib's text for one failure must not leak into a later one on the
        // same thread (the shim's buffer is shared by every caller in the program).
        let devices = try ALSATestDevices(frames: 10_000)
        defer { devices.remove() }
        let unknown = #expect(throws: ALSAError.self) {
            _ = try ALSAPCM(device: "voicememo_stale_text", stream: .capture)
        }
        #expect(unknown?.alsaMessage == "Unknown PCM voicememo_stale_text")
        let operations = FaultInjectingPCMOperations([.readInterleaved: [1: Int(-EIO)]])
        let pcm = try ALSAPCM(
            device: ALSATestDevices.capture, stream: .capture, configFile: devices.configFile, operations: operations)
        try pcm.configure(ALSATestDevices.stereo48k)
        var sample: Int32 = 0
        let later = #expect(throws: ALSAError.self) { try pcm.readInterleaved(into: &sample, frames: 1) }
        #expect(later == .io)
        #expect(later?.alsaMessage == "")
    }

    @Test func missingCardIsReportedInOneSentence() {
        let error = #expect(throws: ALSAError.self) {
            _ = try ALSACaptureSource(device: "hw:0", format: ALSATestDevices.stereo48k)
        }
        #expect(error == .noEntry)
        #expect(error?.alsaMessage.isEmpty == false)
        #expect(error?.description.hasPrefix("cannot open capture device \"hw:0\": no such device (ALSA: ") == true)
    }

    @Test func refusedFormatSaysWhatTheDeviceOffers() throws {
        let devices = try ALSATestDevices(frames: 1000)
        defer { devices.remove() }
        let format = StreamFormat(sampleRate: 12_345, channels: 7, sampleFormat: .float32)
        let error = #expect(throws: ALSAError.self) {
            _ = try ALSACaptureSource(device: ALSATestDevices.linearOnly, format: format, configFile: devices.configFile)
        }
        #expect(error == .invalidArgument)
        #expect(error?.function == "snd_pcm_hw_params_set_format")
        let description = error?.description ?? ""
        #expect(description.hasPrefix("cannot set up capture device \"voicememo_linear_only\": the device refused the parameters; sample format FLOAT_LE was refused for 12345 Hz, 7 ch, float32; it offers "))
        #expect(description.contains("formats S8, U8, S16_LE"))
        #expect(!description.contains("FLOAT_LE,"))
    }

    @Test func capabilitiesOfTheLinearOnlyDevice() throws {
        let devices = try ALSATestDevices(frames: 1000)
        defer { devices.remove() }
        let pcm = try ALSAPCM(device: ALSATestDevices.linearOnly, stream: .capture, configFile: devices.configFile)
        defer { pcm.close() }
        let capabilities = try #require(pcm.capabilities())
        #expect(capabilities.formats.contains("S16_LE"))
        #expect(capabilities.formats.contains("S32_LE"))
        #expect(!capabilities.formats.contains("FLOAT_LE"))
        #expect(capabilities.channels?.contains(7) == true)
    }

    @Test func missingConfigFileIsAnError() {
        let error = #expect(throws: ALSAError.self) {
            _ = try ALSAPCM(device: "x", stream: .capture, configFile: "/nonexistent/voicememo.conf")
        }
        #expect(error == .noEntry)
        #expect(
            error?.description
                == "cannot load the ALSA configuration for capture device \"x\": no such file; reading \"/nonexistent/voicememo.conf\""
        )
    }

    @Test func malformedConfigFileCarriesAlsaLibsParseError() throws {
        let devices = try ALSATestDevices(frames: 10)
        defer { devices.remove() }
        let path = devices.directory.appendingPathComponent("broken.conf").path
        try "pcm.broken { type file \n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: ALSAError.self) {
            _ = try ALSAPCM(device: "broken", stream: .capture, configFile: path)
        }
        #expect(error?.function == "voicememo_alsa_load_config")
        #expect(error?.alsaMessage.contains("Unexpected char") == true)
        #expect(error?.description.contains("the file is not valid ALSA configuration") == true)
    }

    @Test func namedCodesMatchTheirCNames() {
        #expect(ALSAError.brokenPipe.rawValue == -EPIPE)
        #expect(ALSAError.suspended.rawValue == -ESTRPIPE)
        #expect(ALSAError.noDevice.rawValue == -ENODEV)
        #expect(ALSAError.notTTY.rawValue == -ENOTTY)
        #expect(ALSAError.io.rawValue == -EIO)
        #expect(ALSAError.busy.rawValue == -EBUSY)
        #expect(ALSAError.wouldBlock.rawValue == -EAGAIN)
        #expect(ALSAError.invalidArgument.rawValue == -EINVAL)
        #expect(ALSAError.noEntry.rawValue == -ENOENT)
        #expect(ALSAError(rawValue: EPIPE) == .brokenPipe)
        #expect(ALSAError.noDevice.isDisconnection && ALSAError.notTTY.isDisconnection)
        #expect(!ALSAError.io.isDisconnection)
    }

    @Test func equalityIsTheCodeAndCatchMatches() {
        let detailed = ALSAError(code: -EBUSY, function: "snd_pcm_open", device: "hw:1", stream: .capture)
        #expect(detailed == .busy)
        do {
            throw detailed
        } catch ALSAError.busy {
            #expect(detailed.device == "hw:1")
        } catch {
            Issue.record("catch ALSAError.busy did not match")
        }
    }

    @Test func descriptionsReadAsSentences() {
        let overrun = ALSAError(code: -EPIPE, function: "snd_pcm_readi", device: "default", stream: .capture)
        #expect(overrun.description == "cannot read from capture device \"default\": overrun (audio was lost)")
        let underrun = ALSAError(code: -EPIPE, function: "snd_pcm_writei", device: "default", stream: .playback)
        #expect(underrun.description == "cannot write to playback device \"default\": underrun (the device ran out of audio)")
        let other = ALSAError(code: -ENOMEM, function: "snd_pcm_drain", device: "pulse")
        #expect(other.description == "snd_pcm_drain failed on device \"pulse\": cannot allocate memory")
    }
}
