import HTTPExchange
import Testing

/// A failed connection in words for people, whichever network's client says it: never a type's name or an error code
/// (issue 55: "DNS error: SocketAddressError.UnknownHost: Name or service not known (error -2)").
@Suite struct TransportSentenceTests {
    struct Described: Error, CustomStringConvertible {
        let description: String
    }

    @Test(arguments: [
        (
            "DNS error: SocketAddressError.UnknownHost: Name or service not known (error -2) for host mastodon.social, "
                + "port 443", "the name does not resolve; check the address or the network"
        ),
        ("connectionRefused", "the connection was refused; check the address and that the service is running"),
        (
            "NIOSSLError.handshakeFailed(BoringSSL error)",
            "the secure connection failed; check the address and this computer's clock"
        ),
        ("SomethingElse.internalDetail(code: 7)", "the connection failed; check the address or the network"),
    ])
    func failuresAreSaidWithoutInternals(text: String, sentence: String) {
        #expect(HTTPExchange.reason(Described(description: text)) == sentence)
    }
}
