/// FNV-1a, 64 bits: the same value for the same bytes in every process and on every machine (Swift's `Hasher` is
/// seeded per process), for what must stay put across runs — an avatar's colour, a user's id, an asset's name, a
/// feed's `ETag`.
package enum StableHash {
    package static func of(_ text: String) -> UInt64 {
        of(bytes: text.utf8)
    }

    package static func of(bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        // FNV's low bits mix poorly for short inputs; one avalanche step fixes that.
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        return hash ^ (hash >> 33)
    }

    /// As 16 hex digits, for names and tags.
    package static func hex(of bytes: some Sequence<UInt8>) -> String {
        let digits = String(of(bytes: bytes), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
