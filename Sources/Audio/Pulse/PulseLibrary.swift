import CPulseLoader

/// libpulse, which the process loads at its first listing or opening of a
/// sound server's source rather than at start (CPulseLoader).
enum PulseLibrary {
    /// Loads the library, once per process (a later call only reads the outcome).
    ///
    /// - Parameter server: The server the caller was about to reach, for the message.
    /// - Throws: `PulseError` `.libraryMissing`, naming the library and why
    ///   ("libpulse.so.0: cannot open shared object file: No such file or directory").
    static func load(for server: String) throws(PulseError) {
        guard vm_pulse_load() != 0 else { return }
        throw PulseError(.libraryMissing, server: server, detail: String(cString: vm_pulse_load_error()))
    }
}
