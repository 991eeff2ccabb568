import Testing

@testable import Streaming

/// The rules a reply is judged by: where it ends, which demuxer its type names, which
/// redirects are followed.
@Suite struct StreamExtentTests {
    @Test func aLengthIsAFileWhateverElseTheServerSays() {
        #expect(StreamExtent.of(length: 5000, speaksICY: true, seekable: false) == .length(bytes: 5000))
        #expect(StreamExtent.of(length: 5000, speaksICY: false, seekable: true) == .length(bytes: 5000))
    }

    @Test func noLengthIsLiveOnlyWhenTheServerSpeaksICYAndCannotSeek() {
        #expect(StreamExtent.of(length: -1, speaksICY: true, seekable: false) == .live)
        #expect(StreamExtent.of(length: 0, speaksICY: false, seekable: false) == .untilClose)
        #expect(StreamExtent.of(length: -1, speaksICY: true, seekable: true) == .untilClose, "ranges: a file")
        #expect(StreamExtent.live.isLive)
        #expect(!StreamExtent.untilClose.isLive)
    }

    @Test func aFileSentUntilCloseEndsShortOnlyBelowItsAnnouncedLength() {
        #expect(StreamExtent.untilClose.endsShort(received: 1.2, announced: 3))
        #expect(StreamExtent.untilClose.endsShort(received: 2.5, announced: 3))
        #expect(!StreamExtent.untilClose.endsShort(received: 2.9, announced: 3), "a decoder's last block may still be held")
        #expect(!StreamExtent.untilClose.endsShort(received: 0.2, announced: nil), "no length announced: the close is the end")
        #expect(!StreamExtent.live.endsShort(received: 0.2, announced: 3))
    }

    @Test(arguments: [
        ("audio/mpeg", "mp3"), ("Audio/MPEG; charset=binary", "mp3"), ("audio/aacp", "aac"), ("audio/aac", "aac"),
        ("application/ogg", "ogg"), ("audio/ogg", "ogg"), ("audio/flac", "flac"), ("audio/x-wav", "wav"),
    ])
    func aContentTypeNamesItsDemuxer(type: String, demuxer: String) {
        #expect(StreamContainer.demuxer(forContentType: type) == demuxer)
    }

    @Test(arguments: ["", "application/octet-stream", "audio/mp4", "video/mp2t"])
    func otherTypesAreProbed(type: String) {
        #expect(StreamContainer.demuxer(forContentType: type) == nil)
    }

    @Test(arguments: ["/files/x.mp3", "next.mp3", "//cdn.example/x", "http://a/x", "HTTPS://a/x", "localhost/x:y"])
    func relativeAndHTTPRedirectsAreFollowed(location: String) {
        #expect(StreamRedirect.isFollowed(location))
    }

    @Test(arguments: ["file:///etc/passwd", "FILE:/etc/passwd", "ftp://127.0.0.1/x", "data:audio/mpeg;base64,AA", "gopher://x"])
    func otherSchemesAreRefused(location: String) {
        #expect(!StreamRedirect.isFollowed(location))
    }

    @Test func aRefusedRedirectIsNamed() {
        let error = StreamError(.redirectRefused(location: "file:///etc/passwd"), url: "http://127.0.0.1:8000/x")
        #expect(error.description == "127.0.0.1:8000 redirected to file:///etc/passwd, which is not an http:// or https:// URL: not followed")
        #expect(!error.isDrop)
    }

    @Test func arrivalGivesItsRateAndNeed() {
        let arrival = StreamArrival(bytes: 400, seconds: 4, bitRate: 128_000)
        #expect(arrival.bytesPerSecond == 100)
        #expect(arrival.neededBytesPerSecond == 16_000)
        #expect(StreamArrival(bytes: 1, seconds: 0, bitRate: nil).neededBytesPerSecond == nil)
    }
}
