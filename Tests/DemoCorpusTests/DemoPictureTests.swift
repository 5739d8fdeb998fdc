import DemoCorpus
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

struct DemoPictureTests {
    /// The root element's attributes, or nil when the document is not well-formed XML.
    private func rootAttributes(_ svg: String) -> [String: String]? {
        let parser = XMLParser(data: Data(svg.utf8))
        let delegate = RootRecorder()
        parser.delegate = delegate
        return parser.parse() && delegate.name == "svg" ? delegate.attributes : nil
    }

    @Test(arguments: [
        "/demo/images/0-1x1.svg", "/demo/images/17-3000x1000.svg", "/demo/images/999999999-1080x1920.svg",
        "/demo/images/42-8000x8000.svg",
    ])
    func imagesAreWellFormedAtTheirSize(path: String) throws {
        let svg = try #require(DemoPicture.svg(forPath: path))
        let attributes = try #require(rootAttributes(svg))
        let size = path.split(separator: "-").last!.dropLast(4).split(separator: "x").map(String.init)
        #expect(attributes["width"] == size[0] && attributes["height"] == size[1])
        #expect(attributes["viewBox"] == "0 0 \(size[0]) \(size[1])")
        #expect(DemoPicture.svg(forPath: path) == svg)
    }

    @Test func differentNumbersGiveDifferentPictures() {
        #expect(
            DemoPicture.svg(forPath: "/demo/images/1-400x300.svg")
                != DemoPicture.svg(forPath: "/demo/images/2-400x300.svg"))
    }

    @Test(arguments: ["nasa", "yamada_taro", "SwiftLang", "_", "<&>", "a\"b'c", "東京"])
    func avatarsAreWellFormed(name: String) throws {
        let svg = try #require(DemoPicture.svg(forPath: "/demo/avatars/\(name).svg"))
        #expect(rootAttributes(svg) != nil, "\(svg)")
    }

    @Test func avatarsShowInitialsInAStableColour() throws {
        let svg = try #require(DemoPicture.svg(forPath: "/demo/avatars/yamada_taro.svg"))
        #expect(svg.contains(">YT</text>"))
        #expect(try #require(DemoPicture.svg(forPath: "/demo/avatars/SwiftLang.svg")).contains(">SL</text>"))
        #expect(try #require(DemoPicture.svg(forPath: "/demo/avatars/<_&.svg")).contains(">&lt;&amp;</text>"))
        // FNV-1a of the name, not Hasher: the same colour in every process.
        #expect(svg.contains("hsl("))
        #expect(DemoPicture.svg(forPath: "/demo/avatars/yamada_taro.svg") == svg)
    }

    @Test(arguments: [
        "", "/", "/demo/images/", "/demo/images/.svg", "/demo/images/1-0x100.svg", "/demo/images/1-100x0.svg",
        "/demo/images/1-8001x100.svg", "/demo/images/1-100x99999.svg", "/demo/images/1-100x100.png",
        "/demo/images/1-100-100.svg",
        "/demo/images/x-100x100.svg", "/demo/images/1-+100x100.svg", "/demo/images/-1-100x100.svg",
        "/demo/images/1-100x100x3.svg",
        "/demo/images/99999999999999999999-10x10.svg", "/demo/images/a/1-10x10.svg", "/demo/avatars/.svg",
        "/demo/avatars/a/b.svg",
        "/demo/avatars/nasa.png", "/demo/other/nasa.svg", "demo/avatars/nasa.svg",
    ])
    func otherPathsHaveNoPicture(path: String) {
        #expect(DemoPicture.svg(forPath: path) == nil)
    }
}

private final class RootRecorder: NSObject, XMLParserDelegate {
    var name: String?
    var attributes: [String: String] = [:]

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        guard name == nil else { return }
        name = elementName
        self.attributes = attributes
    }
}
