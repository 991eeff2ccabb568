import Vocabulary

/// A memo file's comment tag, line by line: the memo's id, its tags, its star and a meeting's
/// channel roles, and whatever else the comment says (a comment of an imported file), kept as it is.
///
/// ```
/// VoiceMemo memo 42
/// voicememo-tags: work draft
/// voicememo-starred: yes
/// voicememo-channels: mic 1, desktop 2
/// ```
/// Each of our lines is there only when it has something to say (no tags, no star: no line).
/// A line that is not ours is never changed, so a person's comment survives tagging.
struct MemoComment: Equatable {
    /// The id line's beginning (`FileProbe.commentPrefix`).
    static let idPrefix = "VoiceMemo memo "
    static let tagsPrefix = "voicememo-tags: "
    static let starredLine = "voicememo-starred: yes"
    static let channelsPrefix = "voicememo-channels: "

    /// The id the comment names, if any.
    var memoID: Int64?
    var tags: [String] = []
    var isStarred = false
    /// A meeting's channels (`ChannelRoles`), so that a rebuilt index knows them.
    var channelRoles: ChannelRoles?
    /// The lines that are not ours, in order.
    var otherLines: [String] = []

    init(
        memoID: Int64? = nil, tags: [String] = [], isStarred: Bool = false, channelRoles: ChannelRoles? = nil,
        otherLines: [String] = []
    ) {
        self.memoID = memoID
        self.tags = tags
        self.isStarred = isStarred
        self.channelRoles = channelRoles
        self.otherLines = otherLines
    }

    /// Reads a file's comment (`nil`: none).
    init(parsing comment: String?) {
        guard let comment, !comment.isEmpty else { return }
        for line in comment.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if memoID == nil, line.hasPrefix(Self.idPrefix),
                let id = Int64(line.dropFirst(Self.idPrefix.count)), id > 0
            {
                memoID = id
            } else if line.hasPrefix(Self.tagsPrefix) {
                tags = MemoTag.split(String(line.dropFirst(Self.tagsPrefix.count)))
            } else if line == Self.starredLine {
                isStarred = true
            } else if line.hasPrefix(Self.channelsPrefix),
                let roles = ChannelRoles(String(line.dropFirst(Self.channelsPrefix.count)))
            {
                channelRoles = roles
            } else {
                otherLines.append(line)
            }
        }
    }

    /// The comment as written into the file.
    var text: String {
        var lines: [String] = []
        if let memoID { lines.append(Self.idPrefix + String(memoID)) }
        if !tags.isEmpty { lines.append(Self.tagsPrefix + MemoTag.joined(tags)) }
        if isStarred { lines.append(Self.starredLine) }
        if let channelRoles { lines.append(Self.channelsPrefix + channelRoles.description) }
        return (lines + otherLines).joined(separator: "\n")
    }
}
