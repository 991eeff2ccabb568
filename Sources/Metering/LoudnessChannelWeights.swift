extension LoudnessMeter {
    /// The surround weight of BS.1770-4 Table 3: +1.5 dB, written 1.41 in the standard.
    public static let surroundWeight = 1.41

    /// The BS.1770-4 channel weights for `channels` channels in the usual (WAV/SMPTE) order.
    ///
    /// - 1: mono; 2: L R; 3: L R C — all 1.0.
    /// - 4: L R Ls Rs (quadraphonic): 1, 1, 1.41, 1.41.
    /// - 5: L R C Ls Rs: 1, 1, 1, 1.41, 1.41.
    /// - 6: L R C LFE Ls Rs (5.1): 1, 1, 1, 0, 1.41, 1.41 — the LFE channel is not measured.
    /// - more: 1.0 each; BS.1770-4 defines weights only up to 5.1, so a caller that knows its
    ///   layout should pass its own weights to `init(sampleRate:channelWeights:)`.
    public static func standardChannelWeights(channels: Int) -> [Double] {
        switch channels {
        case 4: [1, 1, surroundWeight, surroundWeight]
        case 5: [1, 1, 1, surroundWeight, surroundWeight]
        case 6: [1, 1, 1, 0, surroundWeight, surroundWeight]
        default: Array(repeating: 1, count: max(channels, 0))
        }
    }
}
