/// Something wrong with a file, or something in it that holds no posts: where, and what.
public struct DecodingProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public let file: String
    /// 1-based; nil when the problem is with the file as a whole.
    public let line: Int?
    public let message: String

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}
