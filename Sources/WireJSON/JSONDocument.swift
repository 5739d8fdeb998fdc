extension JSONValue {
    /// A body that is one JSON document (an API answer), read whole: unlike `JSONItemReader`, a top-level array is
    /// one value. Throws a sentence naming the line when it is not JSON or has more after the value.
    package static func document(_ bytes: [UInt8]) throws(JSONDocumentError) -> JSONValue {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONSyntaxError) {
                let value = try parser.parseValue()
                parser.skipWhitespace()
                guard parser.currentByte == nil else { throw parser.error("the end of the document") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            let line = bytes.prefix(error.offset).count { $0 == UInt8(ascii: "\n") } + 1
            throw JSONDocumentError(line: line, message: "expected \(error.expected)")
        }
    }
}

/// Why a body is not one JSON document, and on which line.
package struct JSONDocumentError: Error, Sendable, CustomStringConvertible {
    package let line: Int
    package let message: String

    package var description: String { "line \(line): \(message)" }
}
