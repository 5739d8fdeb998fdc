/// A parsed JSON value.
///
/// Numbers keep their literal text: tweet ids exceed 2^53, and Twitter archives write every number as a string,
/// so readers ask for `string`, `int` or `double` and get the same answer either way.
package enum JSONValue: Sendable {
    case object(JSONObject)
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    package subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    package var object: JSONObject? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The literal `true`; anything else (a string "true" too) is not.
    package var isTrue: Bool {
        if case .bool(true) = self { true } else { false }
    }

    package var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The text of a string, or the literal of a number (ids come both ways).
    package var string: String? {
        switch self {
        case .string(let text), .number(let text): text
        default: nil
        }
    }

    /// What kind of value it is, for messages: "an object", "a string"…
    package var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

extension JSONValue: JSONNode {
    package subscript(key: StaticString) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }
}

/// An object's members in document order.
///
/// Looked up by scanning, not hashing: a tweet's objects have a dozen keys and are each read a few times, and
/// hashing every key of every object was a fifth of all decoding time.
package struct JSONObject: Sendable {
    private(set) var members: [Member] = []

    /// A struct, not a tuple: an array of tuples looks its type up at run time on every allocation and release.
    struct Member: Sendable {
        let key: String
        let value: JSONValue
    }

    /// The last member of that name wins, as in most parsers. Walked by index: `last(where:)` copied every member it
    /// passed (a retain and a release each), and lookups are most of what decoders do.
    package subscript(key: String) -> JSONValue? {
        var index = members.endIndex
        while index > members.startIndex {
            index -= 1
            if members[index].key == key { return members[index].value }
        }
        return nil
    }

    /// The same, for a name the code spells.
    package subscript(key: StaticString) -> JSONValue? {
        key.withUTF8Buffer { name in
            var index = members.endIndex
            while index > members.startIndex {
                index -= 1
                let utf8 = members[index].key.utf8
                if utf8.count == name.count, utf8.elementsEqual(name) { return members[index].value }
            }
            return nil
        }
    }

    package var keys: [String] { members.map(\.key) }

    package var values: [JSONValue] { members.map(\.value) }

    package mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    mutating func reserveCapacity(_ count: Int) {
        members.reserveCapacity(count)
    }
}
