import Testing

@testable import Interface

/// The classic LED meter's rules.
@Suite struct LEDBarTests {
    @Test func twentyLEDsAreNineGreenSixYellowFiveRed() {
        let zones = LEDBar.lights(level: 0, peak: 0, count: 20).map(\.zone)
        #expect(zones.filter { $0 == .green }.count == 9)
        #expect(zones.filter { $0 == .yellow }.count == 6)
        #expect(zones.filter { $0 == .red }.count == 5)
        #expect(zones[8] == .green && zones[9] == .yellow && zones[14] == .yellow && zones[15] == .red)
    }

    @Test func levelLightsFullyBelowPartlyAtAndNotAbove() {
        let lights = LEDBar.lights(level: 0.325, peak: 0, count: 20)
        #expect(lights[0..<6].allSatisfy { $0.intensity == 1 })
        #expect(abs(lights[6].intensity - 0.5) < 0.001, "LED 6 spans (0.30, 0.35]: half lit at 0.325")
        #expect(lights[7...].allSatisfy { $0.intensity == 0 })
        #expect(!lights.contains { $0.isPeak })
    }

    @Test func peakLEDIsFullyLitAndClampedToTheLast() {
        let lights = LEDBar.lights(level: 0.1, peak: 0.71, count: 20)
        #expect(lights.firstIndex { $0.isPeak } == 14)
        #expect(lights[14].intensity == 1)
        #expect(LEDBar.lights(level: 1, peak: 1, count: 20).firstIndex { $0.isPeak } == 19)
        #expect(LEDBar.lights(level: 0, peak: 0, count: 0).isEmpty)
    }

    @Test func glyphsTellZonesApartWithoutColour() {
        let theme = Theme(AppState(usesColor: false))
        let lit = LEDBar.lights(level: 1, peak: 0, count: 20).map { MeterView.cell(for: $0, theme: theme).glyph }
        #expect(Set(lit[0..<9]) == ["█"])
        #expect(Set(lit[9..<15]) == ["▓"])
        #expect(Set(lit[15..<20]) == ["▒"])
        let unlit = MeterView.cell(for: LEDBar.lights(level: 0, peak: 0, count: 20)[0], theme: theme)
        #expect(unlit.glyph == "·")
        #expect(unlit.style.foreground == nil)
    }

    @Test func colourGlyphsShowIntensity() {
        let theme = Theme(AppState(usesColor: true))
        let lights = LEDBar.lights(level: 0.34, peak: 0.9, count: 20)
        #expect(MeterView.cell(for: lights[0], theme: theme) == Cell(glyph: "█", style: Style(foreground: .green)))
        #expect(MeterView.cell(for: lights[6], theme: theme).glyph == "▓")
        #expect(MeterView.cell(for: lights[10], theme: theme) == Cell(glyph: "░", style: Style(foreground: .yellow, attributes: .dim)))
        #expect(MeterView.cell(for: lights[18], theme: theme) == Cell(glyph: "█", style: Style(foreground: .red, attributes: .bold)))
    }
}
