import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A process the tests start (the real `smashtag`, `smashtag-bench`, `psql`), by `posix_spawn` itself. Not
/// Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` to close every inherited descriptor and copies
/// each `readdir` record's whole 256-byte name, reading past the record (swift-corelibs-foundation #5472): now and
/// then the record ends a mapping and the whole test process dies of a SIGSEGV in `memmove`. Here the child closes
/// every descriptor above 2 itself (`posix_spawn_file_actions_addclosefrom_np`), and its pipes are close-on-exec in
/// this process, so no other child inherits them.
final class ChildProcess: Sendable {
    /// Where a standard stream of the child goes.
    enum Stream {
        /// A pipe this process reads (`output`, `errorOutput`).
        case pipe
        /// `/dev/null`.
        case discard
    }

    let processIdentifier: pid_t
    /// The reading ends of the child's standard output and error, when they are pipes.
    let output: FileHandle?
    let errorOutput: FileHandle?
    /// The wait status, once the child is reaped.
    private let reaped = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments`, this process's environment with `environment` over it, its standard
    /// input `/dev/null`.
    init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], output: Stream = .discard,
        errorOutput: Stream = .discard
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var readingEnds: [Int32: Int32] = [:]
        var writingEnds: [Int32] = []
        defer { for end in writingEnds { close(end) } }
        for (descriptor, stream) in [(Int32(1), output), (2, errorOutput)] {
            switch stream {
            case .discard: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .pipe:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw ChildProcessError(executable: executable, code: errno) }
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                posix_spawn_file_actions_adddup2(&actions, ends[1], descriptor)
                (readingEnds[descriptor], writingEnds) = (ends[0], writingEnds + [ends[1]])
            }
        }
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for string in argv + envp { free(string) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard result == 0 else {
            for end in readingEnds.values { close(end) }
            throw ChildProcessError(executable: executable, code: result)
        }
        processIdentifier = pid
        self.output = readingEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.errorOutput = readingEnds[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// Waits for the child to end: blocking, so off the cooperative pool (`SmashtagRun.offThePool`).
    func waitUntilExit() {
        guard reaped.withLock({ $0 }) == nil else { return }
        var status: Int32 = 0
        while waitpid(processIdentifier, &status, 0) == -1, errno == EINTR {}
        reaped.withLock { $0 = status }
    }

    var isRunning: Bool {
        guard reaped.withLock({ $0 }) == nil else { return false }
        var status: Int32 = 0
        guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return true }
        reaped.withLock { $0 = status }
        return false
    }

    /// As Foundation's `Process` says it: the exit code, or the number of the signal that ended the child.
    var terminationStatus: Int32 {
        let status = reaped.withLock { $0 } ?? 0
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not declare.
    private nonisolated(unsafe) static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32)? = {
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else {
                return nil
            }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32).self)
        }()
}

/// A child that could not be started, with the system's reason.
struct ChildProcessError: Error, CustomStringConvertible {
    let executable: URL
    let code: Int32

    var description: String { "could not start \(executable.path): \(String(cString: strerror(code)))" }
}
