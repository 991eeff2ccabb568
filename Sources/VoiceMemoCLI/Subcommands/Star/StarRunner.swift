import MemoLibrary

/// `star` and `unstar`: a memo's star, in the index and (where the format allows) in its file's comment.
enum StarRunner {
    static func run(_ options: StarOptions, context: CommandContext) throws -> ExitCode {
        let library = try LibraryAccess.open(context)
        let memo = try LibraryAccess.perform { () throws(MemoLibraryError) in
            let memo = try library.memo(matching: options.memo)
            return try library.setStarred(id: memo.id, options.starred)
        }
        TagCheck.noteIndexOnly(memo, library: library, console: context.console)
        context.console.reply(.starred(memo))
        return .success
    }
}
