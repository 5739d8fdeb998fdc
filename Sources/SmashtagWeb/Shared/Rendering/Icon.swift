/// The site's icons, drawn inline as SVG in the text's own colour (`currentColor`): the same on every system, where
/// symbol characters (⌕ ◷ ⤒ ⓘ ▦) depended on the fonts a phone has, and axe could not tell their contrast. Each is
/// decoration beside words or an `aria-label`, so hidden from screen readers.
enum Icon {
    /// The Search tab: a magnifying glass.
    static let search: Markup = "\(open)<circle cx=\"10.5\" cy=\"10.5\" r=\"6.5\"/><path d=\"M15.5 15.5 21 21\"/></svg>"
    /// The Recents tab: a clock.
    static let recents: Markup = "\(open)<circle cx=\"12\" cy=\"12\" r=\"9\"/><path d=\"M12 7v5l3.5 2\"/></svg>"
    /// The Account tab: a person's head and shoulders.
    static let person: Markup = "\(open)<circle cx=\"12\" cy=\"8\" r=\"4\"/><path d=\"M4 21a8 8 0 0 1 16 0\"/></svg>"
    /// Back to the start of the tab: an arrow up to a bar.
    static let toStart: Markup = "\(open)<path d=\"M5 4h14M12 20V8M7 13l5-5 5 5\"/></svg>"
    /// A term's Popularity: an i in a circle.
    static let details: Markup = "\(open)<circle cx=\"12\" cy=\"12\" r=\"9\"/><path d=\"M12 11v6M12 7.5v.01\"/></svg>"
    /// The Images grid: four squares.
    static let grid: Markup = """
        \(open)<rect x="4" y="4" width="7" height="7"/><rect x="13" y="4" width="7" height="7"/><rect x="4" y="13" \
        width="7" height="7"/><rect x="13" y="13" width="7" height="7"/></svg>
        """

    /// Every icon's `<svg>`: a 24-unit square, hidden from screen readers; the stylesheet strokes it in the text's
    /// colour (`.icon`), so that every page does not carry the same attributes three times.
    private static let open: Markup = "<svg class=\"icon\" viewBox=\"0 0 24 24\" aria-hidden=\"true\">"
}
