#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// xoshiro256** seeded through SplitMix64: the same seed gives the same numbers on every machine and in every
/// process, which the system generator and the standard library's `random(in:using:)` helpers do not promise.
package struct SeededRandom: Sendable, RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    package init(seed: UInt64) {
        var mixer = SplitMix64(state: seed)
        state = (mixer.next(), mixer.next(), mixer.next(), mixer.next())
    }

    package mutating func next() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    /// In `0..<bound` (Lemire's multiply-shift; the bias is below 2⁻⁵⁰ for the small bounds used here).
    package mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// In `0..<1`, with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    mutating func element<T>(of array: [T]) -> T {
        array[below(array.count)]
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}

/// Spreads a seed over xoshiro's four words, as its authors recommend.
private struct SplitMix64 {
    var state: UInt64

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Draws ranks 0..<count with probability ∝ 1/(rank+1)^exponent: a few hashtags everyone uses, a long tail.
struct ZipfTable: Sendable {
    private let cumulative: [Double]

    init(count: Int, exponent: Double) {
        var total = 0.0
        var cumulative: [Double] = []
        cumulative.reserveCapacity(count)
        for rank in 1...max(count, 1) {
            total += 1 / pow(Double(rank), exponent)
            cumulative.append(total)
        }
        self.cumulative = cumulative.map { $0 / total }
    }

    func rank(_ random: inout SeededRandom) -> Int {
        let target = random.unit()
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A discrete choice by weights, e.g. how many images a tweet has.
struct WeightedChoice: Sendable {
    private let cumulative: [Double]

    init(_ weights: [Double]) {
        let total = weights.reduce(0, +)
        var running = 0.0
        cumulative = weights.map {
            running += $0
            return running / total
        }
    }

    func pick(_ random: inout SeededRandom) -> Int {
        let target = random.unit()
        return cumulative.firstIndex { target < $0 } ?? cumulative.count - 1
    }
}
