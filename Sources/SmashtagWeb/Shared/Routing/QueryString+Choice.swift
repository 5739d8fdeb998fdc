import Hummingbird

extension QueryString {
    /// One of an option's values (`format=csv`): `fallback` when it is absent, a 400 with `sentence` when it is
    /// none of them.
    func choice<Value: RawRepresentable>(
        _ name: String, default fallback: Value, else sentence: String
    ) throws -> Value where Value.RawValue == String {
        guard let text = self[name] else { return fallback }
        guard let value = Value(rawValue: text) else { throw RefusedRequest(.badRequest, sentence) }
        return value
    }
}
