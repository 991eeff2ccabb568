/// The styles views draw with. With colour off every style is attributes only, so
/// nothing depends on colour to be read.
struct Theme {
    let usesColor: Bool

    init(_ state: AppState) { usesColor = state.usesColor }

    func color(_ color: Color, _ attributes: Style.Attributes = []) -> Style {
        usesColor ? Style(foreground: color, attributes: attributes) : Style(attributes: attributes)
    }

    var title: Style { color(.cyan, .bold) }
    var dim: Style { Style(attributes: .dim) }
    var recordingBadge: Style { color(.red, .bold) }
    var pausedBadge: Style { color(.yellow, .bold) }
    var voiceBadge: Style { color(.cyan, .bold) }
    var error: Style { color(.red, .bold) }
    var warning: Style { color(.yellow, .bold) }
    /// The noise alert's message while it flashes: reverse video, readable without colour.
    var alertFlash: Style { usesColor ? Style(foreground: .red, attributes: [.bold, .reverse]) : Style(attributes: [.bold, .reverse]) }
    var columnHeader: Style { Style(attributes: .bold) }
    var selection: Style { Style(attributes: .reverse) }
    var key: Style { color(.cyan, .bold) }
    var clip: Style { usesColor ? Style(foreground: .white, background: .red, attributes: .bold) : Style(attributes: [.bold, .reverse]) }
}
