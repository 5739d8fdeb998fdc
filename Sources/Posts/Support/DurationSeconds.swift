extension Duration {
    /// In seconds, for rates and for people: 1.5 for one and a half seconds.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
