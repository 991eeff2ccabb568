import Testing

@testable import Vocabulary

/// A meeting's channel roles: from a joined input's channel count, and their text form.
@Suite struct ChannelRolesTests {
    @Test func aJoinedInputsChannelsAreTheMicrophonesThenTheDesktops() throws {
        let two = try #require(InputName.meeting.channelRoles(channels: 2))
        #expect(two.microphone == 0..<1 && two.desktop == 1..<2)
        #expect(two.description == "mic 1, desktop 2")
        let four = try #require(InputName.joined(first: "a", second: "b").channelRoles(channels: 4))
        #expect(four.microphone == 0..<2 && four.desktop == 2..<4)
        #expect(four.description == "mic 1-2, desktop 3-4")
        #expect(four.channels(of: .me) == 0..<2 && four.channels(of: .them) == 2..<4)
        #expect(InputName.meeting.channelRoles(channels: 3) == nil)
        #expect(InputName.pulse(source: "default").channelRoles(channels: 2) == nil)
        #expect(InputName.default.channelRoles(channels: 2) == nil)
    }

    @Test func theTextFormReadsBackAndNothingElseDoes() {
        for roles in [ChannelRoles(joinedChannels: 2), ChannelRoles(joinedChannels: 4)] {
            #expect(roles.flatMap { ChannelRoles($0.description) } == roles)
        }
        for text in ["", "mic 1", "mic 1, desktop 1", "mic 0, desktop 1", "desktop 1, mic 2", "mic 2-1, desktop 3", "mic x, desktop 2"] {
            #expect(ChannelRoles(text) == nil, "\(text)")
        }
    }

    @Test func speakersHaveTheirNames() {
        #expect(Speaker.allCases.map(\.label) == ["Me", "Them"])
        #expect(Speaker(rawValue: "them") == .them)
    }
}
