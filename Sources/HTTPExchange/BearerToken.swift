/// A secret: it prints as `<redacted>`, so it never reaches a log or an error message by accident.
public struct BearerToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    package let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}
