/// Where each part of the screen goes for a given size: a pure function, shared by the
/// views and by the reducer (which needs the table's height to page and scroll).
///
/// Parts are given up from the least to the most important as the terminal shrinks:
/// the waveform band, the live captions' line, separators, the scale, the table header, the status line (the footer line then shows
/// messages instead of keys), the table, the meter rows. At 1×1 only the header's
/// first cell is left.
public struct Layout: Sendable, Equatable {
    public var header: Rect
    /// One row per shown channel.
    public var meterRows: [Rect]
    /// How many channels did not fit.
    public var hiddenChannels: Int
    public var scale: Rect?
    /// The live captions' line under the scale (`CaptionLineView`); `nil` when not asked for or
    /// when fewer than five rows would be left under it. It goes before the waveform band does.
    public var caption: Rect?
    /// The waveform band under the scale (`WaveformBandView`); `nil` when not asked for or
    /// when it does not fit (`waveformMinimumWidth`, and `waveformRows` plus six rows left
    /// for the separator and the table under the meter).
    public var waveform: Rect?
    public var topSeparator: Rect?
    /// The table (or the list that replaces it: help, Recently Deleted, the picker), header row included.
    public var body: Rect
    public var bottomSeparator: Rect?
    /// The status line; `nil` when it shares the footer's line.
    public var status: Rect?
    /// The key-help line (shows messages instead when there is no status line).
    public var footer: Rect?

    /// The narrowest terminal that shows the waveform band.
    public static let waveformMinimumWidth = 20

    /// - Parameters:
    ///   - statusLines: rows the status line wants (2 for a long error on a tall terminal).
    ///   - waveformRows: rows the waveform band wants (0: none).
    ///   - captionRows: rows the live captions want (0: none, or 1).
    public init(width: Int, height: Int, channels: Int, statusLines: Int = 1, waveformRows: Int = 0, captionRows: Int = 0) {
        let width = max(width, 0)
        let height = max(height, 0)
        func row(_ y: Int) -> Rect { Rect(x: 0, y: y, width: width, height: 1) }
        var top = 0
        var bottom = height
        header = height >= 1 ? row(0) : Rect(x: 0, y: 0, width: 0, height: 0)
        top = min(height, 1)
        footer = nil
        status = nil
        bottomSeparator = nil
        if height >= 3 {
            bottom -= 1
            footer = row(bottom)
        }
        if height >= 8 {
            let rows = height >= 16 ? min(max(statusLines, 1), 2) : 1
            bottom -= rows
            status = Rect(x: 0, y: bottom, width: width, height: rows)
        }
        if height >= 16 {
            bottom -= 1
            bottomSeparator = row(bottom)
        }
        let available = max(bottom - top, 0)
        let channels = max(channels, 1)
        let shown = available >= 7 ? min(channels, available - 6) : min(1, available)
        meterRows = (0..<max(shown, 0)).map { row(top + $0) }
        hiddenChannels = channels - max(shown, 0)
        top += max(shown, 0)
        scale = nil
        topSeparator = nil
        if bottom - top >= 4 {
            scale = row(top)
            top += 1
        }
        caption = nil
        if captionRows > 0, bottom - top >= captionRows + 5 {
            caption = Rect(x: 0, y: top, width: width, height: captionRows)
            top += captionRows
        }
        waveform = nil
        if waveformRows > 0, width >= Self.waveformMinimumWidth, bottom - top >= waveformRows + 6 {
            waveform = Rect(x: 0, y: top, width: width, height: waveformRows)
            top += waveformRows
        }
        if bottom - top >= 4 {
            topSeparator = row(top)
            top += 1
        }
        body = Rect(x: 0, y: top, width: width, height: max(bottom - top, 0))
    }

    /// Rows of memos the table shows (its body minus the column header).
    public var tableRows: Int {
        body.height >= 2 ? body.height - 1 : body.height
    }
}
