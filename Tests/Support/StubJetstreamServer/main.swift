import Foundation
import StubJetstream

// `stub-jetstream EVENTS.jsonl [PACE-MS]`: the tests' stand-in Jetstream as a process, for the browser tests. It
// serves the file's events (one JSON object per line, each with its `time_us`) from the cursor each client asks
// for, one every PACE-MS milliseconds, and prints the address to connect to.
let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: stub-jetstream EVENTS.jsonl [PACE-MS]\n".utf8))
    exit(2)
}
let events = text.split(separator: "\n").compactMap { line -> (time: Int64, json: String)? in
    let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    return (object?["time_us"] as? NSNumber).map { (time: $0.int64Value, json: String(line)) }
}
let pace = arguments.dropFirst().first.flatMap(Int.init) ?? 0
try await StubJetstream(events: events, pace: .milliseconds(pace)).run { url in
    print("listening at \(url)")
    fflush(nil)
    try await Task.sleep(for: .seconds(86_400))
}
