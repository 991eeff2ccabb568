import Glibc
import Testing

@testable import Metering

/// The pure-Swift math against the C library.
@Suite struct ElementaryFunctionsTests {
    static let arguments: [Double] = [
        1e-300, 1e-10, 0.001, 0.1, 0.5, 0.7071, 0.99999, 1, 1.00001, 1.5, 2, 2.718281828, 10, 1e5, 1e300,
    ]

    @Test func naturalLogarithmMatchesLibm() {
        for x in Self.arguments {
            let ours = ElementaryFunctions.naturalLogarithm(x)
            #expect(abs(ours - log(x)) <= 4 * max(abs(log(x)), 1e-300).ulp, "ln \(x)")
        }
        #expect(ElementaryFunctions.naturalLogarithm(0) == -.infinity)
        #expect(ElementaryFunctions.naturalLogarithm(-1).isNaN)
        #expect(ElementaryFunctions.naturalLogarithm(1) == 0)
    }

    @Test func exponentialMatchesLibm() {
        for x in [-700.0, -20, -1, -0.3, -1e-9, 0, 1e-9, 0.3466, 1, 2.302585, 20, 700] {
            let ours = ElementaryFunctions.exponential(x)
            #expect(abs(ours - exp(x)) <= 4 * exp(x).ulp, "exp \(x)")
        }
        #expect(ElementaryFunctions.exponential(1_000) == .infinity)
        #expect(ElementaryFunctions.exponential(-1_000) == 0)
    }

    @Test func powersAndRootsMatchLibm() {
        for x in Self.arguments {
            #expect(abs(ElementaryFunctions.squareRoot(x) - sqrt(x)) <= sqrt(x).ulp, "sqrt \(x)")
            // exp(y·ln x) inherits the rounding of y·ln x, so the error grows with |y·ln x|;
            // the meter table stays below 20 there.
            let cubeScale = max(1, abs(log(x) / 3))
            #expect(abs(ElementaryFunctions.power(x, 1 / 3) - cbrt(x)) <= 4 * cubeScale * cbrt(x).ulp)
            let tenScale = max(1, abs(log(x)))
            #expect(abs(ElementaryFunctions.exponentialBase10(log10(x)) - x) <= 4 * tenScale * x.ulp)
        }
        #expect(ElementaryFunctions.power(0, 0.5) == 0)
        #expect(abs(ElementaryFunctions.exponentialBase10(-3) - 0.001) <= 8 * 0.001.ulp)
    }

    @Test func decibelConversions() {
        #expect(Decibels.fromAmplitude(1) == 0)
        #expect(abs(Decibels.fromAmplitude(0.5) - -6.0206) < 1e-4)
        #expect(abs(Decibels.fromPower(0.5) - -3.0103) < 1e-4)
        #expect(Decibels.fromAmplitude(0) == -160)
        #expect(Decibels.fromAmplitude(1e-12) == -160)
        #expect(Decibels.fromPower(.nan) == -160)
        #expect(abs(Decibels.toAmplitude(-20) - 0.1) < 1e-15)
    }

    @Test func nearestIntegerRoundsHalvesAwayFromZero() {
        #expect(ElementaryFunctions.nearestInteger(2.5) == 3)
        #expect(ElementaryFunctions.nearestInteger(-2.5) == -3)
        #expect(ElementaryFunctions.nearestInteger(-0.4) == 0)
        #expect(ElementaryFunctions.nearestInteger(1e17) == 1e17)
    }
}
