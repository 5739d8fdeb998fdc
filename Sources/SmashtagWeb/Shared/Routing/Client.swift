import HTTPTypes
import Hummingbird

/// Where a request came from and whether over HTTPS. Behind a proxy every connection comes from the proxy, so its
/// `X-Forwarded-For` and `X-Forwarded-Proto` say it; they are believed only from the addresses `--trusted-proxy`
/// names, since anyone else could write them.
struct Client: Sendable, Hashable {
    /// The address: budgets and sign-in failures are counted by it, and the audit trail names it.
    let address: String
    /// Cookies get `Secure`.
    let isHTTPS: Bool

    /// This computer: the owner's Smashtag (no people added) answers only it as the owner, whatever address the server
    /// listens on or whichever proxy forwards. A request made inside this process (the router's tests) has no peer.
    var isThisComputer: Bool {
        address == Self.inProcess || address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    static let inProcess = "this process"

    /// The proxies whose forwarding headers are believed.
    struct Proxies: Sendable {
        let addresses: Set<String>

        func client(of headers: HTTPFields, peer: String?) -> Client {
            guard let peer, addresses.contains(peer) else {
                return Client(address: peer ?? Client.inProcess, isHTTPS: false)
            }
            // The proxy appends the address it saw last: the one nearest it is the one it vouches for.
            let forwarded = headers[.xForwardedFor]?.split(separator: ",").last
                .map { String($0.trimmingPrefix(" ")).trimmingSuffix(" ") }
            let address = forwarded.flatMap { $0.isEmpty ? nil : $0 } ?? peer
            return Client(address: address, isHTTPS: headers[.xForwardedProto]?.lowercased() == "https")
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
