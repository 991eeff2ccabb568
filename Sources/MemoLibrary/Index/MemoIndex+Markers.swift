/// Markers in the index (schema version 4): `markers(memo_id, time, label)`.
extension MemoIndex {
    /// Whether the index has the markers table: a read-only library may be reading an index
    /// written before version 4, which it cannot migrate.
    func hasMarkerTable() throws(SQLiteError) -> Bool {
        try !database.query("SELECT 1 FROM sqlite_master WHERE name = 'markers'").isEmpty
    }

    func insertMarker(memoID: Int64, _ marker: Marker) throws(SQLiteError) {
        try database.run(
            "INSERT INTO markers (memo_id, time, label) VALUES (?, ?, ?)",
            [.integer(memoID), .real(marker.time), .text(marker.label)])
    }

    /// Gives memo `memoID`'s marker at `time` (within `Marker.sameTimeTolerance`) the label
    /// `label`; how many markers it changed (0: none there).
    func updateMarkerLabel(memoID: Int64, time: Double, label: String) throws(SQLiteError) -> Int {
        try database.run(
            "UPDATE markers SET label = ? WHERE memo_id = ? AND abs(time - ?) <= ?",
            [.text(label), .integer(memoID), .real(time), .real(Marker.sameTimeTolerance)])
    }

    /// Memo `id`'s markers, earliest first (equal times in the order they were added).
    func markers(id: Int64) throws(SQLiteError) -> [Marker] {
        var markers: [Marker] = []
        try database.forEachRow(
            "SELECT time, label FROM markers WHERE memo_id = ? ORDER BY time, id", [.integer(id)]
        ) { statement throws(SQLiteError) in
            markers.append(Marker(time: statement.double(0), label: statement.text(1)))
        }
        return markers
    }

    /// Every memo's markers, by memo id.
    func allMarkers() throws(SQLiteError) -> [Int64: [Marker]] {
        var markers: [Int64: [Marker]] = [:]
        try database.forEachRow("SELECT memo_id, time, label FROM markers ORDER BY memo_id, time, id") { statement throws(SQLiteError) in
            markers[statement.int64(0), default: []].append(Marker(time: statement.double(1), label: statement.text(2)))
        }
        return markers
    }
}
