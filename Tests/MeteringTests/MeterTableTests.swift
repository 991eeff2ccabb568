import Glibc
import Testing

@testable import Metering

/// Parity with the two published MeterTables, computed here the straightforward way with libm.
@Suite struct MeterTableTests {
    /// The classic tutorial table: Float arithmetic, no root.
    struct TutorialTable {
        let minDb: Float = -60
        let tableSize = 300
        let scaleFactor: Float
        var table: [Float] = []

        init() {
            let dbResolution = minDb / Float(tableSize - 1)
            scaleFactor = 1 / dbResolution
            let minAmp = powf(10, 0.05 * minDb)
            let ampRange = 1 - minAmp
            let invAmpRange = 1 / ampRange
            for i in 0..<tableSize {
                let decibels = Float(i) * dbResolution
                let amp = powf(10, 0.05 * decibels)
                table.append((amp - minAmp) * invAmpRange)
            }
        }

        func value(forPower power: Float) -> Float {
            if power < minDb { return 0 }
            if power >= 0 { return 1 }
            return table[Int(power * scaleFactor)]
        }
    }

    /// Apple's avTouch MeterTable.cpp: Float members, Double computation, `pow(adjAmp, 1/root)`.
    struct AppleTable {
        let minDecibels: Float
        let decibelResolution: Float
        let scaleFactor: Float
        var table: [Float] = []

        init(minDecibels: Float, tableSize: Int, root: Float) {
            self.minDecibels = minDecibels
            decibelResolution = minDecibels / Float(tableSize - 1)
            scaleFactor = Float(1.0 / Double(decibelResolution))
            let minAmp = pow(10.0, 0.05 * Double(minDecibels))
            let ampRange = 1.0 - minAmp
            let invAmpRange = 1.0 / ampRange
            let rroot = 1.0 / Double(root)
            for i in 0..<tableSize {
                let decibels = Double(i) * Double(decibelResolution)
                let amp = pow(10.0, 0.05 * decibels)
                let adjAmp = (amp - minAmp) * invAmpRange
                table.append(Float(pow(adjAmp, rroot)))
            }
        }

        func value(forPower decibels: Float) -> Float {
            if decibels < minDecibels { return 0 }
            if decibels >= 0 { return 1 }
            return table[Int(decibels * scaleFactor)]
        }
    }

    /// Levels from below the floor to above 0 dB, including every table boundary.
    static func probeLevels(minDecibels: Float, tableSize: Int) -> [Float] {
        var levels: [Float] = [minDecibels - 1, minDecibels, -0.0, 0, 0.5, 12, -.infinity, .infinity]
        let resolution = minDecibels / Float(tableSize - 1)
        for index in 0..<tableSize {
            let boundary = Float(index) * resolution
            levels += [boundary, boundary.nextUp, boundary.nextDown, boundary + resolution / 2]
        }
        var level = minDecibels
        while level < 1 {
            levels.append(level)
            level += 0.0137
        }
        return levels
    }

    @Test func rootOneReproducesTheTutorialTable() {
        let reference = TutorialTable()
        let table = MeterTable(minDecibels: -60, tableSize: 300, root: 1)
        #expect(table.scaleFactor == reference.scaleFactor)
        #expect(table.table.count == reference.table.count)
        // The tutorial rounds each step to Float; ours computes in Double like Apple's.
        for (ours, theirs) in zip(table.table, reference.table) {
            #expect(abs(ours - theirs) <= 4e-7)
        }
        // Its closed form, index = Int(power · (size − 1) / minDB), away from exact boundaries.
        for index in 0..<300 {
            let decibels = (Float(index) + 0.5) * -60 / 299
            let expected = (pow(10, 0.05 * Double(Float(index) * -60 / 299)) - 0.001) / 0.999
            #expect(abs(Double(table.value(forPower: decibels)) - expected) <= 1e-6)
        }
        for level in Self.probeLevels(minDecibels: -60, tableSize: 300) {
            #expect(abs(table.value(forPower: level) - reference.value(forPower: level)) <= 4e-7)
        }
    }

    @Test func appleOriginalIsReproducedEntryForEntry() {
        let reference = AppleTable(minDecibels: -80, tableSize: 400, root: 2)
        let table = MeterTable(minDecibels: -80, tableSize: 400, root: 2)
        #expect(table.scaleFactor == reference.scaleFactor)
        #expect(table.decibelResolution == reference.decibelResolution)
        for (index, (ours, theirs)) in zip(table.table, reference.table).enumerated() {
            #expect(ours == (theirs.isNaN ? 0 : theirs), "entry \(index)")
        }
        for level in Self.probeLevels(minDecibels: -80, tableSize: 400) {
            let theirs = reference.value(forPower: level)
            #expect(table.value(forPower: level) == (theirs.isNaN ? 0 : theirs), "at \(level) dB")
        }
    }

    @Test(arguments: [(Float(-60), 300, Float(2)), (-40, 50, 3), (-96, 1_000, 1.5), (-20, 2, 2)])
    func otherShapesMatchTheAppleReference(minDecibels: Float, tableSize: Int, root: Float) {
        let reference = AppleTable(minDecibels: minDecibels, tableSize: tableSize, root: root)
        let table = MeterTable(minDecibels: minDecibels, tableSize: tableSize, root: root)
        for (ours, theirs) in zip(table.table, reference.table) where !theirs.isNaN {
            #expect(abs(ours - theirs) <= theirs.ulp)
        }
    }

    @Test func edgesOfTheScale() {
        let table = MeterTable()
        #expect(table.value(forPower: -60.001) == 0)
        #expect(table.value(forPower: -160) == 0)
        #expect(table.value(forPower: .nan) == 0)
        #expect(table.value(forPower: 0) == 1)
        #expect(table.value(forPower: 6) == 1)
        #expect(table.value(forPower: -60) >= 0)
        #expect(table.value(forPower: -60) < 0.01)
        #expect(abs(table.value(forPower: -0.001) - 1) < 1e-3)
    }

    @Test func valuesRiseWithLevel() {
        let table = MeterTable()
        var previous: Float = 0
        var level: Float = -70
        while level < 3 {
            let value = table.value(forPower: level)
            #expect(value >= previous)
            previous = value
            level += 0.05
        }
    }

    @Test func unusableSettingsFallBackInsteadOfTrapping() {
        let table = MeterTable(minDecibels: 10, tableSize: -5, root: .nan)
        #expect(table.minDecibels == -60)
        #expect(table.tableSize == 2)
        #expect(table.root == 2)
        #expect(table.value(forPower: -30) >= 0)
        #expect(MeterTable(tableSize: 10_000_000).tableSize == MeterTable.maximumTableSize)
    }

    @Test func linearScaleMapsTheWholeRange() {
        let scale = MeterScale.linear
        #expect(scale.value(forPower: -160) == 0)
        #expect(scale.value(forPower: -200) == 0)
        #expect(scale.value(forPower: -80) == 0.5)
        #expect(scale.value(forPower: -40) == 0.75)
        #expect(scale.value(forPower: 0) == 1)
        #expect(scale.value(forPower: 3) == 1)
        #expect(scale.value(forPower: .nan) == 0)
    }

    @Test func tableScaleDelegatesToItsTable() {
        let table = MeterTable(minDecibels: -50, tableSize: 100, root: 2)
        for level: Float in [-55, -49.9, -20, -3, 0] {
            #expect(MeterScale.table(table).value(forPower: level) == table.value(forPower: level))
        }
        #expect(MeterScale.standard == .table(MeterTable()))
    }
}
