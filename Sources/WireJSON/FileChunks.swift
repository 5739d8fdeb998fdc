#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file, closed when the last reader lets go of it.
package final class OpenFile: Sendable {
    package let path: String
    package let descriptor: Int32
    /// A regular file, which can be read again from any offset; a pipe or a FIFO (`<(zcat …)`) cannot.
    package let isRegular: Bool

    package init(path: String) throws(DecodingProblem) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw DecodingProblem(path: path, errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else {
            let code = status.st_mode & S_IFMT == S_IFDIR ? EISDIR : errno
            close(descriptor)
            throw DecodingProblem(path: path, errno: code)
        }
        self.path = path
        self.descriptor = descriptor
        isRegular = status.st_mode & S_IFMT == S_IFREG
    }

    deinit { close(descriptor) }

    /// Appends up to `count` bytes, from where the file is or from `offset` (leaving it where it is); returns how
    /// many were read (0 at the end of the file).
    package func append(to bytes: inout [UInt8], upTo count: Int, at offset: Int? = nil) throws(DecodingProblem) -> Int
    {
        let received = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
            let received = readOnce(into: buffer, at: offset)
            if received > 0 { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<received])) }
            return received
        }
        guard received >= 0 else { throw DecodingProblem(path: path, errno: errno) }
        return received
    }

    /// Reads up to `buffer.count` bytes into `buffer`, as `append` does; returns how many (0 at the end of the
    /// file), or throws.
    package func receive(
        into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int?
    ) throws(DecodingProblem)
        -> Int
    {
        let received = readOnce(into: buffer, at: offset)
        guard received >= 0 else { throw DecodingProblem(path: path, errno: errno) }
        return received
    }

    /// How many bytes were read, or -1 with `errno` set.
    private func readOnce(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int?) -> Int {
        var received: Int
        repeat {
            received =
                if let offset { pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) } else {
                    read(descriptor, buffer.baseAddress, buffer.count)
                }
        } while received < 0 && errno == EINTR
        return received
    }

    /// The whole rest of the file.
    package func readAll() throws(DecodingProblem) -> [UInt8] {
        var bytes: [UInt8] = []
        while try append(to: &bytes, upTo: 1 << 20) > 0 {}
        return bytes
    }
}

/// A file read a chunk at a time, for a reader whose memory must not grow with the file.
package struct FileChunks: RereadableChunks {
    package static let chunkSize = 4 << 20
    package let file: OpenFile
    /// Where the next chunk starts when reading again from an offset; nil when reading on from where the file is.
    private var offset: Int?

    package init(file: OpenFile) {
        self.file = file
    }

    package mutating func read(appendingTo bytes: inout [UInt8]) throws(DecodingProblem) -> Bool {
        let received = try file.append(to: &bytes, upTo: Self.chunkSize, at: offset)
        offset? += received
        return received > 0
    }

    package mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(DecodingProblem) -> Int {
        let received = try file.receive(into: buffer, at: offset)
        offset? += received
        return received
    }

    package func rereading(from offset: Int) -> (any ByteChunks)? {
        guard file.isRegular else { return nil }
        var again = FileChunks(file: file)
        again.offset = offset
        return again
    }
}

extension DecodingProblem {
    package init(path: String, errno code: Int32) {
        let reason =
            switch code {
            case ENOENT: "no such file"
            case EACCES: "permission denied"
            case EISDIR: "is a directory, not a file"
            default: String(cString: strerror(code)).lowercased()
            }
        self.init(file: path, line: nil, message: reason)
    }
}
