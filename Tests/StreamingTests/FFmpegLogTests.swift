import CFFmpeg
import CFFmpegLoader
import Foundation
import Testing

@testable import Streaming

/// FFmpeg's log as the streams read it back: one callback for the process, one storage per
/// thread. The lines are fed through `av_vlog`, as http.c's trace of each header line is.
@Suite struct FFmpegLogTests {
    private func log(_ level: Int32, _ format: String, _ argument: String) {
        argument.withCString { text in
            withVaList([text]) { arguments in av_vlog(nil, level, format, arguments) }
        }
    }

    private func header(_ line: String) { log(AV_LOG_TRACE, "header='%s'\n", line) }

    /// The interrupt callback reads the Location the log callback wrote. They were two copies
    /// of the storage (one per object file of a `static inline` header), so in the debug build
    /// the callback never saw a redirect.
    @Test func theInterruptCallbackSeesARedirectToAnotherScheme() {
        #expect(vm_ffmpeg_load() == 0)
        vm_http_status_reset()
        let interruption = StreamInterruption()
        interruption.beginConnection()
        #expect(!interruption.shouldInterrupt(), "no redirect yet")
        header("HTTP/1.1 302 Found")
        header("Location: /next")
        #expect(!interruption.shouldInterrupt(), "a relative redirect is followed")
        header("Location: ftp://127.0.0.1/tone.mp3")
        #expect(interruption.shouldInterrupt())
        #expect(interruption.refusedRedirect == "ftp://127.0.0.1/tone.mp3")
    }

    @Test func statusLinesLocationsAndICYHeadersAreCountedPerConnection() {
        #expect(vm_ffmpeg_load() == 0)
        vm_http_status_reset()
        header("HTTP/1.1 302 Found")
        header("Location: http://127.0.0.1:8000/live 'quoted'")
        header("ICY 200 OK")
        header("icy-metaint: 8000")
        header("icy-name: Radio")
        header("Content-Type: audio/mpeg")
        #expect(String(cString: vm_http_status_last()) == "ICY 200 OK")
        #expect(vm_http_status_lines() == 2)
        #expect(String(cString: vm_http_location_last()) == "http://127.0.0.1:8000/live 'quoted'")
        #expect(vm_http_locations() == 1)
        #expect(vm_http_icy_header_lines() == 2)
        vm_http_status_reset()
        #expect(String(cString: vm_http_status_last()).isEmpty)
        #expect(vm_http_status_lines() == 0 && vm_http_locations() == 0 && vm_http_icy_header_lines() == 0)
    }

    @Test func theLastErrorIsKeptOnItsLineAndOtherMessagesAreNot() {
        #expect(vm_ffmpeg_load() == 0)
        vm_http_status_reset()
        log(AV_LOG_ERROR, "%s\n", "moov atom not found")
        log(AV_LOG_INFO, "%s\n", "not an error")
        log(AV_LOG_TRACE, "%s\n", "HTTP/1.1 500 not a header trace")
        #expect(String(cString: vm_last_error_message()) == "moov atom not found")
        #expect(vm_http_status_lines() == 0)
    }

    /// Each thread keeps its own: a connection opened on another thread leaves this one's alone.
    @Test func anotherThreadsLinesAreNotThisOnes() {
        #expect(vm_ffmpeg_load() == 0)
        vm_http_status_reset()
        header("HTTP/1.1 404 Not Found")
        let done = DispatchSemaphore(value: 0)
        let other = Thread { [self] in
            vm_http_status_reset()
            header("HTTP/1.1 200 OK")
            done.signal()
        }
        other.start()
        done.wait()
        #expect(String(cString: vm_http_status_last()) == "HTTP/1.1 404 Not Found")
    }
}
