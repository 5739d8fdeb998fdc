/// A parsed JSON value as decoders read it: members by name, elements in order, text.
///
/// A `JSONValue` tree and a `JSONTapeValue` answer the same for the same JSON, so a decoder written against this
/// protocol reads either: the tree where anything needs mending or reporting, the tape where speed matters.
package protocol JSONNode {
    associatedtype Elements: Collection<Self>

    /// An object's member of that name (the last one, when a name repeats); nil for anything else.
    subscript(key: StaticString) -> Self? { get }
    /// An array's elements in order; nil for anything else.
    var array: Elements? { get }
    /// The text of a string, or the literal of a number (ids come both ways).
    var string: String? { get }
    /// That text as a whole number, as `Int(_:)` reads it.
    var int: Int? { get }
}

extension JSONNode {
    package var int: Int? { string.flatMap { Int($0) } }

    package var double: Double? { string.flatMap { Double($0) } }

    /// A non-empty string, or nil: APIs send `""` and `null` for "none".
    package var nonEmptyString: String? {
        guard let text = string, !text.isEmpty else { return nil }
        return text
    }
}
