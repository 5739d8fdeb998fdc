import AppStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SmashtagWeb

/// The Network page and its exports through the whole router, the Popularity page's windows, and the drawing's rules:
/// the same data draws the same picture, labels never overlap, hostile text stays text.
@Suite struct NetworkPageTests {
    private static let network = "/recents/popularity/network?term=\(RouteTests.encodedTerm)"
    private static let export = "/api/popularity/network?term=\(RouteTests.encodedTerm)"

    private func searched(_ client: some TestClientProtocol) async throws {
        _ = try await client.execute(uri: "/search?q=\(RouteTests.encodedTerm)", method: .get)
    }

    @Test func theNetworkPageDrawsTheTermsMentionsWithATableAndExports() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            try await searched(client)
            let page = try await client.execute(uri: Self.network, method: .get)
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.contains("<h1>Network: #xsstest</h1>"))
            #expect(html.components(separatedBy: "<circle class=\"hit\"").count == 3, "#xsstest and @mallory")
            #expect(html.contains("aria-label=\"@mallory: 2 posts\""))
            #expect(html.contains("<caption>Named together</caption>"))
            #expect(html.contains("<td>2</td></tr>"), "both posts name both")
            #expect(html.contains("href=\"/api/popularity/network?term=%23xsstest&amp;top=30&amp;format=gexf\""))
            #expect(html.contains("href=\"/recents/search?q=%40mallory%20OR%20from%3Amallory"))
        }
    }

    @Test func exportsAreFilesOfTheirFormatNamedForTheTerm() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            try await searched(client)
            for (format, type) in [
                ("json", "application/json; charset=utf-8"), ("csv", "text/csv; charset=utf-8"),
                ("gexf", "application/gexf+xml; charset=utf-8"),
            ] {
                let response = try await client.execute(uri: Self.export + "&format=\(format)", method: .get)
                #expect(response.status == .ok && response.headers[.contentType] == type)
                #expect(
                    response.headers[.contentDisposition]
                        == "attachment; filename*=UTF-8''network-xsstest-all.\(format)")
            }
            let csv = try await client.execute(uri: Self.export + "&format=csv", method: .get)
            #expect(csv.text == "source,target,weight\r\n#xsstest,'@mallory,2\r\n")
            let timed = try await client.execute(uri: Self.export + "&format=gexf&by=week", method: .get)
            #expect(timed.text.contains("<spell start=\"2025-02-24\" end=\"2025-03-03\"/>"))
            let table = try await client.execute(
                uri: "/api/popularity?term=\(RouteTests.encodedTerm)&window=30d&format=csv", method: .get)
            #expect(table.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(table.text.hasPrefix("mention,kind,count,previous,change,partners\r\n"))
        }
    }

    @Test func aBadOptionOrATermNotInRecentsIsOneSentence() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            try await searched(client)
            for (query, status, sentence) in [
                ("&window=week", HTTPResponse.Status.badRequest, "window must be 24h, 7d, 30d or all."),
                ("&top=0", .badRequest, "top must be a number from 1 to 500."),
                ("&min=x", .badRequest, "min must be a number of posts, 1 or more."),
                ("&format=xml", .badRequest, "format must be json, csv or gexf."),
                ("&by=month&format=gexf", .badRequest, "by must be day or week."),
            ] {
                let response = try await client.execute(uri: Self.export + query, method: .get)
                #expect(response.status == status && response.text == "{\"error\":\"\(sentence)\"}", "\(query)")
            }
            let page = try await client.execute(uri: Self.network + "&top=500", method: .get)
            #expect(page.status == .badRequest && page.text.contains("top must be a number from 1 to 100."))
            let missing = try await client.execute(uri: "/recents/popularity/network?term=nothing", method: .get)
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("“nothing” is not in Recents: networks are made from the posts fetched"))
            let window = try await client.execute(
                uri: "/recents/popularity?term=\(RouteTests.encodedTerm)&window=1y", method: .get)
            #expect(window.status == .badRequest && window.text.contains("window must be 24h, 7d, 30d or all."))
        }
    }

    @Test func thePopularityPageOffersWindowsAndLinksItsNetwork() async throws {
        let (app, _) = try await WebFixture.application()
        try await app.test(.router) { client in
            try await searched(client)
            let html = try await client.execute(
                uri: "/recents/popularity?term=\(RouteTests.encodedTerm)&window=7d", method: .get
            ).text
            #expect(
                html.contains("<a href=\"/recents/popularity?term=%23xsstest&amp;window=7d\" aria-current=\"page\""))
            #expect(
                html.contains("data-events=\"/api/popularity/events?term=%23xsstest&amp;rows=recents&amp;window=7d\""))
            #expect(html.contains("/recents/popularity/network?term=%23xsstest&amp;window=7d&amp;top=30"))
            let all = try await client.execute(
                uri: "/recents/popularity?term=\(RouteTests.encodedTerm)", method: .get
            ).text
            #expect(all.contains("<span class=\"partners\">with <span class=\"m-user\">@mallory</span></span>"))
        }
    }

    /// A network of 100 nodes with long names of every kind of letter, many edges.
    private static var crowded: MentionNetwork {
        let names: [String] = (0..<100).map { index in
            switch index % 3 {
            case 0: "#東京の夜\(index)"
            case 1: "@WWWMMMwide_user\(index)"
            default: "#tag\(index)"
            }
        }
        let nodes: [MentionNetwork.Node] = names.enumerated().map { index, name in
            MentionNetwork.Node(
                mention: name, kind: name.hasPrefix("@") ? .users : .hashtags, count: 1000 / (index + 1))
        }
        var edges: [MentionNetwork.Edge] = []
        for one in 0..<100 {
            for other in [(one + 1) % 100, (one * 7 + 3) % 100] where other != one {
                edges.append(
                    MentionNetwork.Edge(source: min(one, other), target: max(one, other), weight: 1 + (one + other) % 9)
                )
            }
        }
        return MentionNetwork(term: "t", options: NetworkOptions(top: 100), nodes: nodes, edges: edges)
    }

    @Test func theSameNetworkDrawsTheSamePictureWithNoLabelsOverlappingInsideTheDrawing() {
        let layout = NetworkLayout(Self.crowded)
        #expect(layout == NetworkLayout(Self.crowded))
        let boxes = layout.labels.compactMap { $0 }.map { label in
            (
                left: label.x, right: label.x + label.width, top: label.y - NetworkLayout.fontSize * 0.8,
                bottom: label.y + NetworkLayout.fontSize * 0.25
            )
        }
        #expect(boxes.count >= 15, "the most mentioned are labelled")
        #expect(layout.labels.first! != nil, "the most mentioned first")
        for (index, box) in boxes.enumerated() {
            #expect(box.left >= 0 && box.right <= NetworkLayout.width && box.top >= 0)
            #expect(box.bottom <= NetworkLayout.height)
            for other in boxes[(index + 1)...] {
                #expect(
                    !(box.left < other.right && other.left < box.right && box.top < other.bottom
                        && other.top < box.bottom))
            }
        }
        for (point, radius) in zip(layout.positions, layout.radii) {
            #expect(point.x - radius >= 0 && point.x + radius <= NetworkLayout.width)
            #expect(point.y - radius >= 0 && point.y + radius <= NetworkLayout.height)
        }
    }

    @Test func hostileMentionTextStaysTextInTheDrawingAndTheTable() {
        let network = MentionNetwork(
            term: "<b>t</b>", options: NetworkOptions(),
            nodes: [
                MentionNetwork.Node(mention: "#\"><script>alert(1)</script>", kind: .hashtags, count: 3),
                MentionNetwork.Node(mention: "@x' onmouseover='alert(2)", kind: .users, count: 2),
            ],
            edges: [MentionNetwork.Edge(source: 0, target: 1, weight: 2)])
        let html = String(decoding: NetworkPageView(network, tab: .recents, back: nil).rendered().bytes, as: UTF8.self)
        #expect(!html.contains("<script>") && !html.contains("<b>t</b>") && !html.contains("' onmouseover='"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("aria-label=\"@x&#39; onmouseover=&#39;alert(2): 2 posts\""))
    }
}
