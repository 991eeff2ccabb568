import Testing

@testable import Streaming

/// The pure parts of streaming: ICY titles, URLs, status lines, the words of each error.
@Suite struct StreamTextTests {
    @Test(arguments: [
        ("StreamTitle='Artist - Song';StreamUrl='';", "Artist - Song"),
        ("StreamTitle='Rock 'n' Roll';StreamUrl='http://x';", "Rock 'n' Roll"),
        ("StreamTitle='';", ""),
        ("StreamTitle='Last';\0\0\0", "Last"),
    ])
    func streamTitleIsParsed(packet: String, title: String) {
        #expect(IcyMetadata.streamTitle(in: packet) == title)
    }

    @Test func packetWithoutATitleHasNone() {
        #expect(IcyMetadata.streamTitle(in: "StreamUrl='http://x';") == nil)
    }

    @Test func urlsGiveHostAndPort() throws {
        #expect(try #require(StreamURL("http://127.0.0.1:8000/a.mp3")).hostAndPort == "127.0.0.1:8000")
        #expect(try #require(StreamURL("https://localhost/x")).hostAndPort == "localhost:443")
        #expect(try #require(StreamURL("http://user:pw@[::1]:81/")).hostAndPort == "[::1]:81")
        #expect(StreamURL("ftp://x/") == nil)
        #expect(StreamURL("http://") == nil)
        #expect(StreamURL("http://host:99999/") == nil)
    }

    @Test func statusLinesAreParsed() {
        #expect(HTTPStatusLine("HTTP/1.1 404 Not Found") == HTTPStatusLine(code: 404, reason: "Not Found"))
        #expect(HTTPStatusLine("HTTP/1.0 500 Internal Server Error")?.reason == "Internal Server Error")
        #expect(HTTPStatusLine("Content-Type: x") == nil)
    }

    @Test func errorsNameTheCauseAndTheServer() {
        let url = "http://127.0.0.1:8000/x.mp3"
        #expect(StreamError(.httpStatus(code: 404, reason: "Not Found"), url: url).description
            == "HTTP 404 Not Found from 127.0.0.1:8000")
        #expect(StreamError(.timeout(seconds: 2), url: url).description.contains("for 2 s: timed out"))
        #expect(StreamError(.notAudio(contentType: "text/html; charset=utf-8"), url: url).description
            .contains("replied with an HTML page"))
        #expect(StreamError(.dropped, url: url).description.contains("dropped"))
        #expect(StreamError(.redirectLoop, url: url).description.contains("redirects in a loop"))
    }

    @Test func reconnectDelaysDoubleUpToTheLimit() {
        let options = StreamOptions()
        #expect((1...6).map { options.reconnectDelay(forAttempt: $0) } == [0.5, 1, 2, 4, 8, 8])
    }
}

extension HTTPStatusLine {
    init(code: Int, reason: String) {
        self.init("HTTP/1.1 \(code) \(reason)")!
    }
}
