/// FNV-1a: the same value for the same text in every process (Swift's `Hasher` is seeded per process), for things
/// that must stay put across runs — an avatar's colour, a user's id, a media link.
package enum StableHash {
    package static func of(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        // FNV's low bits mix poorly for short inputs; one avalanche step fixes that.
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        return hash ^ (hash >> 33)
    }
}
