import Interface
import Testing

@testable import Terminal

@Suite struct KeyDecodingTests {
    @Test func functionKeysAndControlCharacters() {
        let function = KeyDecoder.functionKeyStatus
        #expect(KeyDecoder.decode(status: function, code: KeyDecoder.Code.up) == .key(.up))
        #expect(KeyDecoder.decode(status: function, code: KeyDecoder.Code.pageDown) == .key(.pageDown))
        #expect(KeyDecoder.decode(status: function, code: KeyDecoder.Code.resize) == .resize)
        #expect(KeyDecoder.decode(status: function, code: KeyDecoder.Code.backspace) == .key(.backspace))
        #expect(KeyDecoder.decode(status: function, code: 0o777) == .key(.other))
        #expect(KeyDecoder.decode(status: 0, code: 13) == .key(.enter))
        #expect(KeyDecoder.decode(status: 0, code: 27) == .key(.escape))
        #expect(KeyDecoder.decode(status: 0, code: 127) == .key(.backspace))
        #expect(KeyDecoder.decode(status: 0, code: 21) == .key(.clearToStart))
        #expect(KeyDecoder.decode(status: 0, code: 3) == .key(.other))
        #expect(KeyDecoder.decode(status: 0, code: 12) == .key(.control("l")), "Ctrl-L: the export prompt's loudness")
        #expect(KeyDecoder.decode(status: -1, code: 0) == nil, "ERR: nothing waiting")
    }

    @Test func unicodeTextArrivesAsCharacters() {
        #expect(KeyDecoder.decode(status: 0, code: 0x6F22) == .key(.character("漢")))
        #expect(KeyDecoder.decode(status: 0, code: 0x1F600) == .key(.character("😀")))
        #expect(KeyDecoder.decode(status: 0, code: 0xD800) == .key(.other), "a lone surrogate is not text")
    }

    /// The constants match the curses.h this binary is built against.
    @Test func codesMatchCurses() {
        #expect(KeyDecoder.Code.resize == 410)
        #expect(KeyDecoder.Code.up == 259 && KeyDecoder.Code.down == 258)
        #expect(KeyDecoder.Code.home == 262 && KeyDecoder.Code.end == 360)
    }
}
