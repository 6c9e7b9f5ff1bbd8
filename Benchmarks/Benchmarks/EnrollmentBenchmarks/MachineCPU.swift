import Benchmark
import Foundation

/// The whole machine's CPU time, from the first line of `/proc/stat` (Linux): what a durable
/// sign-in costs where the work happens outside this process too, in the database server's
/// processes and in service processes, and whether the machine had any left.
///
/// The counts are in clock ticks (`_SC_CLK_TCK`, usually a hundredth of a second): over an
/// iteration of a tenth of a second on two CPUs a tick is a twentieth of the machine, so the
/// per-iteration figures are coarse and their median over the iterations is what to read.
struct MachineCPU {
    /// Ticks every CPU spent running anything: user, system, interrupts.
    var busy: Int
    /// Ticks every CPU spent in all, idle and waiting for I/O included; not the time a hypervisor
    /// gave to other guests (steal), which this machine neither used nor could have.
    var total: Int

    /// The counts now; nil where `/proc/stat` cannot be read or parsed.
    static func now() -> MachineCPU? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        // user nice system idle iowait irq softirq [steal guest guest_nice; guest time is in user and nice]
        let fields = line.split(separator: " ").dropFirst().prefix(7).compactMap { Int($0) }
        guard fields.count == 7 else { return nil }
        let total = fields.reduce(0, +)
        return MachineCPU(busy: total - fields[3] - fields[4], total: total)
    }

    /// What went by between `self` and `later`.
    func until(_ later: MachineCPU) -> MachineCPU {
        MachineCPU(busy: later.busy - busy, total: later.total - total)
    }

    /// Busy time in microseconds.
    var busyMicroseconds: Int { busy * 1_000_000 / sysconf(Int32(_SC_CLK_TCK)) }

    static let busyMetric = BenchmarkMetric.custom("machine busy (%)", polarity: .prefersSmaller, useScalingFactor: false)
    static let perOperationMetric = BenchmarkMetric.custom("machine CPU per sign-in (us)", polarity: .prefersSmaller, useScalingFactor: false)

    /// Records the share of the machine `self` (an interval) kept busy, and its busy time per
    /// operation of `operations`.
    func record(in benchmark: Benchmark, operations: Int) {
        guard total > 0, operations > 0 else { return }
        benchmark.measurement(Self.busyMetric, busy * 100 / total)
        benchmark.measurement(Self.perOperationMetric, busyMicroseconds / operations)
    }
}
