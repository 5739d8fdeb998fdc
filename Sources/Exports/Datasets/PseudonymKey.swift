#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The secret pseudonyms are made with: 32 random bytes, kept as hex in `pseudonym-key` in the data directory (mode
/// 0600), made on first use. Two exports from the same data directory give the same person the same pseudonym;
/// deleting the file (or using another directory) starts a new, unrelated set.
public enum PseudonymKey {
    public static let fileName = "pseudonym-key"

    /// The secret in `directory`, made if there is none. Made whole under a temporary name and linked into place,
    /// so two exports starting together agree on one secret.
    public static func secret(in directory: String) throws(DatasetError) -> [UInt8] {
        let path = directory + "/" + fileName
        if let secret = try read(path) { return secret }
        var random = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        let temporary = OutputFile.temporaryName(for: path)
        unlink(temporary)
        let file = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw .secret(path, reason: "cannot create it: \(DatasetError.reason(errno))") }
        let text = Array((Hex.encode(secret) + "\n").utf8)
        let written = text.withUnsafeBytes { write(file, $0.baseAddress, $0.count) } == text.count && fsync(file) == 0
        close(file)
        defer { unlink(temporary) }
        guard written else { throw .secret(path, reason: "cannot write it: \(DatasetError.reason(errno))") }
        // link(2) fails if another process made the secret first; then that one is used.
        _ = link(temporary, path)
        guard let made = try read(path) else { throw .secret(path, reason: "it vanished as it was made") }
        return made
    }

    private static func read(_ path: String) throws(DatasetError) -> [UInt8]? {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw .secret(path, reason: "cannot open it: \(DatasetError.reason(errno))")
        }
        defer { close(file) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let count = bytes.withUnsafeMutableBytes { systemRead(file, $0.baseAddress!, $0.count) }
        let text = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self).trimmingSuffixNewlines
        guard text.count == 64, let secret = decode(hex: text) else {
            throw .secret(path, reason: "it should hold 64 hexadecimal digits; delete it to make a new one")
        }
        return secret
    }

    private static func decode(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}

extension String {
    fileprivate var trimmingSuffixNewlines: String {
        var text = Substring(self)
        while text.last == "\n" || text.last == "\r" { text = text.dropLast() }
        return String(text)
    }
}

/// The C library's `read`, which a local name would hide.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
