import Interface
import Streaming
import Testing

@testable import AppRuntime

/// The app's status line for a stream that cannot play: the stream's own words, without the
/// command line's flags (the app has no `--timeout`).
@Suite struct AppStreamWordingTests {
    @Test func aTimeoutIsWordedWithoutTheFlag() {
        let error = StreamError(.timeout(seconds: 10), url: "http://127.0.0.1:8000/stall")
        #expect(error.description.hasSuffix("(--timeout)"), "the CLI's words name the flag: \(error)")
        #expect(AppLoop.failure(error) == .noData(server: "127.0.0.1:8000", seconds: 10))
        #expect(AppLoop.failure(error).message == "no data from 127.0.0.1:8000 for 10 s: timed out")
        #expect(AppLoop.failure(StreamError(.timeout(seconds: 2.5), url: "http://h:1/x")).message == "no data from h:1 for 2.5 s: timed out")
    }

    @Test func otherCausesKeepTheStreamsOwnWords() {
        let error = StreamError(.httpStatus(code: 404, reason: "Not Found"), url: "http://127.0.0.1:8000/status/404")
        #expect(AppLoop.failure(error) == .stream(detail: "HTTP 404 Not Found from 127.0.0.1:8000"))
    }
}
