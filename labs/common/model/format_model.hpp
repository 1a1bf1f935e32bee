/// @file format_model.hpp
/// @brief The interface of the format-choice model (lab 08: Li, Yang and Li, TPDS 2014) that the
/// CLI and the benchmark use without including any lab header: the row-length PMF, the device
/// parameters and their file, the prediction records, and the hook the lab installs. The time
/// model's own terms live in the lab (labs/08-format-choice/time_model.hpp).
///
/// The model describes an N x M matrix by its row-length distribution: b_i rows hold i
/// entries, p_i = b_i / N. From the PMF alone it predicts each format's storage and each
/// kernel's time, and picks the kernel with the smallest predicted time. The student's
/// functions (labs/08-format-choice/format_choice.hpp) fill these records; lab 08's
/// register.cpp installs them with set_format_model(), so `spmv-kit info` and
/// `spmv-kit run --format auto` use them without including any lab header.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "formats/coo.hpp"
#include "core/types.hpp"

namespace kit::model {

/// @brief The row-length distribution of a matrix: rows_with[i] = b_i, the rows holding i entries.
struct RowLengthPmf {
    index_t rows = 0;                ///< N
    index_t cols = 0;                ///< M (columns)
    count_t nnz = 0;                 ///< entries, sum of i * b_i
    std::vector<count_t> rows_with;  ///< b_0 .. b_longest (empty for a matrix with no rows)
    /// @brief The longest row (the largest i with b_i > 0), 0 if there is none.
    index_t longest() const;
    /// @brief p_i = b_i / N, 0 outside 0..longest or when N = 0. @param i [in] row length
    double p(index_t i) const;
};

/// @brief What HYB with an ELL part of width K holds, from the PMF (the paper's NNZ(X <= K)).
struct HybSplit {
    index_t K = 0;        ///< ELL width
    double p_le = 0;      ///< P(X <= K)
    double p_gt = 0;      ///< P(X > K)
    double e_le = 0;      ///< E(X | X <= K), 0 if no row qualifies
    double e_gt = 0;      ///< E(X | X > K), 0 if no row qualifies
    count_t nnz_le = 0;   ///< entries of rows with at most K entries, = E(X|X<=K) N P(X<=K)
    count_t nnz_gt = 0;   ///< entries of rows longer than K, = E(X|X>K) N P(X>K)
    count_t nnz_ell = 0;  ///< entries the ELL part holds: all of short rows, the first K of long ones
    count_t nnz_coo = 0;  ///< entries the COO part holds: what long rows have past K
};

/// @brief The formats whose storage the model predicts.
enum class ModelFormat { coo, csr, ell, hyb, dia, bcsr, dense };

/// @brief Lower-case name of a format ("coo", "csr", ...). @param f [in] format
std::string to_string(ModelFormat f);

/// @brief Figures the PMF does not carry, needed by DIA, BCSR and the padding.
struct StorageInputs {
    index_t diagonals = 0;        ///< occupied diagonals (distinct col - row)
    int bcsr_r = 2;               ///< BCSR block rows
    int bcsr_c = 2;               ///< BCSR block columns
    count_t bcsr_blocks = 0;      ///< nonempty r x c blocks (exact count)
    index_t hyb_width = 0;        ///< K of the HYB container (kit::hyb_ell_width)
    index_t pitch_multiple = 32;  ///< ELL and DIA pitch alignment (the containers' default)
    /// @brief The ELL and DIA pitch of `rows` rows: rounded up to pitch_multiple, as the
    /// containers store them (pitch_multiple must be at least 1). @param rows [in] N
    count_t pitch_for(count_t rows) const { return (rows + pitch_multiple - 1) / pitch_multiple * pitch_multiple; }
};

/// @brief DeviceParams::loop_overlap_power at which a stream hides a loop's rounds whole (or
/// they hide it): the longer of the two is the time, as before calibrate measured the power.
inline constexpr double kMaxOverlapPower = 64;

/// @brief Device parameters of the time model. Defaults: an NVIDIA H100 SXM (see h100_defaults());
/// launch_us, the chain figures (step_ns, warp_step_ns, row_ns, block_row_ns, atomic_ns) and
/// step_ns's float share, sector_gbs, atomic_lanes_per_ns, line_atomic_ns_float and _double, narrow_gbs,
/// coo_gbs, merge_gbs, csr5_gbs and latency_ns are what `spmv-kit calibrate` measures on its own
/// matrices (one long row, many one-entry rows, rows of 64 random entries, 1024 rows of 32 and
/// 128, three bands), and sms, warps_per_sm and warp it reads from the device; the defaults are
/// an H100's.
struct DeviceParams {
    std::string device = "NVIDIA H100 (documented defaults, not measured)";  ///< where they come from
    double bandwidth_gbs = 3000;        ///< DRAM read bandwidth, decimal GB/s (the paper's CR x RW)
    double transaction_bytes = 32;      ///< RW: bytes of one DRAM transaction (a sector)
    double clock_ghz = 1.98;            ///< F_S: SM clock, GHz
    int sms = 132;                      ///< streaming multiprocessors
    int lanes_per_sm = 64;              ///< FP64 lanes per SM (f32 counts twice as many); C = sms x lanes
    int warp = 32;                      ///< W: threads per warp
    double launch_us = 5.6;             ///< one kernel launch and its completion, microseconds
    double step_ns = 89.0;              ///< one iteration of one thread's loop over its row (a load's latency)
    double warp_step_ns = 221.0;        ///< one iteration of one warp's loop over its row (csr-vector)
    double float_step_share = 1;        ///< step_ns in float over step_ns (csr-scalar on calibrate's long row in
                                        ///< both precisions; 1: not measured). None for the warp's walk: one warp
                                        ///< alone on a row overstates what many warps gain in float (handout 08)
    double row_ns = 0.22;               ///< GPU-wide cost of one row of a warp-per-row kernel (rows / s retired)
    double block_row_ns = 0.26;         ///< the same for a block row of bcsr-warp at the model's block shape, whose
                                        ///< warp then reduces one sum per row of the block (bcsr-warp on one-entry
                                        ///< rows; default: about 1.2 x row_ns, as an H200's 2 x 1 stencil runs took)
    double atomic_ns = 1.75;            ///< one atomicAdd on the address the previous one hit (a long row's y)
    double atomic_lanes_per_ns = 1240;  ///< GPU-wide rate of atomicAdd lanes when a warp's 32 lanes hit one y entry
    double sector_gbs = 680;            ///< bytes of values and indices per second when each thread reads its own
                                        ///< lines from L2 (csr-scalar's long rows), GB/s
    double narrow_gbs = 2400;           ///< DRAM rate of a kernel whose lanes each load 4 bytes per step (dia-naive in
                                        ///< float): a warp's load is one request, so a kernel loading b bytes per lane
                                        ///< streams at min(bandwidth_gbs, narrow_gbs x b / 4), GB/s
    double coo_gbs = 2350;              ///< rate at which a COO kernel streams its entries (value, row and column
                                        ///< index per lane, one entry per lane and step): coo-segmented in double on a
                                        ///< band, COO bytes per second, GB/s
    double merge_gbs = 2050;            ///< rate at which csr-merge streams CSR's bytes (its tiles are staged in shared
                                        ///< memory between barriers): csr-merge in double on coo_gbs's band, CSR bytes
                                        ///< per second, GB/s (default: about 0.7 of bandwidth_gbs; an H200: 0.71)
    double csr5_gbs = 2050;             ///< the same for csr5, whose tiles are transposed, with descriptors and carries
                                        ///< (an H200: 0.79 of its bandwidth)
    double line_bytes = 128;            ///< bytes of one L2 cache line: atomics on the y entries of one line queue
                                        ///< behind each other (atomic_line_ms)
    double line_atomic_ns_float = 3.1;  ///< one more float atomicAdd on a line of y when all of y is a few lines
                                        ///< (coo-atomic on 1024 rows: 128 random entries a row less 32, per added
                                        ///< atomic per line; 3.08 on an H200, h200-2026-11-28e/atomic_small_y.csv)
    double line_atomic_ns_double = 4.0;  ///< the same in double (3.97 on that H200)
    double latency_ns = 900;             ///< DRAM latency under load, as Little's law sees it (occupancy_gbs): bytes in
                                         ///< flight / rate for a launch that holds too few threads to fill DRAM, ns
    double loop_overlap_power = kMaxOverlapPower;  ///< k of the DIA loop kernels' (stream^k + loop rounds^k)^(1/k):
                                                   ///< dia-naive in float on a band of 7 diagonals, where the
                                                   ///< stream and its leftover single trips take about as long;
                                                   ///< kMaxOverlapPower: the longer of the two
    double l1_bytes = 256 * 1024;                  ///< L1 per SM: holds the lines a warp per row re-reads while it fits
    int warps_per_sm = 64;     ///< resident warps per SM (full occupancy): maxThreadsPerMultiProcessor / warp
    double gather_gbs = 5000;  ///< rate of x gathers through L2 (scattered value reads), GB/s; charged only
                               ///< when the entries do not lie on few diagonals
    double pcie_gbs = 25;      ///< host-to-device copy bandwidth, for DDT, GB/s
    /// Each kit CUDA kernel's cold median in float on its fixed_cost_matrix (`spmv-kit calibrate`),
    /// microseconds: its fixed cost, which the kit's model charges in place of its own prediction
    /// on that matrix (apply_fixed_costs). Empty (the defaults, an older file): the model's own figures.
    std::map<std::string, double> fixed_us_float = {};
    std::map<std::string, double> fixed_us_double = {};  ///< the same in double (some kernels differ: gemv-streamed)

    /// @brief line_atomic_ns_float or _double for a y value of `value_bytes` (4 or 8).
    /// @param value_bytes [in] bytes of one y value
    double line_atomic_ns(double value_bytes) const {
        return value_bytes <= 4 ? line_atomic_ns_float : line_atomic_ns_double;
    }
    /// @brief These parameters as a run with values of `value_bytes` (4 or 8) sees them: in float,
    /// step_ns times its float share, which is then 1 (so a second call changes nothing).
    /// @param value_bytes [in] bytes of one value  @return the parameters of that precision
    DeviceParams for_values(double value_bytes) const {
        DeviceParams p = *this;
        if (value_bytes <= 4) p.step_ns *= float_step_share;
        p.float_step_share = 1;
        return p;
    }
    /// @brief fixed_us_float or fixed_us_double for values of `value_bytes` (4 or 8).
    /// @param value_bytes [in] bytes of one value
    const std::map<std::string, double>& fixed_us(double value_bytes) const {
        return value_bytes <= 4 ? fixed_us_float : fixed_us_double;
    }
    /// @copydoc fixed_us(double) const
    std::map<std::string, double>& fixed_us(double value_bytes) {
        return value_bytes <= 4 ? fixed_us_float : fixed_us_double;
    }
};

/// @brief The documented H100 defaults, used when no calibration file exists.
DeviceParams h100_defaults();

/// @brief Reads a calibration file: `key value` lines, `#` comments; throws InputError naming
/// file:line on an unknown key or a bad value. Keys are DeviceParams' member names.
/// @param path [in] file written by `spmv-kit calibrate`
DeviceParams read_device_params(const std::string& path);

/// @brief Writes the parameters in the format read_device_params() reads.
/// @param path [in] output file  @param p [in] parameters  @param header [in] comment lines (without '#')
void write_device_params(const std::string& path, const DeviceParams& p, const std::string& header);

/// @brief The parameters to use: the file named by $KIT_DEVICE_PARAMS if set, else h100_defaults().
/// @param source [out] optional: "file PATH" or "H100 defaults"
DeviceParams load_device_params(std::string* source = nullptr);

/// @brief One kernel's predicted time, term by term (milliseconds).
struct KernelPrediction {
    std::string variant;    ///< name of the registered CUDA variant
    ModelFormat format{};   ///< its storage format
    count_t bytes = 0;      ///< DS: the format's bytes model (matrix arrays and vectors)
    double ddt_ms = 0;      ///< DDT: copying the matrix to the device once (not part of total_ms)
    double am_ms = 0;       ///< AM: ceil(DS / RW) transactions at CR = stream rate / RW (the paper: bandwidth)
    double stream_gbs = 0;  ///< the kernel's stream rate: min(bandwidth, narrow_gbs x lane bytes / 4, occupancy_gbs,
                            ///< coo_gbs for the COO kernels)
                            ///< (not in the paper)
    double gather_ms = 0;   ///< x gathers: one scattered read of x per stored entry (not in the paper)
    double sector_ms = 0;   ///< csr-scalar's rows read line by line per thread once L1 overflows (not in the paper)
    double atomic_ms = 0;   ///< coo-atomic's lanes queued on one y entry per warp, min(E(X), W) deep, or on the
                            ///< few y lines of long rows (atomic_line_ms), whichever is longer (not in the paper)
    double ctc_m_ms = 0;    ///< CTC_m: multiplications on C lanes
    double ctc_a_ms = 0;    ///< CTC_a: additions (the warp reduction for a warp per row)
    double serial_ms = 0;   ///< the longest chain of dependent steps: a thread's or warp's loop over its
                            ///< row, atomics on one y entry, or a warp per row (not in the paper)
    double launch_ms = 0;   ///< kernel launches (not in the paper)
    int launches = 1;       ///< kernel launches of one SpMV (the kit's model, kit_kernels.cpp)
    double rounds = 0;      ///< dependent DRAM round trips on the critical path of a cold call (the kit's model)
    double rounds_ms = 0;   ///< rounds x latency_ns (the kit's model; 0 in the paper's)
    double loop_ms = 0;     ///< the rounds of a thread's loop after its first loads, at latency_ns each (kit's model)
    double fixed_ms = 0;    ///< the kernel's measured time on its fixed_cost_matrix (DeviceParams::fixed_us()), or 0
    double total_ms = 0;    ///< predicted time of one SpMV
    bool feasible = true;   ///< false if the kit's container would refuse the conversion
    std::string why_not;    ///< why it is not feasible
};

/// @brief One format's predicted storage next to the container's.
struct FormatStorage {
    ModelFormat format{};  ///< format
    count_t bytes = 0;     ///< predicted bytes model (arrays as stored, padding included, and vectors)
    bool feasible = true;  ///< false if the kit's container would refuse it
};

/// @brief Everything `spmv-kit info` prints and `run --format auto` needs.
struct ModelReport {
    RowLengthPmf pmf;                       ///< the PMF
    double mean = 0;                        ///< E(X)
    HybSplit hyb;                           ///< the split at the kit's HYB width K
    StorageInputs inputs;                   ///< diagonals, BCSR blocks, K
    std::vector<FormatStorage> storage;     ///< one per ModelFormat
    std::vector<KernelPrediction> kernels;  ///< the paper's model (step 3): one per covered CUDA variant
    std::vector<KernelPrediction> kit;      ///< the kit's model: every CUDA SpMV kernel of the kit (kit_kernels.cpp)
    std::string pick;                       ///< the predicted fastest variant of `kit`
    std::string reason;                     ///< one line: why it was picked
};

/// @brief The lab's whole flow: matrix, precision, device parameters -> report.
using FormatModelHook = std::function<ModelReport(const CooMatrix&, Precision, const DeviceParams&)>;

/// @brief Installs the lab's model (called by lab 08's register.cpp). @param hook [in] the flow
void set_format_model(FormatModelHook hook);

/// @brief Runs the installed model; throws Error if lab 08 is not built in, and the lab's
/// TodoError while its starter is unfinished.
/// @param A [in] normalized hub matrix  @param precision [in] working precision
/// @param params [in] device parameters
ModelReport predict_formats(const CooMatrix& A, Precision precision, const DeviceParams& params);

}  // namespace kit::model
