/// HTML character references: `&amp;`, `&#39;`, `&#x1F600;` and the named ones a post's HTML uses.
///
/// Mastodon escapes only `& < > " '` in what it writes; remote servers' HTML is sanitized but may keep other named
/// references, so the common ones are known. An unknown name is left as text, as browsers do.
enum CharacterReference {
    /// The text a reference at `start` (a `&`) stands for and how many scalars it spans; nil when it is none.
    static func decode(_ input: [Unicode.Scalar], at start: Int, inAttribute: Bool) -> (String, Int)? {
        guard start + 1 < input.count else { return nil }
        return input[start + 1] == "#" ? numeric(input, at: start) : named(input, at: start, inAttribute: inAttribute)
    }

    private static func numeric(_ input: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        var index = start + 2
        let isHex = index < input.count && (input[index] == "x" || input[index] == "X")
        if isHex { index += 1 }
        var value: UInt32 = 0
        let digitsStart = index
        while index < input.count, let digit = Int(String(input[index]), radix: isHex ? 16 : 10) {
            value = min(value &* (isHex ? 16 : 10) &+ UInt32(digit), 0x11_0000)
            index += 1
        }
        guard index > digitsStart else { return nil }
        if index < input.count, input[index] == ";" { index += 1 }
        return (String(scalar(for: value)), index - start)
    }

    /// What a numeric reference stands for: the standard's replacements for C1 controls written as Windows-1252
    /// and U+FFFD for what is not a character.
    private static func scalar(for value: UInt32) -> Character {
        if let replacement = windows1252[value] { return Character(Unicode.Scalar(replacement)!) }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return Character(scalar)
    }

    private static func named(_ input: [Unicode.Scalar], at start: Int, inAttribute: Bool) -> (String, Int)? {
        var name = ""
        var index = start + 1
        while index < input.count, index - start <= longestName,
            input[index].properties.isAlphabetic || ("0"..."9").contains(input[index])
        {
            name.unicodeScalars.append(input[index])
            index += 1
        }
        let hasSemicolon = index < input.count && input[index] == ";"
        if hasSemicolon, let text = names[name] { return (text, index + 1 - start) }
        // Without `;` only the legacy names count, and in an attribute not before `=` or an alphanumeric (a URL's
        // `&copy=1` stays as written).
        guard let legacy = legacyNames.first(where: { name.hasPrefix($0) }) else { return nil }
        let next = start + 1 + legacy.count
        if inAttribute, next < input.count,
            input[next] == "=" || input[next].properties.isAlphabetic || ("0"..."9").contains(input[next])
        {
            return nil
        }
        return (names[legacy]!, legacy.count + 1)
    }

    private static let names: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "shy": "\u{AD}",
        "copy": "©", "reg": "®", "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "bull": "•",
        "middot": "·", "lsquo": "‘", "rsquo": "’", "sbquo": "‚", "ldquo": "“", "rdquo": "”", "bdquo": "„",
        "laquo": "«", "raquo": "»", "times": "×", "divide": "÷", "deg": "°", "plusmn": "±", "para": "¶",
        "sect": "§", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "larr": "←", "rarr": "→", "uarr": "↑",
        "darr": "↓", "hearts": "♥", "zwj": "\u{200D}", "zwnj": "\u{200C}", "ensp": "\u{2002}", "emsp": "\u{2003}",
        "thinsp": "\u{2009}", "iexcl": "¡", "iquest": "¿", "eacute": "é", "egrave": "è", "aacute": "á",
        "agrave": "à", "uuml": "ü", "ouml": "ö", "auml": "ä", "szlig": "ß", "ccedil": "ç", "ntilde": "ñ",
    ]

    /// Names the standard also reads without `;`, longest first so `&nbsp` is not read as `&nb…`.
    private static let legacyNames = ["nbsp", "quot", "copy", "amp", "reg", "lt", "gt"]

    private static let longestName = 8

    private static let windows1252: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
        0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018,
        0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC,
        0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A, 0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
    ]
}
