import Dispatch
import Foundation
import Testing

/// `scripts/test` runs the Swift suites a second time on one cooperative thread (`scripts/one-cooperative-thread.c`,
/// preloaded, with `SMASHTAG_TEST_ONE_COOPERATIVE_THREAD=1`): a blocking wait on that thread for another task then
/// stops the run instead of passing by luck on two cores. This shows the pool really is one thread then: a task that
/// blocks its thread until a task it started has run waits in vain (for a bounded second), which two threads never do.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["SMASHTAG_TEST_ONE_COOPERATIVE_THREAD"] == "1",
        "run by scripts/test with one cooperative thread"))
struct OneCooperativeThreadTests {
    @Test func aTaskBlockingItsThreadStopsEveryOtherTask() async {
        let ranMeanwhile = await Task.detached {
            let other = DispatchSemaphore(value: 0)
            Task.detached { other.signal() }
            return other.wait(timeout: .now() + 1) == .success
        }.value
        #expect(!ranMeanwhile, "another task ran while this one blocked the only thread")
    }
}
