import Posts
import WireJSON

/// Notes about content that holds no posts, one line per kind rather than one per item.
struct SkippedNotes {
    private var notes: [String: (first: DecodingProblem, count: Int)] = [:]
    private var order: [String] = []

    mutating func add(_ note: DecodingProblem) {
        if let existing = notes[note.message] {
            notes[note.message] = (existing.first, existing.count + 1)
        } else {
            notes[note.message] = (note, 1)
            order.append(note.message)
        }
    }

    func report() {
        for message in order {
            guard let (first, count) = notes[message] else { continue }
            let more = count > 1 ? " (\(count) times)" : ""
            StandardError.write("smashtag: note: \(first)\(more)")
        }
    }
}
