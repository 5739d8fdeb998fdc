import Hummingbird
import Logging
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A zip sent while it is made: the maker reports after each entry how many of the file's first bytes are final,
/// and the body sends them at once, the rest when the maker is done. So the download starts as soon as the first
/// (small) entry is in, not when the last one is. The file is deleted when the body ends, sent or not.
struct ZipStream: Sendable {
    let file: String
    let logger: Logger

    /// The body; `make` writes the zip into `file`, calling its argument with each final length.
    func body(
        _ make: @escaping @Sendable (@escaping @Sendable (UInt64?) -> Void) async throws -> Int
    ) -> ResponseBody {
        let (lengths, continuation) = AsyncThrowingStream.makeStream(of: UInt64?.self)
        let maker = Task {
            do {
                _ = try await make { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return ResponseBody { [file, logger] writer in
            defer {
                maker.cancel()
                unlink(file)
            }
            var sent: UInt64 = 0
            var reader: ZipReader?
            do {
                for try await length in lengths {
                    // Opened once the maker has made the file (its first entry is in).
                    reader = try reader ?? ZipReader(file)
                    if let length, let reader { sent = try await reader.send(from: sent, to: length, &writer) }
                }
                sent = try await (reader ?? ZipReader(file)).send(from: sent, to: nil, &writer)
                try await writer.finish(nil)
            } catch {
                logger.error("A dataset's zip was cut off after \(sent) bytes: \(error)")
                throw error
            }
        }
    }
}

/// The zip's file, open for reading while it is sent: one descriptor for the whole download, closed with it.
private final class ZipReader: Sendable {
    private static let chunk = 65_536
    let file: String
    private let descriptor: Int32

    init(_ file: String) throws {
        self.file = file
        descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ZipStreamError(file: file, code: errno) }
    }

    deinit { close(descriptor) }

    /// Sends the file's bytes from `start` up to `end` (its end when nil), read on NIO's thread pool; returns where
    /// it stopped.
    func send(from start: UInt64, to end: UInt64?, _ writer: inout any ResponseBodyWriter) async throws -> UInt64 {
        var offset = start
        while end.map({ offset < $0 }) ?? true {
            let length = end.map { Int(min($0 - offset, UInt64(Self.chunk))) } ?? Self.chunk
            let bytes = try await NIOThreadPool.singleton.runIfActive { [offset] in try self.read(at: offset, length) }
            if bytes.isEmpty { break }
            try await writer.write(ByteBuffer(bytes: bytes))
            offset += UInt64(bytes.count)
        }
        return offset
    }

    private func read(at offset: UInt64, _ length: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(offset)) }
        guard count >= 0 else { throw ZipStreamError(file: file, code: errno) }
        return Array(bytes.prefix(count))
    }
}

/// The zip being sent could not be read.
struct ZipStreamError: Error, CustomStringConvertible {
    let file: String
    let code: Int32

    var description: String { "cannot read “\(file)”: \(String(cString: strerror(code)))" }
}
