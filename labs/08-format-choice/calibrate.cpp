// spmv-kit calibrate (lab 08's tool, found through the registry): measures the device parameters
// of lab 08's time model on the CUDA GPU and writes them as a text file for $KIT_DEVICE_PARAMS.
// Measured, each on a matrix of its own (none of the benchmark's): DRAM bandwidth (the kit's
// read/copy ceiling); the launch cost (csr-scalar on the 4x4 example, all launch and no data);
// the chains: one row of 2^18 entries walked by one thread (csr-scalar: step_ns; in float too:
// float_step_share), by one warp (csr-vector: warp_step_ns) and added into one y entry by
// atomics (coo-atomic: atomic_ns); and 2^22 one-entry rows, one warp each (csr-vector: row_ns;
// bcsr-warp at the model's 2 x 2 blocks, a warp per block row: block_row_ns);
// and 2^17 rows of 64 random entries walked one thread per row (csr-scalar: sector_gbs) and
// added with atomics (coo-atomic: atomic_lanes_per_ns); 1024 rows of 128 random entries less
// 1024 rows of 32, added with atomics in float and double (coo-atomic: line_atomic_ns_float and
// _double, y's lines queue them); 8 diagonals 4096 apart walked by dia-naive in float (4-byte
// loads per lane, each diagonal's x from its own lines: narrow_gbs); a band of 8 diagonals
// walked by coo-segmented, csr-merge and csr5 in double (coo_gbs, merge_gbs, csr5_gbs); a band
// of 64 diagonals whose rows / 4 are an eighth of the resident threads, walked by dia-vec4 in
// float (too few threads to fill DRAM: latency_ns by Little's law); last, 7 diagonals 4096 apart
// walked by dia-naive in float, whose stream and leftover loop rounds overlap in part
// (loop_overlap_power, with every other parameter in the model). Read from the device: SMs,
// resident warps per SM, warp width. Kept at the documented H100 defaults: clock, lanes, L1,
// gather and PCIe figures (format_model.hpp); edit the file to change them.
#include "calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>

#include "check/checked_run.hpp"
#include "core/args.hpp"
#include "core/kit_error.hpp"
#include "format_choice.hpp"
#include "io/generators.hpp"
#include "kit_kernels.hpp"
#include "measure/bandwidth_ceiling.hpp"
#include "measure/bytes_model.hpp"
#include "model/format_model.hpp"
#include "registry/variants.hpp"
#include "time_model.hpp"
#if KIT_HAVE_CUDA
#include "gpu/cuda_run.hpp"
#endif

namespace kit::model {
namespace {

const char* kHelp =
    "usage: spmv-kit calibrate [--out FILE]   (default FILE: device_params.txt)\n\n"
    "Measures lab 08's device parameters on the CUDA GPU: DRAM bandwidth, the launch cost, and the\n"
    "chains of its time model (a thread's, a warp's and an atomic's step along one long row, the\n"
    "thread's in float too, and a warp per row over many short rows, and per block row of 2 x 2\n"
    "blocks with bcsr-warp), csr-scalar's sector rate and\n"
    "coo-atomic's rate on rows of 64 random entries, coo-atomic's queue on the few lines of a small\n"
    "y (1024 rows, float and double), the DRAM rate of 4-byte loads per lane (dia-naive in float on\n"
    "8 diagonals 4096 apart), the stream rates of COO, csr-merge and csr5 (each in double on a band\n"
    "of 8 diagonals) and DRAM's latency under load (dia-vec4 in float on a band too short to fill\n"
    "the GPU), each on a matrix of its own, and every kernel's fixed cost (its time on the 4x4\n"
    "example, or a dense 64 x 64 matrix for lab 09's blocked and streamed kernels), and last how\n"
    "much of its loop's rounds dia-naive's stream hides (float, 7 diagonals 4096 apart); reads the\n"
    "SMs and resident threads of the device, and writes them as the file that $KIT_DEVICE_PARAMS\n"
    "points spmv-kit info, run --format auto and the benchmark at.\n"
    "Exit status: 0 written, 2 on bad arguments or no CUDA device.\n";

constexpr index_t kLongRow = 1 << 18;     // one row this long: the chains dwarf a launch
constexpr index_t kShortRows = 1 << 22;   // this many one-entry rows: the rows dwarf the bytes
constexpr index_t kSectorRows = 1 << 17;  // rows of kSectorRowLength random entries for sector_gbs
constexpr int kSectorRowLength = 64;      // long enough rows that csr-scalar's lines overflow L1
constexpr index_t kQueueRows = 1024;      // y of 1024 entries: 32 lines in float, 64 in double
constexpr int kQueueShort = 32;           // its rows, then kQueueLong: the added atomics' time per line
constexpr int kQueueLong = 128;
constexpr index_t kNarrowRows = 1 << 21;  // a band this tall and kNarrowDiagonals wide: DRAM dwarfs a launch
constexpr index_t kNarrowDiagonals = 8;
constexpr index_t kOverlapDiagonals = 7;   // one unrolled group of 4 and 3 single trips: loop ~ stream
constexpr index_t kNarrowSpacing = 4096;   // rows between its diagonals: no two share x's lines in L1
constexpr index_t kLatencyDiagonals = 64;  // the latency band: DRAM's latency dwarfs a launch
constexpr double kLatencyShare = 0.125;    // its dia-vec4 threads, a share of the resident ones

CooMatrix one_long_row(index_t n) {
    CooMatrix A;
    A.rows = 1;
    A.cols = n;
    for (index_t j = 0; j < n; ++j) A.add(0, j, 1.0);
    A.normalize();
    return A;
}

/// rows x `length` entries at random columns of `rows` (kit::generate_random varies the row
/// lengths, and the atomic figures assume every warp's 32 lanes hit one row; a repeated column
/// merges, so a short matrix may hold a few less).
CooMatrix random_rows(index_t rows, int length) {
    CooMatrix A;
    A.rows = A.cols = rows;
    std::uint64_t state = 12345;
    for (index_t i = 0; i < rows; ++i)
        for (int k = 0; k < length; ++k) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;  // a fixed LCG: the same matrix every run
            A.add(i, static_cast<index_t>((state >> 33) % static_cast<std::uint64_t>(rows)), 1.0);
        }
    A.normalize();
    return A;
}

CooMatrix identity(index_t n) {
    CooMatrix A;
    A.rows = A.cols = n;
    for (index_t i = 0; i < n; ++i) A.add(i, i, 1.0);
    A.normalize();
    return A;
}

/// Cold median (ms) of a CUDA variant on A in `precision`, checked against the oracle first.
/// `tunables` (e.g. a BCSR kernel's block shape) are passed on to the variant.
double cold_ms(const std::string& variant, const CooMatrix& A, Precision precision = Precision::f64,
               const std::map<std::string, int>& tunables = {}) {
    const Variant* v = registry().find(variant, Backend::cuda);
    if (!v) throw Error(variant + " is not built in");
    const Reference ref(A, std::vector<double>(A.cols, 1.0), std::vector<double>(A.rows, 1.0));
    RunOptions opt;
    opt.tunables = tunables;
    opt.repeats = 20;
    opt.steady_calls = 0;
    opt.precision = precision;
    const CheckedRun run = run_checked(*v, ref, opt);
    if (run.status != RunStatus::ok) throw Error(variant + ": " + run.message);
    return run.result.median_ms();
}

/// (time - launch) / steps in ns, at least 0.001 ns (a file value must be positive).
double per_step_ns(double ms, double launch_ns, double steps) { return std::max(1e-3, (ms * 1e6 - launch_ns) / steps); }

/// amount / (time - launch): a rate per ns (bytes per ns = GB/s), the time less a launch
/// counted as at least 1 ns.
double per_ns(double amount, double ms, double launch_ns) { return amount / std::max(1.0, ms * 1e6 - launch_ns); }

/// DIA bytes of a band of rows x `diagonals` diagonals (any spacing) in float, at the DIA container's default pitch.
double float_band_bytes(index_t rows, index_t diagonals) {
    return static_cast<double>(dia_bytes(rows, rows, diagonals, StorageInputs{}.pitch_for(rows), 4));
}

/// COO bytes of A in double (three arrays, x and y).
double double_coo_bytes(const CooMatrix& A) { return static_cast<double>(coo_bytes(A.rows, A.cols, A.nnz(), 8)); }

/// CSR bytes of A in double (its three arrays, x and y).
double double_csr_bytes(const CooMatrix& A) { return static_cast<double>(csr_bytes(A.rows, A.cols, A.nnz(), 8)); }

/// The measured ceiling and the device's shape: bandwidth, SMs, resident warps, warp width.
std::string measure_device(DeviceParams& p) {
    const BandwidthCeiling c = measure_device_ceiling(Backend::cuda, std::size_t(1) << 30, 10);
    p.device = c.device;
    p.bandwidth_gbs = c.gbs;
#if KIT_HAVE_CUDA
    const CudaShape shape = cuda_device_shape();
    p.sms = shape.sms;
    p.warp = shape.warp;
    p.warps_per_sm = shape.threads_per_sm / shape.warp;
#endif
    return c.how;
}

/// The launch cost and the chains: one long row walked by a thread, a warp and atomics, and
/// many one-entry rows of a warp each.
void measure_chains(DeviceParams& p) {
    p.launch_us = cold_ms("csr-scalar", example4x4()) * 1e3;
    const double launch_ns = p.launch_us * 1e3;
    const CooMatrix row = one_long_row(kLongRow);
    p.step_ns = per_step_ns(cold_ms("csr-scalar", row), launch_ns, kLongRow);
    p.warp_step_ns = per_step_ns(cold_ms("csr-vector", row), launch_ns, (kLongRow + 31) / 32);
    // the thread's walk in float, whose loads hit L1 more often (as a share of the double step)
    p.float_step_share = per_step_ns(cold_ms("csr-scalar", row, Precision::f32), launch_ns, kLongRow) / p.step_ns;
    p.atomic_ns = per_step_ns(cold_ms("coo-atomic", row), launch_ns, kLongRow);
    p.row_ns = per_step_ns(cold_ms("csr-vector", identity(kShortRows)), launch_ns, kShortRows);
    // bcsr-warp at the model's block shape (lab 05's tunables by name): a warp per block row
    const StorageInputs shape;
    const double block_rows = std::ceil(static_cast<double>(kShortRows) / shape.bcsr_r);
    p.block_row_ns = per_step_ns(cold_ms("bcsr-warp", identity(kShortRows), Precision::f64,
                                         {{"block_r", shape.bcsr_r}, {"block_c", shape.bcsr_c}}),
                                 launch_ns, block_rows);
}

/// One more atomic on a line of a small y: coo-atomic on kQueueRows rows of kQueueLong random
/// entries, less the same rows of kQueueShort, per added atomic on each of y's lines. The
/// difference leaves the launch and the loads' rounds out.
double line_atomic_ns(const DeviceParams& p, Precision precision) {
    const CooMatrix short_rows = random_rows(kQueueRows, kQueueShort), long_rows = random_rows(kQueueRows, kQueueLong);
    const double value_bytes = value_bytes_of(precision);
    const double lines = std::max(1.0, kQueueRows * value_bytes / p.line_bytes);
    const double added = static_cast<double>(long_rows.nnz() - short_rows.nnz()) / lines;
    const double ms = cold_ms("coo-atomic", long_rows, precision) - cold_ms("coo-atomic", short_rows, precision);
    return std::max(1e-3, ms * 1e6 / added);
}

/// The stream rates: csr-scalar's sectors and coo-atomic's lanes on random rows, dia-naive's
/// 4-byte loads, coo-segmented's entries, csr-merge's and csr5's tiles.
void measure_rates(DeviceParams& p) {
    const double launch_ns = p.launch_us * 1e3;
    const CooMatrix random = random_rows(kSectorRows, kSectorRowLength);
    // a double value and a 4-byte column index per entry, in bytes per ns = GB/s
    p.sector_gbs = per_ns(12.0 * static_cast<double>(random.nnz()), cold_ms("csr-scalar", random), launch_ns);
    // rows of 64: every warp's 32 lanes add into one y entry
    p.atomic_lanes_per_ns = per_ns(32.0 * static_cast<double>(random.nnz()), cold_ms("coo-atomic", random), launch_ns);
    p.line_atomic_ns_float = line_atomic_ns(p, Precision::f32);
    p.line_atomic_ns_double = line_atomic_ns(p, Precision::f64);
    // dia-naive in float: each lane loads one 4-byte value per diagonal, and x from L2 (its
    // diagonals lie too far apart to share lines), as on a stencil's
    p.narrow_gbs = per_ns(
        float_band_bytes(kNarrowRows, kNarrowDiagonals),
        cold_ms("dia-naive", generate_band(kNarrowRows, kNarrowDiagonals, kNarrowSpacing), Precision::f32), launch_ns);
    // coo-segmented in double on a band (x read in order, so no gathers): COO's stream rate
    const CooMatrix coo_band = generate_band(kNarrowRows, kNarrowDiagonals, 1);
    p.coo_gbs = per_ns(double_coo_bytes(coo_band), cold_ms("coo-segmented", coo_band), launch_ns);
    // csr-merge and csr5 on the same band: their tiles (staged in shared memory between
    // barriers; transposed, with descriptors and carries) stream below the bandwidth even where
    // nothing else limits them (CSR bytes per ns)
    p.merge_gbs = per_ns(double_csr_bytes(coo_band), cold_ms("csr-merge", coo_band), launch_ns);
    p.csr5_gbs = per_ns(double_csr_bytes(coo_band), cold_ms("csr5", coo_band), launch_ns);
}

/// DRAM's latency by Little's law: dia-vec4 in float with kLatencyShare of the resident
/// threads, each with its quads (16 bytes) of one unrolled pair of diagonals in flight, as
/// predict_kernel counts them; latency = bytes in flight / rate. Returns the band's rows.
index_t measure_latency(DeviceParams& p) {
    const double threads = kLatencyShare * resident_threads(p);
    const index_t short_rows = 4 * static_cast<index_t>(threads);
    const double flight_bytes = kLatencyDiagonals * 16.0 / unrolled_rounds(kLatencyDiagonals, kQuadLoopUnroll);
    const double short_gbs =
        per_ns(float_band_bytes(short_rows, kLatencyDiagonals),
               cold_ms("dia-vec4", generate_band(short_rows, kLatencyDiagonals, 1), Precision::f32), p.launch_us * 1e3);
    p.latency_ns = threads * flight_bytes / short_gbs;
    return short_rows;
}

/// Each kernel of the kit's model, timed on its fixed_cost_matrix() in both precisions: its
/// fixed cost (apply_fixed_costs). The kernel list is the model's own, so an unfinished lab 08
/// skips this step and says so.
void measure_fixed_costs(DeviceParams& p) {
    for (const Precision precision : {Precision::f32, Precision::f64}) {
        std::vector<KernelPrediction> kit;
        try {
            kit = model_report(example4x4(), precision, h100_defaults()).kit;
        } catch (const TodoError& e) {
            std::cerr << "calibrate: no fixed costs per kernel (lab 08's model is unfinished: " << e.what() << ")\n";
            return;
        }
        for (const KernelPrediction& k : kit)
            if (k.feasible && registry().find(k.variant, Backend::cuda))
                p.fixed_us(value_bytes_of(precision))[k.variant] =
                    cold_ms(k.variant, fixed_cost_matrix(k.variant), precision) * 1e3;
    }
}

/// dia-naive in float on a band of kOverlapDiagonals diagonals, after every other parameter:
/// its stream and its loop's rounds (3 leftover single trips a wave) take about as long there,
/// and the time lies between the longer and their sum. The power of partly_hidden that
/// puts the model's prediction on the measured time (loop_overlap_power).
void measure_loop_overlap(DeviceParams& p) {
    const CooMatrix band = generate_band(kNarrowRows, kOverlapDiagonals, kNarrowSpacing);
    const double measured = cold_ms("dia-naive", band, Precision::f32);
    p.loop_overlap_power = kMaxOverlapPower;
    KernelPrediction naive;
    try {
        const std::vector<KernelPrediction> kit = model_report(band, Precision::f32, p).kit;
        const KernelPrediction* found = find_prediction(kit, "dia-naive");
        if (found == nullptr) {
            std::cerr << "calibrate: no loop overlap (the model has no dia-naive); the key keeps its default\n";
            return;
        }
        naive = *found;
    } catch (const TodoError& e) {
        std::cerr << "calibrate: no loop overlap (lab 08's model is unfinished: " << e.what() << ")\n";
        return;
    }
    // the prediction less the longer of the two is what the overlap leaves alone
    const double stream = stream_ms(naive), rest = naive.total_ms - std::max(stream, naive.loop_ms);
    p.loop_overlap_power = overlap_power_for(stream, naive.loop_ms, measured - rest);
}

/// "kNarrowRows rows and D diagonals kNarrowSpacing apart": the bands narrow_gbs and
/// loop_overlap_power are measured on.
std::string spaced_band(index_t diagonals) {
    return std::to_string(kNarrowRows) + " rows and " + std::to_string(diagonals) + " diagonals " +
           std::to_string(kNarrowSpacing) + " apart";
}

/// The file's header: how each measured key was measured.
std::string calibration_header(const std::string& ceiling_how, index_t latency_rows) {
    return "lab 08 device parameters, written by calibrate\nbandwidth_gbs: " + ceiling_how +
           "; launch_us: cold median of csr-scalar on the 4x4 example\n"
           "step_ns, warp_step_ns, atomic_ns: csr-scalar, csr-vector, coo-atomic on one row of " +
           std::to_string(kLongRow) +
           " entries (double), less a launch, per step\n"
           "float_step_share: the same for csr-scalar in float, over step_ns\n"
           "row_ns: csr-vector on " +
           std::to_string(kShortRows) +
           " one-entry rows, less a launch, per row\n"
           "block_row_ns: bcsr-warp at the model's block shape on the same rows, less a launch, per block row\n"
           "sector_gbs: csr-scalar on " +
           std::to_string(kSectorRows) + " rows of " + std::to_string(kSectorRowLength) +
           " random entries (double), value and index bytes per second\n"
           "atomic_lanes_per_ns: coo-atomic on the same rows, 32 lanes per entry's warp\n"
           "line_atomic_ns_float, _double: coo-atomic on " +
           std::to_string(kQueueRows) + " rows of " + std::to_string(kQueueLong) + " random entries less " +
           std::to_string(kQueueShort) +
           ", per added atomic on each line of y\n"
           "narrow_gbs: dia-naive (float) on " +
           spaced_band(kNarrowDiagonals) +
           ", DIA bytes per second less a launch\n"
           "coo_gbs: coo-segmented (double) on a band of " +
           std::to_string(kNarrowRows) + " rows and " + std::to_string(kNarrowDiagonals) +
           " diagonals, COO bytes per second less a launch\n"
           "merge_gbs, csr5_gbs: csr-merge and csr5 (double) on the same band, CSR bytes per second less a launch\n"
           "latency_ns: dia-vec4 (float) on a band of " +
           std::to_string(latency_rows) + " rows and " + std::to_string(kLatencyDiagonals) +
           " diagonals, its threads x 32 bytes / (DIA bytes per ns less a launch)\n"
           "loop_overlap_power: dia-naive (float) on " +
           spaced_band(kOverlapDiagonals) +
           ": the k of (stream^k + loop^k)^(1/k) that the model needs there\n"
           "fixed_us_float.KERNEL, fixed_us_double.KERNEL: the kernel's cold median on the 4x4 example "
           "(a dense 64 x 64 matrix "
           "for lab 09's blocked and streamed kernels), microseconds\n"
           "sms, warps_per_sm, warp: the device's properties\n"
           "the other keys are the documented H100 defaults (format_model.hpp)";
}

}  // namespace

int calibrate_main(const std::vector<std::string>& args) {
    const Args a(args, {"--out"}, {"--help"}, "calibrate");
    if (a.has("--help")) {
        std::cout << kHelp;
        return 0;
    }
    if (!a.positional().empty()) {
        std::cerr << "calibrate: takes no file\n\n" << kHelp;
        return 2;
    }
    const std::string out = a.get("--out", "device_params.txt");
    if (auto why = backend_unavailable(Backend::cuda)) throw BackendUnavailable("CUDA: " + *why);
    DeviceParams p = h100_defaults();
    const std::string ceiling_how = measure_device(p);
    measure_chains(p);
    measure_rates(p);
    const index_t latency_rows = measure_latency(p);
    measure_fixed_costs(p);
    measure_loop_overlap(p);
    write_device_params(out, p, calibration_header(ceiling_how, latency_rows));
    std::printf(
        "calibrate  %s: %.1f GB/s (%s), launch %.2f us, "
        "step %.2f ns (float: x %.3f), warp step %.2f ns, atomic %.2f ns, "
        "row %.4f ns, block row %.4f ns, sectors %.0f GB/s, atomic lanes %.0f per ns, "
        "line atomic %.2f / %.2f ns (float / double), "
        "narrow %.0f GB/s, COO %.0f GB/s, csr-merge %.0f GB/s, csr5 %.0f GB/s, latency %.0f ns, "
        "fixed costs of %zu kernels, loop overlap power %.2f, "
        "%d SMs x %d warps -> %s\n",
        p.device.c_str(), p.bandwidth_gbs, ceiling_how.c_str(), p.launch_us, p.step_ns, p.float_step_share,
        p.warp_step_ns, p.atomic_ns, p.row_ns, p.block_row_ns, p.sector_gbs, p.atomic_lanes_per_ns,
        p.line_atomic_ns_float, p.line_atomic_ns_double, p.narrow_gbs, p.coo_gbs, p.merge_gbs, p.csr5_gbs, p.latency_ns,
        p.fixed_us_float.size(), p.loop_overlap_power, p.sms, p.warps_per_sm, out.c_str());
    return 0;
}

LabTool calibrate_tool() {
    return {"calibrate", "08-format-choice",
            "calibrate [--out FILE]    measure the device parameters of the format model (GPU)", calibrate_main};
}

}  // namespace kit::model
