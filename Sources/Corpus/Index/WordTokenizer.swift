/// Cuts text into the words a search matches, the same way for what is indexed and what is typed.
///
/// Words are runs of letters and digits, lower-cased with Unicode's case mapping. Chinese and Japanese are written
/// without spaces, so each ideograph or kana is a word of its own, and a typed word of several becomes a phrase:
/// `東京` finds `…東京…` but not `東…京`. Each emoji (with its modifiers and joiners) is a word too, so emoji can be
/// searched for. Everything else separates words.
struct WordTokenizer {
    private(set) var words: [String] = []
    private var word = String.UnicodeScalarView()
    private var wordIsEmoji = false
    private var previous: Unicode.Scalar = " "

    static func words(in text: String) -> [String] {
        var tokenizer = WordTokenizer()
        for scalar in text.unicodeScalars { tokenizer.add(scalar) }
        tokenizer.endWord()
        return tokenizer.words
    }

    private mutating func add(_ scalar: Unicode.Scalar) {
        switch ScalarKind(scalar) {
        case .letter:
            if wordIsEmoji { endWord() }
            if scalar.isASCII {
                word.append(Self.lowercased(scalar))
            } else {
                word.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        case .ideograph:
            endWord()
            words.append(String(scalar))
        case .emojiStart:
            if !continuesEmoji(with: scalar) { endWord() }
            word.append(scalar)
            wordIsEmoji = true
        case .emojiComponent:
            if wordIsEmoji { word.append(scalar) } else { endWord() }
        case .mark:
            if !word.isEmpty { word.append(scalar) }
        case .separator:
            endWord()
        }
        previous = scalar
    }

    private mutating func endWord() {
        if !word.isEmpty { words.append(String(word)) }
        word = String.UnicodeScalarView()
        wordIsEmoji = false
    }

    /// After a zero-width joiner, or as the second half of a flag, a pictograph belongs to the emoji before it.
    private func continuesEmoji(with scalar: Unicode.Scalar) -> Bool {
        guard wordIsEmoji else { return false }
        let indicators: ClosedRange<UInt32> = 0x1F1E6...0x1F1FF
        let pairsFlag =
            indicators.contains(previous.value) && indicators.contains(scalar.value)
            && word.count % 2 == 1
        return previous == "\u{200D}" || pairsFlag
    }

    private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(UInt8(scalar.value) + 32) : scalar
    }
}

/// What a scalar is to the tokenizer.
private enum ScalarKind {
    case letter, ideograph, emojiStart, emojiComponent, mark, separator

    init(_ scalar: Unicode.Scalar) {
        if scalar.isASCII {
            self =
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                ? .letter : .separator
            return
        }
        let properties = scalar.properties
        if properties.isIdeographic || Self.isKana(scalar) {
            self = .ideograph
        } else if properties.isAlphabetic || properties.numericType != nil {
            self = .letter
        } else if Self.isEmojiComponent(scalar) {
            self = .emojiComponent
        } else if properties.isEmojiPresentation || (properties.isEmoji && scalar.value > 0xFF) {
            self = .emojiStart
        } else if [.nonspacingMark, .spacingMark, .enclosingMark].contains(properties.generalCategory) {
            self = .mark
        } else {
            self = .separator
        }
    }

    private static func isKana(_ scalar: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(scalar.value) || (0x31F0...0x31FF).contains(scalar.value)
            || (0xFF66...0xFF9F).contains(scalar.value)
    }

    /// Joiners, variation selectors, skin tones and tag characters: parts of an emoji, never one alone.
    private static func isEmojiComponent(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\u{200D}" || scalar == "\u{FE0F}" || scalar == "\u{20E3}"
            || (0x1F3FB...0x1F3FF).contains(scalar.value) || (0xE0020...0xE007F).contains(scalar.value)
    }
}
