import AppStore
import Foundation

/// Where a network's nodes and labels go in a drawing `width` × `height`: a force-directed layout (Fruchterman and
/// Reingold's: nodes repel, edges pull by their weight, a little gravity keeps loose nodes in) from a fixed start —
/// the nodes on a sunflower spiral by rank, the most mentioned in the middle — run a fixed number of steps, so the
/// same network always draws the same picture. Labels are placed most mentioned first, beside their node where they
/// overlap no other label and no node, or not at all (the node keeps its name for screen readers and the table lists
/// it): at the size the page draws it, no two labels overlap.
struct NetworkLayout: Sendable, Equatable {
    static let width = 360.0, height = 400.0
    static let fontSize = 11.0
    private static let margin = 8.0

    struct Point: Sendable, Hashable {
        var x: Double
        var y: Double
    }

    /// A label's box: its text starts at `x` (left-aligned) on the baseline `y`.
    struct Label: Sendable, Hashable {
        let x: Double
        let y: Double
        let width: Double
    }

    let positions: [Point]
    let radii: [Double]
    /// Per node; nil where there was no room.
    let labels: [Label?]

    init(_ network: MentionNetwork) {
        radii = Self.radii(network.nodes)
        // An arrow needs room between its two circles for its line and head to show.
        let apart = network.options.kind.isDirected ? Set(network.edges.map { Pair($0.source, $0.target) }) : []
        positions = Self.fitted(Self.forces(network), radii: radii, apart: apart)
        labels = Self.labels(network, positions: positions, radii: radii)
    }

    /// From 4 for the least mentioned to 16 for the most, by area.
    private static func radii(_ nodes: [MentionNetwork.Node]) -> [Double] {
        let counts = nodes.map { Double($0.count) }
        guard let most = counts.max(), let least = counts.min(), most > 0 else { return counts.map { _ in 4 } }
        return counts.map { count in
            let share = most == least ? 1 : (count - least) / (most - least)
            return (16 + share * (256 - 16)).squareRoot()
        }
    }

    // MARK: - Forces

    private static func forces(_ network: MentionNetwork) -> [Point] {
        let count = network.nodes.count
        var points = (0..<count).map { index -> Point in
            // A sunflower: the golden angle between ranks, the radius growing with the square root of the rank.
            let angle = Double(index) * 2.399_963_229_728_653
            let radius = (Double(index) + 0.5).squareRoot()
            return Point(x: radius * cos(angle), y: radius * sin(angle))
        }
        guard count > 1 else { return points }
        // The ideal edge length: the spiral starts about √n across, so 1.5 spaces the nodes evenly over it.
        let k = 1.5
        let heaviest = Double(network.edges.map(\.weight).max() ?? 1)
        let steps = 200
        var temperature = Double(count).squareRoot() / 2
        for _ in 0..<steps {
            var moves = Array(repeating: Point(x: 0, y: 0), count: count)
            for one in 0..<count {
                for other in (one + 1)..<count {
                    var dx = points[one].x - points[other].x
                    var dy = points[one].y - points[other].y
                    var distance = (dx * dx + dy * dy).squareRoot()
                    if distance < 0.01 {
                        (dx, dy, distance) = (0.01 * Double(one - other), 0.01, 0.01)
                    }
                    let push = k * k / distance
                    moves[one].x += dx / distance * push
                    moves[one].y += dy / distance * push
                    moves[other].x -= dx / distance * push
                    moves[other].y -= dy / distance * push
                }
            }
            for edge in network.edges {
                let dx = points[edge.source].x - points[edge.target].x
                let dy = points[edge.source].y - points[edge.target].y
                let distance = max((dx * dx + dy * dy).squareRoot(), 0.01)
                let pull = distance * distance / k * (0.5 + log1p(Double(edge.weight)) / log1p(heaviest))
                moves[edge.source].x -= dx / distance * pull
                moves[edge.source].y -= dy / distance * pull
                moves[edge.target].x += dx / distance * pull
                moves[edge.target].y += dy / distance * pull
            }
            for index in 0..<count {
                // Gravity: unconnected nodes stay near the rest instead of drifting to the edges.
                moves[index].x -= points[index].x * 0.1
                moves[index].y -= points[index].y * 0.1
                let length = max(
                    (moves[index].x * moves[index].x + moves[index].y * moves[index].y).squareRoot(), 0.001)
                let step = min(length, temperature)
                points[index].x += moves[index].x / length * step
                points[index].y += moves[index].y / length * step
            }
            temperature = max(temperature * 0.97, 0.01)
        }
        return points
    }

    /// Two nodes, the lower index first.
    private struct Pair: Hashable {
        let one: Int
        let other: Int

        init(_ one: Int, _ other: Int) {
            (self.one, self.other) = (min(one, other), max(one, other))
        }
    }

    /// The gap kept between the circles of two nodes an arrow joins.
    private static let arrowRoom = 22.0

    /// The layout scaled into the drawing, each node's circle inside it, then nodes that still overlap (or that an
    /// arrow joins, closer than `arrowRoom`) pushed apart.
    private static func fitted(_ points: [Point], radii: [Double], apart: Set<Pair>) -> [Point] {
        guard !points.isEmpty else { return [] }
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let spanX = max(xs.max()! - xs.min()!, 0.001)
        let spanY = max(ys.max()! - ys.min()!, 0.001)
        let inset = margin + 16
        var fitted = points.map { point in
            Point(
                x: points.count == 1 ? width / 2 : inset + (point.x - xs.min()!) / spanX * (width - 2 * inset),
                y: points.count == 1 ? height / 2 : inset + (point.y - ys.min()!) / spanY * (height - 2 * inset))
        }
        for _ in 0..<30 {
            var moved = false
            for one in fitted.indices {
                for other in fitted.indices where other > one {
                    let dx = fitted[other].x - fitted[one].x
                    let dy = fitted[other].y - fitted[one].y
                    let distance = max((dx * dx + dy * dy).squareRoot(), 0.01)
                    let room = apart.contains(Pair(one, other)) ? arrowRoom : 2
                    let overlap = radii[one] + radii[other] + room - distance
                    guard overlap > 0 else { continue }
                    moved = true
                    let (ux, uy) = distance > 0.01 ? (dx / distance, dy / distance) : (1.0, 0.0)
                    fitted[one].x -= ux * overlap / 2
                    fitted[one].y -= uy * overlap / 2
                    fitted[other].x += ux * overlap / 2
                    fitted[other].y += uy * overlap / 2
                }
            }
            for index in fitted.indices {
                fitted[index].x = min(max(fitted[index].x, margin + radii[index]), width - margin - radii[index])
                fitted[index].y = min(max(fitted[index].y, margin + radii[index]), height - margin - radii[index])
            }
            if !moved { break }
        }
        return fitted
    }

    // MARK: - Labels

    private struct Box {
        let left: Double, top: Double, right: Double, bottom: Double

        func overlaps(_ other: Box) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }

        func overlaps(circle center: Point, radius: Double) -> Bool {
            let nearestX = min(max(center.x, left), right)
            let nearestY = min(max(center.y, top), bottom)
            let dx = center.x - nearestX
            let dy = center.y - nearestY
            return dx * dx + dy * dy < radius * radius
        }

        var isInside: Bool { left >= 0 && top >= 0 && right <= NetworkLayout.width && bottom <= NetworkLayout.height }
    }

    private static func labels(_ network: MentionNetwork, positions: [Point], radii: [Double]) -> [Label?] {
        var placed: [Box] = []
        var labels: [Label?] = Array(repeating: nil, count: positions.count)
        // Nodes come most mentioned first: they get the first choice of places.
        for index in positions.indices {
            let width = textWidth(network.nodes[index].mention)
            let center = positions[index]
            let radius = radii[index]
            let gap = 3.0
            let ascent = fontSize * 0.8
            let descent = fontSize * 0.25
            let middle = center.y + ascent / 2 - descent / 2
            let diagonal = radius * 0.7 + gap
            // Right, left, above, below, the four corners; last, over its own circle (drawn with a halo).
            let candidates = [
                Label(x: center.x + radius + gap, y: middle, width: width),
                Label(x: center.x - radius - gap - width, y: middle, width: width),
                Label(x: center.x - width / 2, y: center.y - radius - gap - descent, width: width),
                Label(x: center.x - width / 2, y: center.y + radius + gap + ascent, width: width),
                Label(x: center.x + diagonal, y: center.y - diagonal - descent, width: width),
                Label(x: center.x + diagonal, y: center.y + diagonal + ascent, width: width),
                Label(x: center.x - diagonal - width, y: center.y - diagonal - descent, width: width),
                Label(x: center.x - diagonal - width, y: center.y + diagonal + ascent, width: width),
                Label(x: center.x - width / 2, y: middle, width: width),
            ]
            // The ten most mentioned may lie over another node's circle (their halo keeps them legible) rather than
            // go unnamed; no label ever lies over another label.
            for mayCoverNodes in index < 10 ? [false, true] : [false] where labels[index] == nil {
                for candidate in candidates {
                    let box = Box(
                        left: candidate.x - 1, top: candidate.y - ascent - 1, right: candidate.x + candidate.width + 1,
                        bottom: candidate.y + descent + 1)
                    guard box.isInside, !placed.contains(where: box.overlaps),
                        mayCoverNodes
                            || !positions.indices.contains(where: {
                                $0 != index && box.overlaps(circle: positions[$0], radius: radii[$0])
                            })
                    else { continue }
                    placed.append(box)
                    labels[index] = candidate
                    break
                }
            }
        }
        return labels
    }

    /// A generous estimate of the label's width in the page's sans-serif at `fontSize`: wide letters, narrow ones,
    /// and ideographs at a full em, so an estimate never falls short of the drawn text.
    static func textWidth(_ text: String) -> Double {
        text.unicodeScalars.reduce(0) { width, scalar in
            width + fontSize * advance(scalar)
        }
    }

    private static func advance(_ scalar: Unicode.Scalar) -> Double {
        if scalar.value >= 0x1100 && (scalar.properties.isIdeographic || scalar.value >= 0x2E80) { return 1.05 }
        if "iljtfr.,:;'|!I".unicodeScalars.contains(scalar) { return 0.36 }
        if "mwMW@%".unicodeScalars.contains(scalar) { return 0.95 }
        if scalar.properties.isUppercase || ("0"..."9").contains(scalar) || scalar == "#" { return 0.7 }
        return 0.6
    }
}
