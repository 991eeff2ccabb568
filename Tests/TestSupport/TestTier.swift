import Foundation

/// The unit tier's fence: `Tests/run-all.sh unit` sets
/// `VOICEMEMO_TEST_TIER=unit`, and there the test support starts no audio server and no tmux.
///
/// A unit-tier test that reaches for one then fails, saying which tier it belongs to, instead
/// of quietly starting a daemon the unit tier promises not to need (and paying its real time).
public enum TestTier {
    /// The environment variable `Tests/run-all.sh` sets to `unit` for the unit tier.
    public static let environmentVariable = "VOICEMEMO_TEST_TIER"

    /// Whether this test process runs the unit tier.
    public static var isUnit: Bool {
        ProcessInfo.processInfo.environment[environmentVariable] == "unit"
    }

    /// A server or a terminal the unit tier does not have.
    public struct Fenced: Error, CustomStringConvertible {
        public let description: String
    }

    /// Throws when this process runs the unit tier.
    ///
    /// - Parameter what: what the test asked for ("the test PulseAudio daemon", "tmux").
    /// - Throws: ``Fenced``, naming `what` and the targets it belongs in.
    public static func requireEndToEnd(for what: String) throws(Fenced) {
        guard isUnit else { return }
        throw Fenced(description: "\(what) is fenced off in the unit tier: a test that needs it belongs in an "
            + "e2e target (RealTimeTests, or EndToEndTests for the built binary)")
    }
}
