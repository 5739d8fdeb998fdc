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

/// A number of things, the noun in the singular for one: "1 duplicate", "0 duplicates", "12,345 duplicates".
package func counted(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(grouped(count)) \(noun)s"
}
