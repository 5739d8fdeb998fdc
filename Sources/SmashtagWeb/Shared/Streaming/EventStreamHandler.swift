import CoreMetrics
import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Writes live event streams on their connection's event loop, beside Hummingbird rather than through it.
///
/// Hummingbird answers a request in the connection's task, through the router and every middleware; a task keeps the
/// memory of its deepest calls until it ends, and the request, its logger and the response stay alive as long as the
/// response is written — which, for a stream, is as long as a page is open. Here a stream is a handler's state and
/// its feed's callback: the connection's task never sees the request, so it stays as shallow as an idle keep-alive.
/// That is what brings an open stream to about 14 KB (docs/PERFORMANCE.md, "Research scale").
///
/// It sits just after Hummingbird's `HTTPConnectionStateHandler`, which therefore sees the stream's request and
/// response as it sees any other (its idle timeout never cuts a response being written, and after a graceful
/// shutdown's quiesce it closes the connection once the response ends). A `GET` of a stream's address is taken when
/// no other request is under way on the connection and its query string is accepted; anything else goes on to
/// Hummingbird, whose route for the address answers it (`EventStreams`).
final class EventStreamHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let streams: EventStreams
    private var context: ChannelHandlerContext?
    /// Requests handed on to Hummingbird whose responses have not ended.
    private var underWay = 0
    private var listener: LiveListener?
    /// The stream's request is taken, its remaining parts (a body, its end) with it.
    private var takingRequest = false
    /// Events the client was too slow to take yet: only the latest is kept, which says everything the older did.
    private var unwritten: ByteBuffer?
    /// Whether the stream's caller may have it is being asked (of the store, where people are added).
    private var isAdmitting = false

    init(streams: EventStreams) {
        self.streams = streams
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            // Nothing may follow a stream on its connection: its response never ends.
            guard listener == nil, !isAdmitting else { return context.close(promise: nil) }
            if underWay == 0, let stream = streams.stream(for: request) {
                takingRequest = true
                admit(stream, for: request, context: context)
            } else {
                underWay += 1
                context.fireChannelRead(data)
            }
        case .body, .end:
            guard takingRequest else { return context.fireChannelRead(data) }
            if case .end = unwrapInboundIn(data) { takingRequest = false }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { underWay -= 1 }
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let events = unwritten {
            unwritten = nil
            context.writeAndFlush(wrapOutboundOut(.body(events)), promise: nil)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Ends the stream now: the server is shutting down.
    func endForShutdown() {
        guard listener != nil else { return }
        end()
    }

    /// Asks whether the request's caller may read the stream (the router's routes ask `CallerCheck`, which this
    /// request never meets), then starts it, or answers the refusal and closes the connection.
    private func admit(_ stream: EventStream, for request: HTTPRequest, context: ChannelHandlerContext) {
        isAdmitting = true
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let admission = streams.admission
        let peer = context.channel.remoteAddress?.ipAddress
        Task {
            let refusal = await admission(request, peer)
            eventLoop.execute { handler.value.admitted(stream, request, refusal: refusal) }
        }
    }

    private func admitted(_ stream: EventStream, _ request: HTTPRequest, refusal: EarlyRefusal?) {
        isAdmitting = false
        guard let context else { return }
        guard let refusal else { return start(stream, for: request, context: context) }
        answer(refusal, context: context)
    }

    /// A request HTTP cannot read (Hummingbird would answer a bare 400, with no body and none of the headers every
    /// response carries): said as every other refusal is, and the connection closed.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, listener == nil, !isAdmitting else {
            return context.fireErrorCaught(error)
        }
        answer(EarlyRefusal(parserError), context: context)
    }

    private func answer(_ refusal: EarlyRefusal, context: ChannelHandlerContext) {
        let body = ByteBuffer(string: refusal.json)
        var headers = Self.stamped(refusal.headers)
        headers[.contentLength] = String(body.readableBytes)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: refusal.status, headerFields: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.close(promise: nil)
    }

    private func start(_ stream: EventStream, for request: HTTPRequest, context: ChannelHandlerContext) {
        streams.logger.info(
            "Request",
            metadata: [
                "hb.request.path": .string(request.path ?? ""), "hb.request.method": .string(request.method.rawValue),
            ])
        let headers = Self.stamped(EventStream.headers)
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok, headerFields: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.body(EventStream.retry)), promise: nil)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        listener = streams.feeds.join(stream.key, reader: stream.reader) { delivery in
            eventLoop.execute { handler.value.deliver(delivery) }
        }
        Self.open.increment()
    }

    /// A head written here, beside Hummingbird, with what Hummingbird puts on every head it writes.
    private static func stamped(_ headers: HTTPFields) -> HTTPFields {
        var headers = headers
        headers[.server] = "Smashtag"
        headers[.date] = UTCTime(Date()).rfc822
        return headers
    }

    /// The streams open now, for `/metrics`.
    private static var open: Meter { Meter(label: "smashtag_live_streams_open") }

    private func deliver(_ delivery: LiveFeeds.Delivery) {
        guard listener != nil, let context else { return }
        switch delivery {
        case .events(let events):
            guard context.channel.isWritable else {
                unwritten = events
                return
            }
            unwritten = nil
            context.writeAndFlush(wrapOutboundOut(.body(events)), promise: nil)
        case .heartbeat:
            if context.channel.isWritable, unwritten == nil {
                context.writeAndFlush(wrapOutboundOut(.body(EventStream.heartbeat)), promise: nil)
            }
        case .end:
            end()
        }
    }

    /// Ends the response; the connection stays open for another request, as after any response.
    private func end() {
        stop()
        context?.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func stop() {
        unwritten = nil
        guard let listener else { return }
        listener.leave()
        Self.open.decrement()
        self.listener = nil
    }
}

/// What each connection gets before Hummingbird's handlers: a small receive buffer, and the stream handler placed
/// just after Hummingbird's connection state handler (only there once the pipeline is whole, when the connection
/// becomes active), which it tells of a graceful shutdown before that handler hears of it.
///
/// NIO keeps a connection's last receive buffer for its next read, 2,048 bytes to begin with; an open stream reads
/// nothing after its request, so that buffer would be held for nothing. 1,024 holds a browser's request in one read
/// (a smaller buffer was kept beside the larger one it grew to), and it grows for connections that send more.
final class ConnectionSetup: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    static let receiveBuffers = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1_024, maximum: 65_536)

    private let streams: EventStreams
    private var streamHandler: EventStreamHandler?

    init(streams: EventStreams) {
        self.streams = streams
    }

    func handlerAdded(context: ChannelHandlerContext) {
        try? context.channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.receiveBuffers)
    }

    func channelActive(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        do {
            let state = try pipeline.handler(type: HTTPConnectionStateHandler.self)
            let handler = EventStreamHandler(streams: streams)
            try pipeline.addHandler(handler, position: .after(state))
            streamHandler = handler
        } catch {
            // Streams are then answered by the router's route, which refuses them: say why once per connection.
            streams.logger.error("No live streams on this connection: \(error)")
        }
        context.fireChannelActive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { streamHandler?.endForShutdown() }
        context.fireUserInboundEventTriggered(event)
    }
}
