/// Numbers as people read them: 12,345.
package func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return number < 0 ? "-" + result : result
}

/// "1 post", "12,345 posts".
package func postCount(_ count: Int) -> String {
    counted(count, "post")
}

/// A number of things, the noun in the singular for one: "1 duplicate", "0 duplicates", "12,345 duplicates", "3
/// replies" (a consonant and `y` make `ies`; "days" keeps its `y`).
package func counted(_ count: Int, _ noun: String) -> String {
    guard count != 1 else { return "1 \(noun)" }
    let consonantY = noun.hasSuffix("y") && !"aeiou".contains(noun.dropLast().last ?? "a")
    return "\(grouped(count)) " + (consonantY ? noun.dropLast() + "ies" : noun + "s")
}
