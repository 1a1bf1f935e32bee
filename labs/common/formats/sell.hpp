/// @file sell.hpp
/// @brief SELL-C-sigma (Kreutzer, Hager, Wellein, Fehske and Bishop, SIAM J. Sci. Comput.
/// 36(5), 2014), with the conversions from and to the COO hub.
///
/// ELL pads every row to the longest row of the matrix; SELL-C-sigma pads only inside chunks
/// of C consecutive rows, after sorting the rows by length (longest first) inside windows of
/// sigma rows, so that rows of similar length share a chunk. Each chunk is an ELL block of
/// C rows stored column-major: slot k of the row in lane l of chunk c lives at
/// chunk_ptr[c] + k * C + l. One thread per row (a warp per 32 lanes) then reads consecutive
/// addresses at every k, as in ELL, but only as many slots as its own chunk needs.
///
/// Worked example, the kit's 4x4 matrix with C = 2 and sigma = 4 (row lengths 2 2 3 2):
/// sorting the one window longest first (ties keep their order) gives perm = [2 0 1 3],
/// so chunk 0 holds rows 2 and 0 (width 3) and chunk 1 rows 1 and 3 (width 2).
/// @code
///     A = | 1 7 0 0 |   position p: 0   1  | 2   3       perm        = [2 0 | 1 3]
///         | 0 2 8 0 |   row:        2   0  | 1   3       chunk_width = [3 | 2]
///         | 5 0 3 9 |                                    chunk_ptr   = [0 6 10]
///         | 0 6 0 4 |
///
///     chunk 0 (rows 2, 0):  slot 0: 5 1   slot 1: 3 7   slot 2: 9 *
///     chunk 1 (rows 1, 3):  slot 0: 2 6   slot 1: 8 4
///
///     vals    = [5 1 3 7 9 * | 2 6 8 4]
///     col_idx = [0 0 2 1 3 * | 1 1 2 3]      10 slots for 9 nonzeros: beta = 0.9
/// @endcode
/// `*` marks padding: value 0 and column Sell::kPadding (-1). The last chunk has C lanes
/// even when fewer rows are left: lanes p >= rows are padding in every slot and have no
/// entry in perm. A kernel skips padding by its column and writes y[perm[p]].
#pragma once

#include <string>
#include <vector>

#include "formats/coo.hpp"

namespace kit {

/// Rows per chunk when none is given: a warp, so that a chunk is one warp's work.
inline constexpr index_t kSellDefaultC = 32;
/// Sorting window when none is given: 8 chunks of the default C. Rows move at most 256
/// positions, so x and y stay near their natural order (cache lines are shared by nearby
/// rows), while a window still gathers rows of like length from 8 chunks.
inline constexpr index_t kSellDefaultSigma = 256;
/// Largest chunk height the kit accepts (a launch's thread block is independent of C).
inline constexpr index_t kSellMaxC = 1024;
/// Largest sorting window the kit accepts (larger windows are all a global sort here).
inline constexpr index_t kSellMaxSigma = 1 << 24;
/// Most CUDA threads that share one row (SELL-P's T, Anzt, Tomov and Dongarra 2014).
inline constexpr index_t kSellMaxThreads = 8;
/// Thread block of the split kernel (several threads per row): it holds 256 / (C * T) chunks,
/// so sell_threads_for keeps C * T within it.
inline constexpr index_t kSellSplitBlock = 256;
/// Bytes of matrix (a slot's value and column) that each thread of a row should stream: below,
/// a second thread per row costs more than it brings. In float 128 bytes are 16 slots, in
/// double 10.7. H200, cold (bench/results/h200-2026-11-29m/sell_threads_sweep.csv, with the
/// split kernel loading y before its loop): in float T = 2 lost 11% at 27 slots a row (FEM) and
/// T = 4 won 12% at 81 (radius5_640x480), T = 8 lost there; in double T = 2 won 2% cold and 4%
/// steady at 27 slots, and lost 1% at 7 (stencil3d7).
inline constexpr double kSellBytesPerThread = 128.0;

/// A chunk is "wide" when its width exceeds this many slots per CUDA thread of a row and (on a
/// GPU the row kernels fill) kSellWideOverMean mean stored rows: one thread would walk it long
/// after the other chunks are done (the power-law suite matrix: a chunk of 632,173 slots a row,
/// 242 ms in double for one thread per row, csr-merge 0.11 ms; h200-2026-11-28d/summary.csv).
inline constexpr index_t kSellWideSlotsPerThread = 128;
/// The other bound of a wide chunk, in mean stored rows, so that a matrix of uniformly long rows
/// (radius-5) keeps them in the row kernels: there they fill the GPU at no extra cost. Dropped
/// when the row kernels' threads (rows x T) are fewer than the GPU holds at once: the dense
/// 2000 x 2000 suite matrix's 63 chunks, all 2000 wide, left half the SMs of an H200 idle
/// (sell-auto 0.104 ms, cuSPARSE CSR 0.021 ms; h200-2026-11-29/suite/summary.csv).
inline constexpr double kSellWideOverMean = 4.0;
/// Slots of a wide chunk's rows that one thread block of the wide kernel takes (its segment), as
/// long as the segments' blocks fill the GPU; a row's segments meet on its y entry atomically,
/// so longer segments mean a shorter chain of atomics on the power-law matrix's longest row.
inline constexpr index_t kSellWideSegment = 256;
/// Shortest segment: sell_wide_plan halves kSellWideSegment down to this while the segments'
/// thread blocks (kSellSplitBlock threads each) are fewer than the GPU holds at once (the dense
/// 2000 x 2000 matrix: 504 segments of 256 slots filled half of an H200). At 64 slots a thread
/// of a 32-row chunk's block still sums 8 of them before the shared-memory reduction.
inline constexpr index_t kSellWideMinSegment = 64;
/// Most segments that one row of a wide chunk may have for sell_wide_plan to halve them: its
/// segments' atomics on one y entry follow each other (the suite matrix with 4 dense rows of
/// 250,000 slots took 6 us longer in double with 128-slot segments than with 256).
inline constexpr index_t kSellWideMaxChain = 64;

/// @brief The two parameters of SELL-C-sigma; 0 means the default.
struct SellParams {
    index_t C = 0;      ///< rows per chunk (0: kSellDefaultC)
    index_t sigma = 0;  ///< sorting window in rows: 1 (no sorting) or a multiple of C (0: the default, at least C)
    /// CUDA threads that share each row, 1, 2, 4 or 8 with C * threads <= kSellMaxC (0: 1).
    /// Not a layout change: the arrays are the same; it travels with the matrix so that the
    /// launch sees it.
    index_t threads = 0;
};

/// @brief Limits that stop a SELL conversion before it exhausts memory.
struct SellLimits {
    double max_fill = 3.0;          ///< refuse if stored slots > max_fill * nnz + floor_slots
    count_t floor_slots = 1 << 16;  ///< so that tiny matrices are never refused
};

/// @brief Non-owning view of a SELL-C-sigma matrix, as kernels take it.
template <class T>
struct SellView {
    index_t rows;                ///< number of rows
    index_t cols;                ///< number of columns
    index_t C;                   ///< rows (lanes) per chunk
    index_t threads;             ///< CUDA threads that share each row (SellParams::threads)
    index_t chunks;              ///< ceil(rows / C)
    const index_t* chunk_ptr;    ///< chunks + 1 offsets: chunk c's slots are [chunk_ptr[c], chunk_ptr[c+1])
    const index_t* chunk_width;  ///< slots per row of each chunk; 0 in a device view for a wide one (sell_wide_plan)
    const index_t* perm;         ///< perm[p]: the row of A stored at position p = c * C + lane (p < rows)
    index_t rows_in_place;       ///< 1 when sigma = 1: perm[p] = p, so a kernel may skip reading perm
    const index_t* col_idx;      ///< col_idx[chunk_ptr[c] + k * C + lane]; -1 marks padding
    const T* vals;               ///< vals[chunk_ptr[c] + k * C + lane]; 0 in padding
    index_t wide_segments;       ///< segments of the wide chunks (sell_wide_plan); 0 in a host view
    const index_t* wide_chunk;   ///< wide_chunk[s]: the chunk of segment s
    const index_t* wide_from;    ///< wide_from[s]: its first slot, a multiple of wide_slots
    index_t wide_slots;          ///< slots of a row that a segment spans (SellWidePlan::segment); 0 in a host view
};

/// @brief How a GPU run splits SELL's chunks between the row kernels and the given wide kernel
/// (sell_split.cu): a chunk wider than sell_wide_limit() keeps its slots, but the row kernels
/// see width 0 there, and the wide kernel takes its rows in segments of `segment` slots, one
/// thread block each, adding each segment's sums to y atomically.
struct SellWidePlan {
    index_t segment = kSellWideSegment;  ///< slots of a row per segment, kSellWideMinSegment..kSellWideSegment
    std::vector<index_t> row_widths;     ///< chunk_width as the row kernels see it: 0 for a wide chunk
    std::vector<index_t> wide_chunk;     ///< per segment: its chunk
    std::vector<index_t> wide_from;      ///< per segment: its first slot
};

/// @brief The parameters a conversion uses for `p` (defaults filled in), checked: C in
/// 1..kSellMaxC, sigma 1 or a multiple of C up to kSellMaxSigma. Throws kit::Error otherwise.
/// @param p [in] requested parameters (0: default)
SellParams sell_resolve(SellParams p);

/// @brief The threads per row the kit picks: the largest power of two T <= kSellMaxThreads
/// that leaves each thread kSellBytesPerThread bytes or more of the mean row (slots / rows
/// slots of value_bytes + 4 bytes), with C * T <= kSellSplitBlock (the split kernel's thread
/// block). 1 for short rows. Then, on a GPU that the rows' threads leave partly idle
/// (`resident_threads` > 0), T doubles while the chunks' C x 2T threads still fit at once and
/// the mean row holds T slots or more: few rows run faster with more threads each, the idle
/// part of the GPU costing nothing (an H200, T = 1 -> 8: zenios, 2,873 rows, 26.2 -> 6.8 us in
/// double; Andrews, 60,000 rows, T = 4, 22.1 -> 12.2 us; h200-2026-11-30b/sell_threads_idle.csv).
/// @param C [in] rows per chunk  @param slots [in] stored slots  @param rows [in] rows
/// @param value_bytes [in] sizeof(T) of the run (4 or 8)
/// @param resident_threads [in] threads the GPU holds at once (0: unknown, the bytes rule alone)
index_t sell_threads_for(index_t C, count_t slots, index_t rows, count_t value_bytes, count_t resident_threads = 0);

/// @brief The widest chunk the row kernels take: kSellWideSlotsPerThread * threads, or the
/// larger of that and kSellWideOverMean * slots / rows when the row kernels' rows x threads
/// threads fill the GPU (at least `resident_threads`); a wider chunk goes to the wide kernel.
/// @param threads [in] CUDA threads per row  @param slots [in] stored slots  @param rows [in] rows
/// @param resident_threads [in] threads the GPU holds at once (0: unknown, taken as filled)
index_t sell_wide_limit(index_t threads, count_t slots, index_t rows, count_t resident_threads);

/// @brief The wide kernel's segment: kSellWideSegment slots, halved down to kSellWideMinSegment
/// while the segments' thread blocks leave part of the GPU empty and the widest chunk's row
/// keeps at most kSellWideMaxChain segments (their atomics on one y entry follow one another).
/// @param chunk_width [in] slots per row of each chunk (chunks of width 0 may be left out)
/// @param limit [in] sell_wide_limit(): wider chunks go to the wide kernel
/// @param resident_threads [in] threads the GPU holds at once (0: unknown)
index_t sell_wide_segment(const std::vector<index_t>& chunk_width, index_t limit, count_t resident_threads);

/// @brief The wide chunks of a SELL matrix (wider than sell_wide_limit()) and their segments.
/// @param chunk_width [in] slots per row of each chunk  @param threads [in] CUDA threads per row
/// @param slots [in] stored slots  @param rows [in] rows
/// @param resident_threads [in] threads the GPU holds at once (0: unknown)
SellWidePlan sell_wide_plan(const std::vector<index_t>& chunk_width, index_t threads, count_t slots, index_t rows,
                            count_t resident_threads);

/// @brief The number of entries of every row of a normalized hub matrix.
/// @param A [in] normalized hub matrix
std::vector<index_t> sell_row_lengths(const CooMatrix& A);

/// @brief SELL-C-sigma's row order: inside each window of sigma rows, rows sorted longest
/// first, ties kept in their order (a stable sort), so sigma = 1 is the identity.
/// @param row_lengths [in] entries per row  @param sigma [in] window (>= 1)
/// @return perm, perm[p] = the row stored at position p
std::vector<index_t> sell_row_order(const std::vector<index_t>& row_lengths, index_t sigma);

/// @brief Owning host SELL-C-sigma container.
template <class T>
struct Sell {
    /// Column index stored in a padding slot.
    static constexpr index_t kPadding = -1;

    index_t rows = 0;                  ///< number of rows
    index_t cols = 0;                  ///< number of columns
    index_t C = 0;                     ///< rows per chunk
    index_t sigma = 0;                 ///< sorting window (1: rows in their order)
    index_t threads = 1;               ///< CUDA threads that share each row (SellParams::threads)
    std::vector<index_t> chunk_ptr;    ///< chunks + 1 slot offsets
    std::vector<index_t> chunk_width;  ///< slots per row of each chunk
    std::vector<index_t> perm;         ///< rows values: the row stored at each position
    std::vector<index_t> col_idx;      ///< columns, column-major within each chunk; kPadding in padding
    std::vector<T> vals;               ///< values, in the same order; 0 in padding

    /// @brief Sorts rows in windows of sigma, cuts chunks of C and pads each to its longest
    /// row; throws ConversionRefused, with the figures (C, sigma, widest chunk, slots, nnz,
    /// limit), when the padded size would exceed the limits, and kit::Error on bad parameters.
    /// @param A [in] normalized hub matrix  @param params [in] C and sigma (0: defaults)
    /// @param limits [in] fill limit
    static Sell from_coo(const CooMatrix& A, SellParams params = {}, const SellLimits& limits = {});

    /// @brief Converts back to the hub; padding is dropped, explicit zeros are kept.
    CooMatrix to_coo() const;
    /// @brief Number of chunks.
    index_t chunks() const { return static_cast<index_t>(chunk_width.size()); }
    /// @brief Stored slots, padding included.
    count_t slots() const { return static_cast<count_t>(vals.size()); }
    /// @brief Entries stored (not counting padding).
    count_t nnz() const { return nnz_; }
    /// @brief The paper's fill efficiency beta = nnz / stored slots (1.0: no padding at all).
    double beta() const { return slots() ? static_cast<double>(nnz_) / static_cast<double>(slots()) : 1.0; }
    /// @brief Stored slots / nnz, as the other formats' notes report it (1 / beta).
    double fill() const { return nnz_ ? static_cast<double>(slots()) / static_cast<double>(nnz_) : 1.0; }
    /// @brief 1 when no row moved (sigma = 1: sell_row_order is then the identity), else 0.
    index_t rows_in_place() const { return sigma == 1 ? 1 : 0; }
    /// @brief Host view of the arrays.
    SellView<T> view() const {
        return {rows,
                cols,
                C,
                threads,
                chunks(),
                chunk_ptr.data(),
                chunk_width.data(),
                perm.data(),
                rows_in_place(),
                col_idx.data(),
                vals.data(),
                0,
                nullptr,
                nullptr,
                0};
    }

private:
    count_t nnz_ = 0;  // entries stored, counted by the conversion
};

/// @brief The run note of a SELL matrix: "SELL-32-256: 3 chunks, 2880 slots, beta 0.9 (nonzeros / stored slots)".
/// @param m [in] matrix
template <class T>
std::string describe_layout(const Sell<T>& m) {
    return "SELL-" + std::to_string(m.C) + "-" + std::to_string(m.sigma) + ": " + std::to_string(m.chunks()) +
           " chunks, " + std::to_string(m.slots()) + " slots, beta " + format_fill(m.beta()) +
           " (nonzeros / stored slots)" +
           (m.threads > 1 ? ", " + std::to_string(m.threads) + " CUDA threads per row" : "");
}

}  // namespace kit
