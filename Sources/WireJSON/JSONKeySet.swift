/// Member names compared as bytes, told apart by their length first: most names are by that alone, and the rest
/// are compared only with the names of their length.
package struct JSONKeySet: Sendable {
    /// The names shorter than 63 bytes, one after another, shortest first.
    private let bytes: [UInt8]
    /// Where the names of each length start in `bytes`; `starts[n + 1]` is where they end.
    private let starts: [Int]
    /// Bit n set when a name is n bytes long (n < 63).
    private let lengths: UInt64
    /// Names of 63 bytes or more, compared whole.
    private let longNames: [[UInt8]]

    package init(_ names: [[UInt8]]) {
        let short = names.filter { $0.count < 63 }.sorted { $0.count < $1.count }
        bytes = short.flatMap { $0 }
        var starts = Array(repeating: 0, count: 64)
        for name in short { starts[name.count + 1] += name.count }
        for length in 1..<starts.count { starts[length] += starts[length - 1] }
        self.starts = starts
        lengths = short.reduce(0) { $0 | 1 << UInt64($1.count) }
        longNames = names.filter { $0.count >= 63 }
    }

    package init(_ names: [String]) {
        self.init(names.map { Array($0.utf8) })
    }

    /// No names.
    package static let none = JSONKeySet([[UInt8]]())

    @inline(__always)
    func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = name.count
        if length == 0 { return lengths & 1 != 0 }
        if length >= 63 { return longNames.contains { $0.elementsEqual(name) } }
        guard lengths & 1 << UInt64(length) != 0 else { return false }
        return bytes.withUnsafeBufferPointer { all in
            var start = starts[length]
            while start < starts[length + 1] {
                if Self.equal(all.baseAddress! + start, name.baseAddress!, length) { return true }
                start += length
            }
            return false
        }
    }

    /// Compared eight bytes at a time, in line: names are short, and a call to `memcmp` cost more than comparing.
    @inline(__always)
    static func equal(_ one: UnsafePointer<UInt8>, _ other: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(one + index).loadUnaligned(as: UInt64.self)
            guard word == UnsafeRawPointer(other + index).loadUnaligned(as: UInt64.self) else { return false }
            index += 8
        }
        while index < count {
            guard one[index] == other[index] else { return false }
            index += 1
        }
        return true
    }
}
