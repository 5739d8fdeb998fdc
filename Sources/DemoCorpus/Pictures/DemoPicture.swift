import Posts

/// The demo corpus's avatars and images, drawn on request so the demo needs no network and ships no image files.
public enum DemoPicture {
    /// The SVG for `/demo/avatars/<screenName>.svg` or `/demo/images/<n>-<w>x<h>.svg` (sizes 1…8000); nil for any
    /// other path. The same path always gives the same picture.
    public static func svg(forPath path: String) -> String? {
        if let image = DemoImagePath(path) { return Landscape(image).svg }
        if let name = DemoAvatarPath.name(in: path) { return Avatar(name: name).svg }
        return nil
    }
}

/// Initials on a coloured disc or rounded square; the colour and shape come from a stable hash of the name, so a
/// user looks the same in every process.
private struct Avatar {
    let name: String

    var svg: String {
        let hash = StableHash.of(name)
        let hue = Int(hash % 360)
        let shape =
            hash & 0x200 == 0
            ? #"<circle cx="64" cy="64" r="64" fill="url(#g)"/>"#
            : #"<rect width="128" height="128" rx="28" fill="url(#g)"/>"#
        return #"<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">"#
            + #"<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">"#
                + #"""
                <stop offset="0" stop-color="hsl(\#(hue),60%,42%)"/><stop offset="1" \#
                stop-color="hsl(\#((hue + 40) % 360),60%,30%)"/>
                """#
            + "</linearGradient></defs>" + shape
            + #"<text x="64" y="64" dy=".35em" text-anchor="middle" font-family="system-ui,-apple-system,sans-serif" "#
            + #"font-size="52" font-weight="600" fill="white">\#(XMLText.escaped(initials))</text></svg>"#
    }

    /// The first character, and the start of a second word (`yamada_taro` → YT, `SwiftLang` → SL) if there is one.
    var initials: String {
        guard let first = name.first else { return "" }
        let rest = name.dropFirst()
        let second =
            rest.firstIndex(of: "_").flatMap { rest[$0...].dropFirst().first } ?? rest.first(where: \.isUppercase)
        return (String(first) + (second.map { String($0) } ?? "")).uppercased()
    }
}

/// A landscape — gradient sky, a sun or moon, rolling hills — picked by the image's number and drawn at its size.
private struct Landscape {
    let path: DemoImagePath
    private var random: SeededRandom

    init(_ path: DemoImagePath) {
        self.path = path
        random = SeededRandom(seed: UInt64(path.number))
    }

    var svg: String {
        var scene = self  // drawing draws random numbers; a copy keeps `svg` a plain property
        let palette = scene.random.element(of: Palette.all)
        let (width, height) = (path.width, path.height)
        return
            #"""
            <svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)" viewBox="0 \#
            0 \#(width) \#(height)">
            """#
                + #"""
                <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" \#
                stop-color="\#(palette.skyTop)"/>
                """#
                + #"<stop offset="1" stop-color="\#(palette.skyBottom)"/></linearGradient></defs>"#
                + #"<rect width="\#(width)" height="\#(height)" fill="url(#sky)"/>"#
                + scene.sun(palette) + scene.clouds() + (0..<3).map { scene.hill(layer: $0, palette) }.joined()
                + "</svg>"
    }

    private mutating func clouds() -> String {
        (0..<random.int(in: 0...3)).map { _ in
            let x = path.width * random.int(in: 0...100) / 100
            let y = path.height * random.int(in: 8...35) / 100
            let radiusX = max(1, path.width * random.int(in: 6...14) / 100)
            return
                #"""
                <ellipse cx="\#(x)" cy="\#(y)" rx="\#(radiusX)" ry="\#(max(1, radiusX / 3))" fill="white" \#
                opacity="0.55"/>
                """#
        }.joined()
    }

    private mutating func sun(_ palette: Palette) -> String {
        let radius = max(1, min(path.width, path.height) * random.int(in: 6...14) / 100)
        let x = path.width * random.int(in: 10...90) / 100
        let y = path.height * random.int(in: 10...40) / 100
        return #"<circle cx="\#(x)" cy="\#(y)" r="\#(radius)" fill="\#(palette.sun)" opacity="0.9"/>"#
    }

    /// A ridge of quadratic curves across the width, nearer layers lower and darker.
    private mutating func hill(layer: Int, _ palette: Palette) -> String {
        let (width, height) = (path.width, path.height)
        let base = height * (55 + 13 * layer) / 100
        let amplitude = max(1, height * 8 / 100)
        let segments = random.int(in: 2...5)
        var outline = "M0,\(base + random.int(in: -amplitude...amplitude))"
        for segment in 1...segments {
            let x = width * segment / segments
            let controlX = width * (2 * segment - 1) / (2 * segments)
            let controlY = base + random.int(in: -2 * amplitude...amplitude)
            let y = base + random.int(in: -amplitude...amplitude)
            outline += " Q\(controlX),\(controlY) \(x),\(y)"
        }
        let lightness = palette.hillLightness - 10 * layer
        return
            #"""
            <path d="\#(outline) L\#(width),\#(height) L0,\#(height) Z" \#
            fill="hsl(\#(palette.hillHue),45%,\#(lightness)%)"/>
            """#
    }
}

/// A time of day.
private struct Palette {
    let skyTop: String
    let skyBottom: String
    let sun: String
    let hillHue: Int
    let hillLightness: Int

    static let all = [
        Palette(skyTop: "#4a90d9", skyBottom: "#cfe8ff", sun: "#fff3b0", hillHue: 110, hillLightness: 45),
        Palette(skyTop: "#ff9a62", skyBottom: "#ffe0a3", sun: "#fff8e1", hillHue: 25, hillLightness: 40),
        Palette(skyTop: "#2b1055", skyBottom: "#d53369", sun: "#ffd6e0", hillHue: 280, hillLightness: 30),
        Palette(skyTop: "#0b1d3a", skyBottom: "#30507a", sun: "#f4f1de", hillHue: 220, hillLightness: 28),
        Palette(skyTop: "#86e3ce", skyBottom: "#fafbd4", sun: "#ffffff", hillHue: 150, hillLightness: 42),
        Palette(skyTop: "#a1c4fd", skyBottom: "#fbc2eb", sun: "#fffbe6", hillHue: 200, hillLightness: 48),
    ]
}
