import Dispatch
import Glibc
import Synchronization

/// A desktop notification through libnotify (the freedesktop.org notification service on the
/// session bus: GNOME Shell, KDE Plasma, dunst, mako, …).
///
/// libnotify is loaded with `dlopen` at the first notification (`libnotify.so.4`, Debian's
/// `libnotify4`): a machine without it, or without a session bus, runs every command as before
/// and only has no notifications. Sending blocks on D-Bus, so it runs on a thread of its own
/// and is waited for at most `timeout`: a notification server that hangs never holds a command.
public enum DesktopNotification {
    /// Why a notification was not shown.
    public enum Failure: Error, Equatable, Sendable {
        /// No session bus to reach a notification server on (no `DBUS_SESSION_BUS_ADDRESS`, no
        /// `$XDG_RUNTIME_DIR/bus`).
        case noSessionBus
        /// libnotify is not installed, or lacks a function (`dlerror`'s words).
        case unavailable(String)
        /// libnotify or the server refused it (the GError's message).
        case refused(String)
        /// No answer within the timeout.
        case timedOut

        public var message: String {
            switch self {
            case .noSessionBus: "no session bus"
            case .unavailable(let why): "libnotify is unavailable (\(why))"
            case .refused(let why): "the notification server refused it (\(why))"
            case .timedOut: "the notification server did not answer"
            }
        }
    }

    /// Whether a session bus can be reached from `environment`, as GLib finds one.
    public static func hasSessionBus(environment: [String: String]) -> Bool {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return false }
        var status = stat()
        return stat(runtime + "/bus", &status) == 0 && (status.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Shows `summary` and `body` from "VoiceMemo"; waits at most `timeout` seconds for the server.
    public static func show(
        summary: String, body: String, environment: [String: String], timeout: Double = 2
    ) -> Result<Void, Failure> {
        guard hasSessionBus(environment: environment) else { return .failure(.noSessionBus) }
        let functions: Functions
        switch Functions.loaded {
        case .success(let loaded): functions = loaded
        case .failure(let failure): return .failure(failure)
        }
        let outcome = Outcome()
        DetachedThread.start(name: "vm-notify") {
            outcome.finish(functions.show(summary: summary, body: body))
        }
        return outcome.wait(seconds: timeout) ?? .failure(.timedOut)
    }

    /// The few libnotify and GLib functions used, looked up once.
    private struct Functions: @unchecked Sendable {
        typealias Initialise = @convention(c) (UnsafePointer<CChar>?) -> Int32
        typealias New = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> OpaquePointer?
        typealias Show = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32
        typealias Release = @convention(c) (OpaquePointer?) -> Void
        typealias FreeError = @convention(c) (UnsafeMutableRawPointer?) -> Void

        let initialise: Initialise
        let new: New
        let showNotification: Show
        let release: Release
        let freeError: FreeError

        /// Where GLib's `GError` keeps its message: after its domain (a `guint32`) and code (a `gint`).
        static let errorMessageOffset = MemoryLayout<UInt32>.size + MemoryLayout<Int32>.size

        static let loaded: Result<Functions, Failure> = load()

        private static func load() -> Result<Functions, Failure> {
            guard let library = dlopen("libnotify.so.4", RTLD_NOW | RTLD_LOCAL) else {
                return .failure(.unavailable(dlerror().map { String(cString: $0) } ?? "libnotify.so.4 not found"))
            }
            func symbol<T>(_ name: String, as type: T.Type) -> T? {
                dlsym(library, name).map { unsafeBitCast($0, to: type) }
            }
            // libnotify links GLib and GObject: their functions resolve through it.
            guard let initialise = symbol("notify_init", as: Initialise.self),
                let new = symbol("notify_notification_new", as: New.self),
                let show = symbol("notify_notification_show", as: Show.self),
                let release = symbol("g_object_unref", as: Release.self),
                let freeError = symbol("g_error_free", as: FreeError.self)
            else {
                return .failure(.unavailable(dlerror().map { String(cString: $0) } ?? "a function is missing"))
            }
            guard initialise("VoiceMemo") != 0 else { return .failure(.unavailable("notify_init failed")) }
            return .success(Functions(initialise: initialise, new: new, showNotification: show, release: release, freeError: freeError))
        }

        func show(summary: String, body: String) -> Result<Void, Failure> {
            guard let notification = new(summary, body, "audio-input-microphone") else {
                return .failure(.refused("notify_notification_new failed"))
            }
            defer { release(notification) }
            var error: UnsafeMutableRawPointer?
            guard showNotification(notification, &error) != 0 else {
                let text = error?.load(fromByteOffset: Self.errorMessageOffset, as: UnsafeMutablePointer<CChar>?.self)
                let message = text.map { String(cString: $0) } ?? "no reason given"
                freeError(error)
                return .failure(.refused(message))
            }
            return .success(())
        }
    }

    /// The sending thread's result, which the caller waits for with a deadline.
    private final class Outcome: Sendable {
        private let result = Mutex<Result<Void, Failure>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        func finish(_ outcome: Result<Void, Failure>) {
            result.withLock { $0 = outcome }
            done.signal()
        }

        func wait(seconds: Double) -> Result<Void, Failure>? {
            guard done.wait(timeout: .now() + seconds) == .success else { return nil }
            return result.withLock { $0 }
        }
    }
}
