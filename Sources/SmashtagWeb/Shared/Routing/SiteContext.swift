import AppStore
import Hummingbird
import NIOCore
import Team

/// What a route is given beside the request: Hummingbird's own context, the query string read once, as a form
/// (`PathCheck` decodes it before any route runs, refusing a broken one with a 400), and who is asking
/// (`CallerCheck` finds them before any route runs).
struct SiteContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The request's query string, decoded; empty until `PathCheck` has read it.
    var queryString = QueryString.empty
    /// Who is asking; the owner until `CallerCheck` has looked.
    var caller = Caller.owner
    /// A token or cookie the store refused: the route says so (401), once the address and method are known to be
    /// served — a method the address does not take is a 405 whoever asks.
    var credentialRefusal: Refusal?
    /// Where the request came from, as `Client` believes it: the connection's address, or behind a trusted proxy the
    /// address it names.
    var client: Client
    /// The address the connection came from.
    let peerAddress: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        client = Client(address: peerAddress ?? Client.inProcess, isHTTPS: false)
    }
}

extension SiteContext {
    /// Whose Recents the caller's searches go into; a 401 for someone signed out, whose searches are kept nowhere.
    func holder() throws -> Holder {
        guard let holder = caller.holder else { throw TeamRefusal(.signInNeeded) }
        return holder
    }
}
