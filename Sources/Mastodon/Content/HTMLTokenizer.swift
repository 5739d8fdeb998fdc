/// Splits HTML into tokens the way the HTML standard's tokenizer does for the markup a post can hold: tags with
/// quoted, unquoted and valueless attributes, comments, doctypes, `<` that opens no tag, character references in
/// text and attribute values, and raw-text elements (`script`, `style`) whose content is never text to show.
/// It does not build a tree: a post's text only needs the tokens in order.
struct HTMLTokenizer: Sequence, IteratorProtocol {
    private let input: [Unicode.Scalar]
    private var index = 0
    private var pending: HTMLToken?

    init(_ html: String) {
        input = Array(html.unicodeScalars)
    }

    static func isWhitespace(_ character: Character) -> Bool {
        character == " " || character == "\n" || character == "\t" || character == "\r" || character == "\u{0C}"
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" || scalar == "\u{0C}"
    }

    /// ASCII upper case to lower, as the standard does for tag and attribute names.
    private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    mutating func next() -> HTMLToken? {
        if let token = pending {
            pending = nil
            return token
        }
        var text = ""
        while index < input.count {
            if input[index] == "<" {
                switch markup() {
                case .token(let tag) where text.isEmpty: return tag
                case .token(let tag):
                    pending = tag
                    return .text(text)
                case .skipped: continue
                case .text: break
                }
            }
            if input[index] == "&" {
                text += characterReference(inAttribute: false)
            } else {
                text.unicodeScalars.append(input[index])
                index += 1
            }
        }
        return text.isEmpty ? nil : .text(text)
    }

    private enum Markup {
        case token(HTMLToken)
        /// A comment, doctype or a tag the input ended inside: consumed, showing nothing.
        case skipped
        /// A `<` that opens nothing: text.
        case text
    }

    /// At a `<`: what it opens.
    private mutating func markup() -> Markup {
        let next = peek(1)
        if let next, Self.isASCIILetter(next) { return startTag().map(Markup.token) ?? .skipped }
        if next == "/", let after = peek(2), Self.isASCIILetter(after) { return endTag().map(Markup.token) ?? .skipped }
        if next == "!" || next == "?" || (next == "/" && peek(2) != nil) {
            skipComment()
            return .skipped
        }
        return .text
    }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < input.count ? input[index + offset] : nil
    }

    private mutating func startTag() -> HTMLToken? {
        index += 1
        let name = readName { $0 == "/" || $0 == ">" }
        var attributes: [String: String] = [:]
        var isSelfClosing = false
        while index < input.count {
            let scalar = input[index]
            if Self.isWhitespace(scalar) {
                index += 1
            } else if scalar == ">" {
                index += 1
                let tag = HTMLTag(name: name, attributes: attributes, isSelfClosing: isSelfClosing)
                if name == "script" || name == "style" || name == "template" { skipRawText(until: name) }
                return .startTag(tag)
            } else if scalar == "/" {
                index += 1
                isSelfClosing = peek(0) == ">"
            } else {
                let (key, value) = readAttribute()
                if attributes[key] == nil { attributes[key] = value }
            }
        }
        return nil  // The input ended inside the tag: the standard drops it.
    }

    private mutating func endTag() -> HTMLToken? {
        index += 2
        let name = readName { $0 == ">" || $0 == "/" }
        while index < input.count, input[index] != ">" { index += 1 }
        guard index < input.count else { return nil }
        index += 1
        return .endTag(name: name)
    }

    /// A tag or attribute name, lower-cased (ASCII only, as the standard does).
    private mutating func readName(until stop: (Unicode.Scalar) -> Bool) -> String {
        var name = ""
        while index < input.count, !Self.isWhitespace(input[index]), !stop(input[index]) {
            name.unicodeScalars.append(Self.lowercased(input[index]))
            index += 1
        }
        return name
    }

    private mutating func readAttribute() -> (String, String) {
        var key = readName { $0 == "/" || $0 == ">" || $0 == "=" }
        if key.isEmpty, index < input.count {  // `=` where a name should start is part of the name.
            key.unicodeScalars.append(input[index])
            index += 1
        }
        skipWhitespace()
        guard peek(0) == "=" else { return (key, "") }
        index += 1
        skipWhitespace()
        return (key, readAttributeValue())
    }

    private mutating func readAttributeValue() -> String {
        let quote = peek(0)
        let isQuoted = quote == "\"" || quote == "'"
        if isQuoted { index += 1 }
        var value = ""
        while index < input.count {
            let scalar = input[index]
            if isQuoted ? scalar == quote : (Self.isWhitespace(scalar) || scalar == ">") { break }
            if scalar == "&" {
                value += characterReference(inAttribute: true)
            } else {
                value.unicodeScalars.append(scalar)
                index += 1
            }
        }
        if isQuoted, index < input.count { index += 1 }
        return value
    }

    private mutating func skipWhitespace() {
        while index < input.count, Self.isWhitespace(input[index]) { index += 1 }
    }

    /// `<!-- … -->`, `<!DOCTYPE …>`, `<? … >` and `</ …>` that name no tag: skipped to their end.
    private mutating func skipComment() {
        let isComment = peek(1) == "!" && peek(2) == "-" && peek(3) == "-"
        index += isComment ? 4 : 2
        while index < input.count {
            if isComment
                ? (input[index] == ">" && index >= 2 && input[index - 1] == "-" && input[index - 2] == "-")
                : input[index] == ">"
            {
                index += 1
                return
            }
            index += 1
        }
    }

    /// Everything up to `</name` is the element's raw content, never text to show.
    private mutating func skipRawText(until name: String) {
        let closing = Array(("</" + name).unicodeScalars)
        while index < input.count {
            if input[index] == "<", index + closing.count <= input.count,
                input[index..<index + closing.count].map(Self.lowercased) == closing
            {
                return
            }
            index += 1
        }
    }

    /// At a `&`: the character it refers to, or the `&` itself when it refers to none.
    private mutating func characterReference(inAttribute: Bool) -> String {
        if let (text, length) = CharacterReference.decode(input, at: index, inAttribute: inAttribute) {
            index += length
            return text
        }
        index += 1
        return "&"
    }
}
