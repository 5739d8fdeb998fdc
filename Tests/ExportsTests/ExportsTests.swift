import AppStore
import Exports
import Foundation
import Testing

/// What exports write for other tools: CSV cells a spreadsheet cannot run, GEXF that hostile text cannot break.
struct ExportsTests {
    @Test func aCSVCellIsQuotedWhenItMustBeAndNeverRunsAsAFormula() {
        #expect(
            CSV.row(["#swift", "12", "a,b", "say \"hi\"", "two\nlines"])
                == "#swift,12,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n")
        #expect(
            CSV.row(["=HYPERLINK(\"x\")", "+1+1", "-cmd", "@nasa", "\tx"])
                == "\"'=HYPERLINK(\"\"x\"\")\",'+1+1,'-cmd,'@nasa,'\tx\r\n")
        #expect(CSV.row(["-3", "+2.5", "0", "-", "-1.2.3"]) == "-3,+2.5,0,'-,'-1.2.3\r\n")
    }

    private let hostile = MentionNetwork(
        term: "<script>&\"'", options: NetworkOptions(),
        nodes: [
            MentionNetwork.Node(mention: "#a\"><x y='", kind: .hashtags, count: 3),
            MentionNetwork.Node(mention: "@=cmd|\u{1}", kind: .users, count: 2),
        ],
        edges: [MentionNetwork.Edge(source: 0, target: 1, weight: 2)])

    @Test func hostileMentionTextStaysTextInEveryFormat() {
        let gexf = NetworkFile.text(hostile, .gexf)
        #expect(gexf.contains("label=\"#a&quot;&gt;&lt;x y=&apos;\""))
        #expect(gexf.contains("label=\"@=cmd|\""), "a character XML cannot hold is left out")
        #expect(gexf.contains("for “&lt;script&gt;&amp;&quot;&apos;”"))
        #expect(!gexf.contains("<script") && !gexf.contains("\u{1}"))
        #expect(
            NetworkFile.text(hostile, .csv) == "source,target,weight\r\n\"#a\"\"><x y='\",'@=cmd|\u{1},2\r\n")
        let json = NetworkFile.text(hostile, .json)
        #expect(json.contains(##""source":"#a\"><x y='""##) && json.contains(#""kind":"user""#))
    }

    @Test func aTimelineMakesTheGraphDynamicWithASpellPerStep() {
        let start = MentionNetwork.Spell(
            start: TimeWindowDates.day(2024, 12, 23), end: TimeWindowDates.day(2024, 12, 24), value: 2)
        let network = MentionNetwork(
            term: "t", options: NetworkOptions(timeline: .day), nodes: hostile.nodes, edges: hostile.edges,
            nodeSpells: [[start], [start]], edgeSpells: [[start]])
        let gexf = NetworkFile.text(network, .gexf)
        #expect(gexf.contains("mode=\"dynamic\" timeformat=\"date\""))
        #expect(gexf.contains("<spell start=\"2024-12-23\" end=\"2024-12-24\"/>"))
        #expect(gexf.contains("<attvalue for=\"posts\" value=\"2\" start=\"2024-12-23\" end=\"2024-12-24\"/>"))
        #expect(!NetworkFile.text(hostile, .gexf).contains("spell"))
    }

    @Test func downloadNamesKeepOnlyLettersAndDigitsOfTheTerm() {
        #expect(NetworkFile.name(hostile, .gexf) == "network-script-all.gexf")
        #expect(
            PopularityFile.name(PopularityTable(term: "#Ünï OR @x/../", sections: []))
                == "popularity-ÜnïORx-all.csv")
    }
}

enum TimeWindowDates {
    static func day(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }
}
