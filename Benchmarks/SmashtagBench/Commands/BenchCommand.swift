import ArgumentParser

/// `smashtag-bench …`: the committed benchmarks behind docs/PERFORMANCE.md, kept out of the shipped `smashtag`. Run
/// them from a release build.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smashtag-bench",
        abstract: "Measure Smashtag's performance targets (build with -c release).",
        subcommands: [
            BenchDecode.self, BenchSearch.self, BenchSearchDistinct.self, BenchImportFloor.self, BenchSession.self,
            BenchTerms.self, BenchPopularity.self, BenchCountPage.self, BenchCountTogether.self, BenchIngest.self,
            BenchTrack.self, BenchExportFill.self, BenchStreams.self, BenchRemove.self, BenchConversations.self,
            BenchFleet.self,
        ]
    )
}
