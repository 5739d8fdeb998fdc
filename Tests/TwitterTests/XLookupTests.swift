import Foundation
import HTTPExchange
import Posts
import StubXAPI
import Testing

@testable import Twitter

/// Issue 51: which kept posts X still has, 100 ids a lookup; its `errors` as recorded answers word them.
struct XLookupTests {
    @Test func idsTheLookupCouldNotFindAreGone() async throws {
        try await StubXAPI.run { stub, port in
            stub.enqueue(
                .init(
                    json: """
                        {"data":[{"id":"1574183626685947000","text":"still here"}],"errors":[\
                        {"value":"1574183626685947904",\
                        "detail":"Could not find tweet with ids: [1574183626685947904].",\
                        "title":"Not Found Error","resource_type":"tweet","parameter":"ids",\
                        "resource_id":"1574183626685947904",\
                        "type":"https://api.twitter.com/2/problems/resource-not-found"},\
                        {"value":"1574183626685947111","detail":"Sorry, you are not authorized to see the Tweet.",\
                        "title":"Authorization Error","resource_type":"tweet","parameter":"ids",\
                        "resource_id":"1574183626685947111",\
                        "type":"https://api.twitter.com/2/problems/not-authorized-for-resource"}]}
                        """))
            let gone = try await XAPIClient.stub(port).gone(
                among: ["1574183626685947000", "1574183626685947904", "1574183626685947111", "not-an-id"])
            #expect(gone == ["1574183626685947904"], "a protected post is not a deleted one")
            let asked = try #require(stub.received.first)
            #expect(asked.path == "/2/tweets")
            #expect(asked.parameters == ["ids": "1574183626685947000,1574183626685947904,1574183626685947111"])
        }
    }

    @Test func aPageInsteadOfTheAPIDeletesNothing() async throws {
        #expect(throws: XAPIError.self) {
            try XPostLookup.gone(in: Array("<html>maintenance</html>".utf8), among: ["1"])
        }
        #expect(throws: XAPIError.self) { try XPostLookup.gone(in: Array("{}".utf8), among: ["1"]) }
    }
}
