import AppStore
import Foundation
import Posts

/// A row's sparkline: a line over the term's last buckets, drawn by the server as inline SVG (no script). Colours
/// come from the stylesheet, so it follows light and dark mode; it is decoration beside the count, so hidden from
/// screen readers, whose label is on the link around it.
struct Sparkline: Sendable {
    static let width = 56.0, height = 18.0
    let points: String

    init(_ counts: [Int]) {
        let top = Double(max(counts.max() ?? 0, 1))
        let step = counts.count > 1 ? Self.width / Double(counts.count - 1) : 0
        points = counts.enumerated().map { index, count in
            "\(svgNumber(Double(index) * step)),\(svgNumber(Self.height - 1 - Double(count) / top * (Self.height - 2)))"
        }.joined(separator: " ")
    }

    var markup: Markup {
        """
        <svg class=\"spark\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" width=\"\(Int(Self.width))\" \
        height=\"\(Int(Self.height))\" aria-hidden=\"true\" focusable=\"false\"><polyline \
        points=\"\(points)\"/></svg>
        """
    }
}

/// A trend as a bar chart: a bar per bucket, the count axis on the left, a few times along the bottom (UTC), a title
/// and a description for screen readers. Inline SVG styled by the stylesheet, legible in light and dark mode.
struct TrendChart: Sendable {
    static let width = 340.0, height = 200.0
    private static let left = 34.0, right = 6.0, top = 10.0, bottom = 30.0

    struct Bar: Sendable {
        let x: String, y: String, width: String, height: String
        /// "Nov 23 14:00: 3 posts", as a tooltip.
        let label: String
    }

    struct Tick: Sendable {
        let position: String
        let label: String
    }

    let title: String
    let summary: String
    let bars: [Bar]
    let countTicks: [Tick]
    let timeTicks: [Tick]

    init(points: [TrendPoint], bucket: TrendBucket, title: String, summary: String) {
        (self.title, self.summary) = (title, summary)
        let highest = max(points.map(\.count).max() ?? 0, 1)
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        let slot = plotWidth / Double(max(points.count, 1))
        bars = points.enumerated().map { index, point in
            let barHeight = Double(point.count) / Double(highest) * plotHeight
            return Bar(
                x: svgNumber(Self.left + Double(index) * slot + slot * 0.1),
                y: svgNumber(Self.top + plotHeight - barHeight),
                width: svgNumber(slot * 0.8), height: svgNumber(barHeight),
                label: "\(TrendTime.label(point.start, bucket: bucket, full: true)): \(postCount(point.count))")
        }
        countTicks = Set([0, (highest + 1) / 2, highest]).sorted().map { value in
            Tick(
                position: svgNumber(Self.top + plotHeight - Double(value) / Double(highest) * plotHeight),
                label: String(value))
        }
        // Hours are marked at midnight (by its day) and noon; days every week or so.
        let every = max(1, points.count / 4)
        let marked =
            bucket == .hour
            ? points.indices.filter { UTCTime(points[$0].start).hour % 12 == 0 }
            : points.indices.filter { $0 % every == 0 }
        timeTicks = marked.map { index in
            Tick(
                position: svgNumber(Self.left + (Double(index) + 0.5) * slot),
                label: TrendTime.label(points[index].start, bucket: bucket, full: false))
        }
    }

    func write(to html: inout HTMLWriter) {
        html.append(
            """
            <svg class="chart" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" \
            aria-labelledby="chart-title chart-desc">
            <title id="chart-title">\(title)</title>
            <desc id="chart-desc">\(summary)</desc>

            """)
        let axisStart = svgNumber(Self.left)
        let axisEnd = svgNumber(Self.width - Self.right)
        let countsX = svgNumber(Self.left - 4)
        for tick in countTicks {
            html.append(
                """
                <line class="grid" x1="\(axisStart)" x2="\(axisEnd)" y1="\(tick.position)" y2="\(tick.position)"/>\
                <text class="axis" x="\(countsX)" y="\(tick.position)" text-anchor="end" \
                dominant-baseline="middle">\(tick.label)</text>

                """)
        }
        for bar in bars {
            html.append(
                """
                <rect class=\"bar\" x=\"\(bar.x)\" y=\"\(bar.y)\" width=\"\(bar.width)\" \
                height=\"\(bar.height)\"><title>\(bar.label)</title></rect>\n
                """
            )
        }
        let baseline = svgNumber(Self.height - Self.bottom + 16)
        for tick in timeTicks {
            html.append(
                """
                <text class=\"axis\" x=\"\(tick.position)\" y=\"\(baseline)\" \
                text-anchor=\"middle\">\(tick.label)</text>\n
                """
            )
        }
        html.append("</svg>\n")
    }
}

/// A coordinate with at most one decimal, as SVG reads it.
func svgNumber(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
}

/// How a bucket's start is written: `14:00` or `Nov 23` on the axis; `Nov 23, 14:00` or `Nov 23, 2026` in full.
enum TrendTime {
    static func label(_ start: Date, bucket: TrendBucket, full: Bool) -> String {
        let time = UTCTime(start)
        let clock = (time.hour < 10 ? "0" : "") + "\(time.hour):00"
        switch (bucket, full) {
        case (.hour, false): return time.hour == 0 ? time.monthDay : clock
        case (.hour, true): return time.monthDay + ", " + clock
        case (.day, false): return time.monthDay
        case (.day, true): return time.monthDay + ", \(time.year)"
        }
    }
}
