import Posts
import WireJSON

/// A decoder without its shortcut: every item read as a tree, the reference the shortcut is held to.
package struct TreesOnly<Decoder: ItemDecoder>: ItemDecoder {
    let decoder: Decoder

    package init(_ decoder: Decoder) { self.decoder = decoder }

    package func decode(_ item: JSONValue) -> [ItemOutcome] { decoder.decode(item) }
}
