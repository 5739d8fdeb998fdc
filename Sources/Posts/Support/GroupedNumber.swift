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
    count == 1 ? "1 post" : "\(grouped(count)) posts"
}
