// Lab 08's given code: the kit's model of every CUDA kernel (kit_kernels.hpp says why).
#include "kit_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/kit_error.hpp"
#include "format_choice.hpp"
#include "formats/csr5.hpp"
#include "formats/sell.hpp"
#include "io/generators.hpp"
#include "measure/bytes_model.hpp"

namespace kit::model {

double pure_launch_us(const DeviceParams& p) {
    return std::max(0.2 * p.launch_us, p.launch_us - 4 * p.latency_ns * 1e-3);
}

double stream_ms(const KernelPrediction& k) {
    return std::max({k.am_ms + k.gather_ms, k.sector_ms, k.atomic_ms, k.serial_ms});
}

const KernelPrediction* find_prediction(const std::vector<KernelPrediction>& kit, const std::string& variant) {
    for (const KernelPrediction& k : kit)
        if (k.variant == variant) return &k;
    return nullptr;
}

namespace {

constexpr int kCsr5Omega = 32;           // CSR5's tile: a warp of lanes
constexpr count_t kSegmentedChunks = 8;  // coo-segmented: 8 chunks of 32 entries per warp, one after the other
constexpr count_t kGemvBlock = 64;       // the dense kernels' 64 x 4 shape (lab 09's register_cuda.cu)
constexpr double kGemvThreadY = 4;

/// What the kit's model needs beyond the paper's inputs, from A itself.
struct Structure {
    count_t sell_slots = 0;                  // SELL-32-256's padded slots
    count_t sell_chunks = 0;                 // and its chunks
    std::vector<index_t> sell_chunk_widths;  // the widths of its nonempty chunks
    count_t csr5_full_tiles = 0;
    bool csr5_tail = false;
};

/// SELL-32-256's padded slots of one window, from the lengths of its nonempty rows (the
/// others are 0): sorted longest first, a chunk's first row is its longest; its chunks'
/// widths join `widths`.
count_t window_slots(std::vector<index_t>& lengths, std::vector<index_t>& widths) {
    std::sort(lengths.begin(), lengths.end(), std::greater<>());
    count_t slots = 0;
    for (std::size_t c = 0; c < lengths.size(); c += kSellDefaultC) {
        slots += static_cast<count_t>(lengths[c]) * kSellDefaultC;
        widths.push_back(lengths[c]);
    }
    lengths.clear();
    return slots;
}

/// In memory proportional to the entries, not the rows (a file may declare 10^9 rows): A is
/// normalized, so each nonempty row's entries are one run, in row order.
Structure structure_of(const CooMatrix& A, const RowLengthPmf& pmf) {
    Structure s;
    s.sell_chunks = (static_cast<count_t>(std::max<index_t>(A.rows, 0)) + kSellDefaultC - 1) / kSellDefaultC;
    std::vector<index_t> window;
    count_t window_of = -1;
    const count_t n = A.nnz();
    for (count_t k = 0; k < n;) {
        count_t e = k;
        while (e < n && A.row_idx[e] == A.row_idx[k]) ++e;
        const count_t w = A.row_idx[k] / kSellDefaultSigma;
        if (w != window_of) s.sell_slots += window_slots(window, s.sell_chunk_widths), window_of = w;
        window.push_back(static_cast<index_t>(e - k));
        k = e;
    }
    s.sell_slots += window_slots(window, s.sell_chunk_widths);
    const count_t tile = static_cast<count_t>(kCsr5Omega) * csr5_sigma(pmf.nnz, pmf.rows);
    s.csr5_full_tiles = pmf.nnz / tile;
    s.csr5_tail = pmf.nnz % tile != 0 || pmf.nnz == 0;
    return s;
}

/// AM again for other bytes at the same stream rate.
void set_bytes(KernelPrediction& k, count_t bytes, const DeviceParams& p) {
    k.bytes = bytes;
    const double transactions = std::ceil(static_cast<double>(bytes) / p.transaction_bytes);
    k.am_ms = transactions / (k.stream_gbs * 1e9 / p.transaction_bytes) * 1e3;
}

/// The kit's total: launches of pure_launch_us; the rounds before a thread's first product, at
/// latency_ns each; then the slowest of the paper's stream terms and the rounds of the thread's
/// loop (the same latency that the paper's occupancy term sees when few threads run: the
/// longer of the two counts, not both, unless `overlap_power` says they overlap only in part,
/// partly_hidden); then the compute.
void finish(KernelPrediction& k, int launches, double start_rounds, double loop_rounds, const DeviceParams& p,
            double overlap_power = kMaxOverlapPower) {
    k.launches = launches;
    k.rounds = start_rounds + loop_rounds;
    k.launch_ms = launches * pure_launch_us(p) * 1e-3;
    k.rounds_ms = k.rounds * p.latency_ns * 1e-6;
    k.loop_ms = loop_rounds * p.latency_ns * 1e-6;
    const double slowest = partly_hidden(stream_ms(k), k.loop_ms, overlap_power);
    k.total_ms = k.launch_ms + start_rounds * p.latency_ns * 1e-6 + slowest + k.ctc_m_ms + k.ctc_a_ms;
}

/// The rounds of a loop after its first group of loads, which the start-up rounds count.
double later_rounds(count_t trips, int unroll) { return std::max(0.0, unrolled_rounds(trips, unroll) - 1); }

/// For a kernel whose threads each walk a loop of column-major slots (ELL, HYB, SELL, DIA):
/// the paper's occupancy term charges every byte, vectors and pitch padding included, at the
/// rate few threads keep in flight; on a small matrix that is the loop's rounds counted again,
/// and x of a wide matrix charged though the loop reads only what the rows reach. The kit
/// counts the loop once, as rounds per wave of resident threads, and streams the bytes at the
/// width-limited rate. Returns the waves.
double waves_not_occupancy(KernelPrediction& k, double lane_bytes, double threads, const DeviceParams& p) {
    k.stream_gbs = std::min(p.bandwidth_gbs, p.narrow_gbs * lane_bytes / 4);
    set_bytes(k, k.bytes, p);
    return std::max(1.0, std::ceil(threads / resident_threads(p)));
}

/// The predictions under way: the paper's, the structure, and the kit's list so far.
class KitModel {
public:
    KitModel(const CooMatrix& A, const ModelReport& paper, count_t value_bytes, const DeviceParams& p)
        : paper_(paper), p_(p), st_(structure_of(A, paper.pmf)), vb_(value_bytes) {}

    /// The paper's prediction of a covered kernel, the start of a kit kernel's.
    KernelPrediction analog(const std::string& name) const {
        if (const KernelPrediction* k = find_prediction(paper_.kernels, name)) return *k;
        throw Error("predict_kit_kernels: the paper's prediction of " + name + " is missing");
    }

    void add(KernelPrediction k, const std::string& name, int launches, double start_rounds, double loop_rounds = 0,
             double overlap_power = kMaxOverlapPower) {
        k.variant = name;
        finish(k, launches, start_rounds, loop_rounds, p_, overlap_power);
        out_.push_back(std::move(k));
    }

    void coo_and_csr();
    void padded();
    void dia_bcsr();
    void dense();
    std::vector<KernelPrediction> take() { return std::move(out_); }

private:
    const ModelReport& paper_;
    const DeviceParams& p_;
    const Structure st_;
    const count_t vb_;
    std::vector<KernelPrediction> out_;
};

void KitModel::coo_and_csr() {
    const DeviceParams& p = p_;
    const Structure& st = st_;
    const count_t N = paper_.pmf.rows, nnz = paper_.pmf.nnz, longest = paper_.pmf.longest();
    const bool empty = nnz == 0;  // the COO kernels and CSR5's tiles launch nothing then
    // COO (lab 01): an entry, then its x (2 rounds); coo-segmented's warp walks its chunks one
    // after the other, 2 rounds each.
    add(analog("coo-atomic"), "coo-atomic", empty ? 0 : 1, empty ? 0 : 2);
    const double chunks = std::min<double>(kSegmentedChunks, std::ceil(static_cast<double>(nnz) / p.warp));
    add(analog("coo-segmented"), "coo-segmented", empty ? 0 : 1, empty ? 0 : 2, 2 * std::max(0.0, chunks - 1));

    // CSR (labs 00, 02): a row offset, a column index and value, x, then y for y += sum (4
    // rounds); the row walks are the paper's chains (csr-scalar's thread walks consecutive
    // entries, so its loop is the paper's chain, not rounds).
    KernelPrediction scalar = analog("csr-scalar");
    waves_not_occupancy(scalar, static_cast<double>(vb_) + 4, static_cast<double>(N), p);
    add(scalar, "csr", 1, 4);
    add(scalar, "csr-scalar", 1, 4);
    add(analog("csr-vector"), "csr-vector", 1, 4);
    KernelPrediction lanes = analog("csr-vector");
    int group = 2;  // choose_lanes: the smallest power of two >= the mean row length, in [2, 32]
    while (group < p.warp && group < paper_.mean) group *= 2;
    lanes.serial_ms =
        std::max(std::ceil(longest / static_cast<double>(group)) * p.warp_step_ns, N * p.row_ns * group / p.warp) *
        1e-6;
    add(lanes, "csr-lanes", 1, 4);
    // csr-merge and CSR5: equal shares of rows and entries per thread, so no row-long chain. Their
    // tiles stream below the bandwidth even on a band (staged in shared memory between barriers;
    // transposed, with descriptors and carries): at the rates calibrate measures there,
    // merge_gbs and csr5_gbs (without them, an H200's suite took 1/0.73 and 1/0.83 of the
    // predicted times at the median, h200-2026-11-29g).
    const auto balanced = [&](double gbs) {
        KernelPrediction k = analog("csr-vector");
        k.serial_ms = 0;
        k.stream_gbs = std::min(k.stream_gbs, gbs);
        set_bytes(k, k.bytes, p);
        return k;
    };
    // csr-merge: its tile's start, the tile's row offsets into shared memory, column indices and
    // values, x, y staged in shared memory, then the carries' atomics (6 rounds). The partition
    // runs at set-up.
    add(balanced(p.merge_gbs), "csr-merge", 1, 6);
    // CSR5 (lab 06): the tiles and their calibration (two launches, 3 + 2 rounds) where there
    // is a full tile, and the tail one warp per row (3 rounds).
    const bool tiles = st.csr5_full_tiles > 0;
    add(balanced(p.csr5_gbs), "csr5", (tiles ? 2 : 0) + (st.csr5_tail ? 1 : 0),
        (tiles ? 5 : 0) + (st.csr5_tail ? 3 : 0));
}

void KitModel::padded() {
    const DeviceParams& p = p_;
    const Structure& st = st_;
    const StorageInputs& in = paper_.inputs;
    const count_t N = paper_.pmf.rows, M = paper_.pmf.cols, nnz = paper_.pmf.nnz, longest = paper_.pmf.longest();
    const count_t value_bytes = vb_;
    // ELL, HYB (lab 04) and SELL (lab 11): a column index and value, x, then y (3 rounds; SELL
    // reads its chunk first, 4); column-major slots, a new line each trip, so the loop's trips
    // cost rounds (loads in groups of 4) instead of the paper's steps.
    const double lane = static_cast<double>(value_bytes) + 4, rows = static_cast<double>(N);
    KernelPrediction ell = analog("ell");
    ell.serial_ms = 0;
    double waves = waves_not_occupancy(ell, lane, rows, p);
    add(ell, "ell", 1, 3, waves * later_rounds(longest, kLoopUnroll));
    KernelPrediction hyb = analog("hyb");
    const bool coo_part = paper_.hyb.nnz_coo > 0;
    hyb.serial_ms = coo_part ? (longest - in.hyb_width) * p.atomic_ns * 1e-6 : 0;
    waves = waves_not_occupancy(hyb, lane, rows, p);
    add(hyb, "hyb", coo_part ? 2 : 1, 3 + (coo_part ? 2 : 0), waves * later_rounds(in.hyb_width, kLoopUnroll));
    KernelPrediction sell = analog("ell");
    sell.bytes = sell_bytes(N, M, st.sell_chunks, st.sell_slots, value_bytes);
    sell.feasible = padding_accepted(st.sell_slots, nnz);
    sell.why_not = sell.feasible ? "" : "SELL would store " + std::to_string(st.sell_slots) + " slots";
    // sell-auto shares a long row among T threads (lab 11): T times the threads, a T-th of the
    // trips each, and one more round, through shared memory, for the partial sums.
    const auto resident = static_cast<count_t>(resident_threads(p));
    const index_t T = sell_threads_for(static_cast<index_t>(kSellDefaultC), st.sell_slots, static_cast<index_t>(N),
                                       value_bytes, resident);
    for (const auto& [name, threads] : {std::pair<const char*, index_t>{"sell", 1}, {"sell-auto", T}}) {
        // Chunks wider than the limit go to the wide kernel (lab 11's sell_split.cu): one more
        // launch and its own rounds, and a row's segments meet on one y entry, atomic by atomic.
        const index_t limit = sell_wide_limit(threads, st.sell_slots, static_cast<index_t>(N), resident);
        const bool wide = longest > limit;
        const count_t segment = sell_wide_segment(st.sell_chunk_widths, limit, resident);
        sell.serial_ms = wide ? static_cast<double>((longest + segment - 1) / segment) * p.atomic_ns * 1e-6 : 0;
        waves = waves_not_occupancy(sell, lane, rows * threads, p);
        add(sell, name, wide ? 2 : 1, (threads > 1 ? 5 : 4) + (wide ? 4 : 0),
            waves * later_rounds((std::min<count_t>(longest, limit) + threads - 1) / threads, kLoopUnroll));
    }
}

void KitModel::dia_bcsr() {
    const DeviceParams& p = p_;
    const StorageInputs& in = paper_.inputs;
    const count_t N = paper_.pmf.rows, M = paper_.pmf.cols;
    const count_t value_bytes = vb_;
    // DIA (labs 03, 07): an offset, x, then y around the first diagonal (3 rounds); then a
    // value and x per diagonal, a new line each. Lab 03's loop (unrolled by 4) leaves up to 3
    // single trips, whose rounds the stream hides only in part (loop_overlap_power).
    const double vb = static_cast<double>(value_bytes), rows = static_cast<double>(N);
    for (const char* name : {"dia-naive", "dia-shared"}) {
        KernelPrediction dia = analog("dia-naive");
        dia.serial_ms = 0;
        const double waves = waves_not_occupancy(dia, vb, rows, p);
        add(dia, name, 1, 3, waves * later_rounds(in.diagonals, kLoopUnroll), p.loop_overlap_power);
    }
    for (const char* name : {"dia-vec4", "dia-ldg", "dia-texture"}) {
        KernelPrediction dia = analog("dia-vec4");
        dia.serial_ms = 0;
        const double waves = waves_not_occupancy(dia, 4 * vb, std::ceil(rows / 4), p);
        if (std::string(name) == "dia-texture" && value_bytes != 4) {
            dia.feasible = false;
            dia.why_not = "dia-texture reads x through a float texture";
        }
        add(dia, name, 1, 3, waves * later_rounds(in.diagonals, kQuadLoopUnroll));
    }

    // BCSR (lab 05) at the model's block shape: a warp per block row as csr-vector walks a
    // row, but the warp then reduces r sums, so a block row costs block_row_ns, which calibrate
    // times at this shape (csr-vector's row term, rows x row_ns, was 1.4 to 1.7 times the
    // stencils' times, h200-2026-11-29j); bcsr-2kernel writes every block's partial sums and
    // reads them back in a second launch.
    KernelPrediction bcsr = analog("csr-vector");
    bcsr.gather_ms /= in.bcsr_c;  // one x read serves a block column's r rows
    set_bytes(bcsr, bcsr_bytes(N, M, in.bcsr_blocks, in.bcsr_r, in.bcsr_c, value_bytes), p);
    // The warp's walk stays csr-vector's, a step per 32 entries (a step per 32 blocks priced the
    // dense matrix at 0.7 of its time): each lane's block brings r x c values and c of x.
    const double longest = static_cast<double>(paper_.pmf.longest());
    const double block_rows = std::ceil(rows / in.bcsr_r), longest_blocks = std::ceil(longest / in.bcsr_c);
    bcsr.serial_ms = std::max(std::ceil(longest / p.warp) * p.warp_step_ns, block_rows * p.block_row_ns) * 1e-6;
    add(bcsr, "bcsr-warp", 1, 4);
    // bcsr-2kernel's second launch gives each row one thread, which adds the partial sums of its
    // block row one after another: a chain of at least longest / c steps (step_ns each, as a
    // thread walking its row; dense rows of 250,000 entries took 3.0 ms in double at 1 x 4 on an
    // H200, h200-2026-11-29g).
    KernelPrediction two = bcsr;
    two.serial_ms = longest_blocks * p.step_ns * 1e-6;  // the longest row's partial sums
    set_bytes(two, bcsr.bytes + 2 * in.bcsr_blocks * in.bcsr_r * value_bytes, p);
    add(two, "bcsr-2kernel", 2, 6);
    // bcsr-auto runs whichever of the two its tuner rates faster (lab 05), at the tuner's block
    // shape, which the model does not repeat: the faster prediction of the two.
    const KernelPrediction &warp = *find_prediction(out_, "bcsr-warp"),
                           &two_kernel = *find_prediction(out_, "bcsr-2kernel");
    KernelPrediction faster = warp.total_ms <= two_kernel.total_ms ? warp : two_kernel;
    faster.variant = "bcsr-auto";
    out_.push_back(std::move(faster));
}

/// The dense kernels (lab 09), where the dense container takes the matrix: their loops run
/// over x's length, not over a row's entries. gemv-thread's thread takes its row's columns one
/// after the other, a chain of steps like csr-scalar's thread on a long row (step_ns each). The
/// blocked kernels march over 64-column blocks with the next block prefetched: one round per
/// block (A x) and two with A^T stored, as measured on the real set (impcol_a, 207 columns:
/// 6.96 us against 11.14 us), plus one round for the transposed reduction. gemv-streamed cuts the
/// march into slices to fill one wave of thread blocks; with more than one slice, each writes
/// its partial sums, counts itself in, and the last reads them all back (3 rounds).
void KitModel::dense() {
    const DeviceParams& p = p_;
    const count_t nx = paper_.pmf.cols, ny = paper_.pmf.rows;
    const bool empty = nx == 0 || ny == 0;
    const double waves = std::max(1.0, std::ceil(static_cast<double>(ny) / resident_threads(p)));
    const double march = std::max<double>(1, std::ceil(static_cast<double>(nx) / kGemvBlock));
    const double thread_blocks = std::ceil(static_cast<double>(ny) / kGemvBlock);
    const double block_threads = kGemvBlock / (16.0 / static_cast<double>(vb_)) * kGemvThreadY;  // 16-byte loads
    const double wave = std::floor(resident_threads(p) / block_threads);
    const double slices = std::clamp(std::floor(wave / std::max(1.0, thread_blocks)), 1.0, march);
    const double per_slice = std::ceil(march / slices);
    const int streamed_launches = (ny >= kGemvBlock ? 1 : 0) + (ny % kGemvBlock != 0 ? 1 : 0);
    for (const bool t : {false, true}) {
        const std::string suffix = t ? "-t" : "";
        const double per_block = t ? 2 : 1, start = t ? 3 : 2;
        KernelPrediction thread = analog("gemv-streamed");
        thread.serial_ms = waves * static_cast<double>(nx) * p.step_ns * 1e-6;
        add(thread, "gemv-thread" + suffix, ny > 0 ? 1 : 0, ny > 0 ? 2 : 0);
        add(analog("gemv-streamed"), "gemv-blocked" + suffix, ny > 0 ? 1 : 0, ny > 0 ? start : 0,
            per_block * (march - 1));
        for (const char* name : {"gemv-streamed", "gemv-tuned"})
            add(analog("gemv-streamed"), name + suffix, empty ? (ny > 0 ? 1 : 0) : streamed_launches,
                empty ? 0 : start + (slices > 1 ? 3 : 0), per_block * (per_slice - 1));
    }
}

}  // namespace

std::vector<KernelPrediction> predict_kit_kernels(const CooMatrix& A, const ModelReport& paper, count_t value_bytes,
                                                  const DeviceParams& p) {
    KitModel model(A, paper, value_bytes, p);
    model.coo_and_csr();
    model.padded();
    model.dia_bcsr();
    model.dense();
    return model.take();
}

bool timed_on_dense_block(const std::string& variant) {
    for (const char* dense : {"gemv-streamed", "gemv-tuned", "gemv-blocked"})
        if (variant.rfind(dense, 0) == 0) return true;
    return false;
}

CooMatrix fixed_cost_matrix(const std::string& variant) {
    if (!timed_on_dense_block(variant)) return example4x4();
    return generate_dense(kGemvBlock, kGemvBlock, 1);
}

void apply_fixed_costs(std::vector<KernelPrediction>& kit, Precision precision, const DeviceParams& p) {
    const std::map<std::string, double>& fixed_us = p.fixed_us(value_bytes_of(precision));
    if (fixed_us.empty()) return;
    DeviceParams modelled = p;
    modelled.fixed_us_float.clear();  // the model's own figures on the matrices calibrate timed, to take away
    modelled.fixed_us_double.clear();
    std::map<bool, std::vector<KernelPrediction>> small;  // keyed by timed_on_dense_block
    for (KernelPrediction& k : kit) {
        const auto fixed = fixed_us.find(k.variant);
        if (fixed == fixed_us.end() || k.launches == 0) continue;
        const bool block = timed_on_dense_block(k.variant);
        if (!small.count(block)) small[block] = model_report(fixed_cost_matrix(k.variant), precision, modelled).kit;
        const KernelPrediction* own = find_prediction(small[block], k.variant);
        if (!own) continue;
        k.fixed_ms = fixed->second * 1e-3;
        k.total_ms = k.fixed_ms + std::max(0.0, k.total_ms - own->total_ms);
    }
}

}  // namespace kit::model
