/// The site's icons, drawn by the stylesheet in the text's own colour (`.icon`: a mask of the drawing over
/// `currentColor`, one class each): the same on every system, where symbol characters (⌕ ◷ ⤒ ⓘ ▦) depended on the
/// fonts a phone has, and axe could not tell their contrast; and, unlike inline SVG, a few bytes in each page rather
/// than the drawing again in every page. Each is decoration beside words or an `aria-label`: an empty element, which
/// screen readers pass over.
enum Icon {
    /// The Search tab: a magnifying glass.
    static let search: Markup = "<i class=\"icon icon-search\"></i>"
    /// The Recents tab: a clock.
    static let recents: Markup = "<i class=\"icon icon-recents\"></i>"
    /// The Account tab: a person's head and shoulders.
    static let person: Markup = "<i class=\"icon icon-person\"></i>"
    /// Back to the start of the tab: an arrow up to a bar.
    static let toStart: Markup = "<i class=\"icon icon-to-start\"></i>"
    /// A term's Popularity: an i in a circle.
    static let details: Markup = "<i class=\"icon icon-details\"></i>"
    /// The Images grid: four squares.
    static let grid: Markup = "<i class=\"icon icon-grid\"></i>"
}
