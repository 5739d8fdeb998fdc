/// What an HTML tokenizer gives: tags and the text between them, character references already decoded.
/// Comments, doctypes and processing instructions are not shown, so they give nothing.
enum HTMLToken: Equatable {
    case startTag(HTMLTag)
    case endTag(name: String)
    case text(String)
}

/// A start tag: its lower-cased name and attributes (names lower-cased, values decoded; the first of a repeated
/// name wins, as in browsers).
struct HTMLTag: Equatable {
    let name: String
    let attributes: [String: String]
    let isSelfClosing: Bool

    init(name: String, attributes: [String: String] = [:], isSelfClosing: Bool = false) {
        self.name = name
        self.attributes = attributes
        self.isSelfClosing = isSelfClosing
    }

    /// The tokens of the `class` attribute.
    var classes: Set<Substring> {
        Set((attributes["class"] ?? "").split(whereSeparator: HTMLTokenizer.isWhitespace))
    }

    func has(class name: Substring) -> Bool {
        classes.contains(name)
    }
}
