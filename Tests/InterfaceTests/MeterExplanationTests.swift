import Testing

@testable import Interface

/// What `m` says of a meter mode starts with what the bar shows and where a good level is;
/// the standard comes last, in parentheses.
@Suite struct MeterExplanationTests {
    @Test(arguments: MeterMode.allCases)
    func theStandardComesLast(mode: MeterMode) throws {
        let explanation = mode.descriptor.explanation
        let open = try #require(explanation.lastIndex(of: "("), "\(explanation)")
        let words = explanation[..<open]
        for jargon in ["IEC", "EBU", "DIN", "integration", "RMS"] {
            #expect(!words.contains(jargon), "\(jargon) before the parentheses: \(explanation)")
        }
        let standard = explanation[open..<explanation.endIndex]
        #expect(explanation.hasSuffix(").") && standard.contains(where: \.isNumber), "\(explanation)")
        #expect(words.contains("bar") || words.contains("loud"), "what the bar shows: \(explanation)")
        let good = mode.descriptor.goodLevel
        if mode == .loudness {
            #expect(words.contains("good within \(Int(good.upperBound)) LU of ┃"), "\(explanation)")
        } else {
            #expect(words.contains("good at \(Int(good.lowerBound)) to \(Int(good.upperBound)) dB"), "\(explanation)")
        }
    }
}
