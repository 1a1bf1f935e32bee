/// @file bcsr_tuner.hpp
/// @brief The run-time half of the GOSpMV block-size autotuner: estimate the fill f(r,c) by
/// sampling block rows, then pick the r x c that maximises P_dense(r x c, nearest nz) / f(r,c)
/// times the kit's structure factor.
///
/// The offline half measured P_dense: GFLOP/s of a dense matrix stored as r x c BCSR, at
/// several sizes (bcsr_profile.hpp, `spmv-kit tune-profile`). A sparse matrix with fill f
/// stores f*nnz values, so the kernel runs at about the dense speed for that many values,
/// but only 1/f of its flops are useful: the estimate is P_dense / f in useful GFLOP/s.
///
/// That is GOSpMV's model, and it assumes that a stored value costs the same in a sparse
/// matrix as in a dense one. On a GPU it does not: the warp kernel's speed depends on how
/// many blocks a block row holds (idle lanes), every kernel's on where the blocks gather x
/// from, a run of a few million entries pays a fixed launch cost, and one very long block row
/// can outlast all the others. The structure factor (structure_model) replaces P_dense / f by
/// a time model built from the profile's `dense` records (the launch cost), `panel` records
/// (fill-1 matrices of known blocks per block row and layout) and `chain` records (one long
/// block row alone).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "formats/bcsr.hpp"
#include "bcsr_profile.hpp"
#include "registry/variants.hpp"

namespace kit::bcsr {

/// Default sampling rate sigma: the fraction of block rows the fill estimate looks at.
/// At 5% the 16 estimates together read about 16 x 5% = 0.8 of the entries, less than one
/// conversion to BCSR, and a matrix with a few thousand block rows already gives a sample of
/// a hundred or more block rows (the estimate of a regular matrix is then within a few percent).
/// Small matrices, where 5% is a handful of block rows, are cheap to scan exactly: see
/// estimate_fill for the fallback when a sample holds no entries.
inline constexpr double kDefaultSigma = 0.05;

/// @brief What the tuner thinks of one block shape.
struct BlockEstimate {
    int r = 1;                ///< rows per block
    int c = 1;                ///< columns per block
    double fill = 1;          ///< estimated f(r,c): stored values / nnz
    double stored = 0;        ///< fill * nnz: the stored values of the sparse matrix (GOSpMV's nz_EBCSR)
    count_t profile_nnz = 0;  ///< nz_d: the profiled dense size nearest to `stored`
    double dense_gflops = 0;  ///< P_dense(r x c, nz_d) from the profile
    double structure = 1;     ///< structure factor of structure_model (1 for a dense-only profile)
    double estimate = 0;      ///< dense_gflops / fill * structure: predicted useful GFLOP/s
};

/// Estimates within this share of the largest one are a tie: the model's median error is a
/// few percent (handout 05), so it cannot rank shapes 1% apart.
inline constexpr double kTieBand = 0.01;

/// @brief The tuner's answer: the winner and every shape it rated.
struct TunerChoice {
    BlockEstimate best;                 ///< the shape with the largest estimate
    std::vector<BlockEstimate> shapes;  ///< every shape the profile covers, r-major order
    double sigma = kDefaultSigma;       ///< sampling rate used
    /// @brief The shape the tuner runs: of the shapes whose estimate is within kTieBand of
    /// best's, the one that stores the fewest values (estimated fill x nnz; the first in r-major
    /// order on equal counts). Why: where the model cannot tell two shapes apart, the one with
    /// less padding costs less memory and its estimate rests less on the structure factor.
    /// best itself when no shape was rated.
    const BlockEstimate& pick() const;
};

/// @brief Whether block row `block_row` belongs to the sample at rate sigma.
///
/// A fixed hash of the block row against sigma: every block row is kept with probability
/// sigma, independently of its neighbours (so a periodic structure cannot alias with the
/// sample, as a stride would), and the same call gives the same answer on every machine.
/// sigma >= 1 keeps every block row.
/// @param block_row [in] block-row index  @param sigma [in] sampling rate in (0, 1]
bool in_sample(index_t block_row, double sigma);

/// @brief Estimates the fill f(r,c) = stored values / nnz of A as r x c BCSR, looking only at
/// the block rows in_sample() keeps: f ~ r*c*(blocks in the sample) / (entries in the sample).
///
/// With sigma = 1 the estimate is the exact fill. If the sample holds no entry at all the
/// estimate is taken over every block row instead. An empty matrix has fill 1.
/// @param A [in] normalized hub matrix  @param row_ptr [in] hub_row_ptr(A)
/// @param r [in] rows per block  @param c [in] columns per block  @param sigma [in] sampling rate in (0, 1]
double estimate_fill(const CooMatrix& A, const std::vector<count_t>& row_ptr, int r, int c, double sigma);

/// @brief What a sample of block rows says about the structure at r x c: how many blocks each
/// sampled block row holds, and how many of those blocks read x that was read just before;
/// and, over the whole matrix, its size and its longest block row.
struct BlockRowSample {
    std::map<count_t, count_t> rows_by_blocks;  ///< blocks in a block row -> sampled block rows with that many
    count_t block_rows = 0;                     ///< sampled block rows
    count_t blocks = 0;                         ///< blocks in the sampled block rows
    count_t entries = 0;                        ///< entries in the sampled block rows
    count_t local_blocks = 0;                   ///< blocks whose x sectors were all read before (see sample_block_rows)
    count_t all_block_rows = 0;                 ///< block rows of the whole matrix, ceil(rows / r)
    count_t nnz = 0;                            ///< entries of the whole matrix
    count_t longest_blocks = 0;                 ///< blocks of the block row holding the most entries (the whole matrix)
    /// @brief Mean blocks per sampled block row (0 for an empty sample).
    double blocks_per_row() const { return block_rows ? static_cast<double>(blocks) / block_rows : 0.0; }
    /// @brief local_blocks / blocks: 1 when x is read in order (band), near 0 when gathered at random.
    double locality() const { return blocks ? static_cast<double>(local_blocks) / blocks : 1.0; }
    /// @brief The fill the sample shows, r*c*blocks / entries (1 for an empty sample).
    /// @param r [in] rows per block  @param c [in] columns per block
    double fill(int r, int c) const { return entries ? static_cast<double>(blocks) * r * c / entries : 1.0; }
};

/// @brief Samples the block rows in_sample() keeps (the same ones as estimate_fill) and counts,
/// for each, its blocks at r x c; then finds the block row with the most entries in the whole
/// matrix (from row_ptr alone) and counts its blocks.
///
/// A block is *local* when every 32-byte sector of x it reads (its c columns at `value_bytes`
/// bytes a value) was already read by an earlier block of the same block row or by the block
/// rows covering the 4 rows above it: the gather then hits a cache line that neighbouring
/// threads have just fetched. If the sample holds no entry, every block row is taken.
/// @param A [in] normalized hub matrix  @param row_ptr [in] hub_row_ptr(A)
/// @param r [in] rows per block  @param c [in] columns per block  @param sigma [in] sampling rate in (0, 1]
/// @param value_bytes [in] 4 (float) or 8 (double): how many x values share a sector
BlockRowSample sample_block_rows(const CooMatrix& A, const std::vector<count_t>& row_ptr, int r, int c, double sigma,
                                 int value_bytes);

/// @brief The time model behind the structure factor, and how it was reached.
struct StructureModel {
    bool used = false;          ///< false: the profile has no panels for this shape (factor 1, GOSpMV's model)
    double factor = 1;          ///< predicted useful GFLOP/s over GOSpMV's P_dense(nz_E) / fill
    double launch_seconds = 0;  ///< t0: what a run costs before its first entry (launch_seconds())
    double rows_seconds = 0;    ///< the block rows' work: sum of block_row_time, scaled to every block row
    double chain_seconds = 0;   ///< the longest block row alone (0 without a chain record)
    double seconds = 0;         ///< predicted time: t0 + max(rows, chain), or t0 + rows + chain for bcsr-2kernel
    double gflops = 0;          ///< predicted useful GFLOP/s, 2 nnz / seconds
};

/// @brief What one run of `variant` costs whatever its size: the intercept t0 of a least-squares
/// line through the dense records' times (2 nnz / GFLOP/s) against nnz, clamped at 0; 0 with
/// fewer than two sizes. A panel's time less t0 is the work of its block rows.
/// @param profile [in] the profile  @param variant [in] kernel name  @param p [in] precision
/// @param r [in] rows per block  @param c [in] columns per block
double launch_seconds(const BcsrProfile& profile, const std::string& variant, Precision p, int r, int c);

/// @brief Work time in seconds of one block row holding b blocks, interpolated from panels
/// sorted by bpr: a panel of nnz entries at bpr_k has nnz / (r*c*bpr_k) block rows sharing
/// its time less `launch`, w_k = (2 nnz / P_k - launch) * r*c*bpr_k / nnz (never below 0).
/// Linear in b between measured points; proportional past the last point; an empty block
/// row costs as much as the smallest panel's. With `lanes` > 0 (a kernel whose lanes take a
/// block row's blocks `lanes` at a time) and b > lanes, the row takes ceil(b / lanes) passes:
/// w(b) = w(full) * (alpha + (1 - alpha) * b / full), full = lanes * ceil(b / lanes), where
/// alpha = 2 w(lanes / 2) / w(lanes) - 1 (in [0, 1]) is the part of a pass that costs the same
/// however many lanes work. Throws kit::Error on no panels.
/// @param panels [in] panel records of one (variant, precision, shape, layout), sorted by bpr
/// @param b [in] blocks in the block row  @param launch [in] t0 of launch_seconds()
/// @param lanes [in] lanes sharing a block row (32 for bcsr-warp), or 0
double block_row_time(const std::vector<PanelEntry>& panels, double b, double launch, int lanes = 0);

/// @brief The kit's time model for `variant` at r x c on a matrix with this sample.
///
/// T = t0 + max(rows, chain): the long block row runs beside the others. bcsr-warp's block
/// rows are timed with 32 lanes (block_row_time). For bcsr-2kernel,
/// T = t0 + rows + chain: its second launch, which sums the long row, starts only after the
/// first has finished every block. rows: each sampled block row with b blocks costs
/// locality * w_band(b) + (1 - locality) * w_scatter(b) (block_row_time), summed over the
/// sample (so a spread of row lengths counts, not only the mean) and scaled by
/// all_block_rows / block_rows. chain: the longest block row run alone, (T_chain - t0) *
/// longest_blocks / blocks of the profile's chain record. The factor is 2 nnz / T over
/// P_dense(nz_E) / fill, with fill and nz_E from the same sample, so that choose_block's
/// P_dense / fill * factor is the model's prediction. With one layout profiled, that layout
/// alone is used; without panels for the shape, factor 1 (GOSpMV's model).
/// @param profile [in] the profile  @param variant [in] kernel name  @param p [in] precision
/// @param r [in] rows per block  @param c [in] columns per block  @param sample [in] sample_block_rows()
StructureModel structure_model(const BcsrProfile& profile, const std::string& variant, Precision p, int r, int c,
                               const BlockRowSample& sample);

/// @brief The structure factor of `variant` at r x c for A: sample_block_rows at sigma, then
/// structure_model. What choose_block multiplies GOSpMV's P_dense / fill by.
/// @param A [in] normalized hub matrix  @param row_ptr [in] hub_row_ptr(A)  @param profile [in] the profile
/// @param variant [in] kernel name  @param p [in] precision  @param r [in] rows per block
/// @param c [in] columns per block  @param sigma [in] sampling rate
double structure_factor(const CooMatrix& A, const std::vector<count_t>& row_ptr, const BcsrProfile& profile,
                        const std::string& variant, Precision p, int r, int c, double sigma);

/// @brief The GOSpMV run-time evaluation, extended: for each r x c in 1..4 x 1..4 that the
/// profile covers, estimate the fill, look up P_dense at the profiled size nearest to
/// fill * nnz, and rate the shape at P_dense / fill * structure_factor (1 with a profile of
/// dense records only: GOSpMV's rating). The best is the largest rating; ties go to the
/// first shape in r-major order (the smaller block). Throws kit::Error if the profile has
/// no record for this variant and precision.
/// @param A [in] normalized hub matrix  @param profile [in] P_dense measurements
/// @param variant [in] kernel whose profile to use, e.g. "bcsr-warp"  @param p [in] precision
/// @param sigma [in] sampling rate for the fill estimates
TunerChoice choose_block(const CooMatrix& A, const BcsrProfile& profile, const std::string& variant, Precision p,
                         double sigma = kDefaultSigma);

/// @brief The joint pick: for each kernel its own choice, and the kernel whose best estimate is largest.
struct JointChoice {
    std::vector<std::string> variants;  ///< kernels rated, in the order given
    std::vector<TunerChoice> choices;   ///< choose_block() of each kernel
    std::size_t best = 0;               ///< index of the winning kernel (the first on ties)
    /// @brief The winning kernel's name.
    const std::string& variant() const { return variants.at(best); }
    /// @brief The winning kernel's choice.
    const TunerChoice& choice() const { return choices.at(best); }
};

/// @brief Picks kernel and block shape together: choose_block for each variant the profile
/// covers, then the largest estimate. Throws kit::Error if the profile covers none of them.
/// @param A [in] normalized hub matrix  @param profile [in] the profile
/// @param variants [in] kernels to rate, e.g. {"bcsr-2kernel", "bcsr-warp"}  @param p [in] precision
/// @param sigma [in] sampling rate
JointChoice choose_kernel_and_block(const CooMatrix& A, const BcsrProfile& profile,
                                    const std::vector<std::string>& variants, Precision p,
                                    double sigma = kDefaultSigma);

/// @brief The profile the kit uses: the file named by $KIT_BCSR_PROFILE, else the one shipped
/// in labs/05-bcsr/profile_default.txt. Read once and cached per file name.
const BcsrProfile& active_profile();

/// @brief One line for a run's note: "block 2x2 chosen by the tuner (est. fill 1.03, estimate
/// 61.2 GFLOP/s from profile FILE)", marking a placeholder profile as such.
/// @param choice [in] the tuner's answer  @param profile [in] the profile it used
std::string describe_choice(const TunerChoice& choice, const BcsrProfile& profile);

/// @brief The tuner's table, one line per shape (fill, nz_d, P_dense, estimate), and the
/// pick: what `spmv-kit run --block auto` prints before the result.
/// @param choice [in] the tuner's answer  @param profile [in] the profile it used
std::string format_choice(const TunerChoice& choice, const BcsrProfile& profile);

/// @brief One line on the time model behind an estimate: t0, the block rows, the longest
/// block row and the predicted time, or why GOSpMV's model was used instead. What
/// `spmv-kit run --block auto` prints under the tuner's table for the picked shape.
/// @param A [in] normalized hub matrix  @param profile [in] the profile  @param variant [in] kernel name
/// @param p [in] precision  @param r [in] rows per block  @param c [in] columns per block
/// @param sigma [in] sampling rate
std::string describe_model(const CooMatrix& A, const BcsrProfile& profile, const std::string& variant, Precision p,
                           int r, int c, double sigma = kDefaultSigma);

/// @brief The block shape a BCSR variant runs with, and the note that says why.
struct BlockPick {
    int r = 1;            ///< rows per block
    int c = 1;            ///< columns per block
    std::string note;     ///< "block 2x2 (given)" or describe_choice()
    std::string details;  ///< format_choice() when the tuner chose, else ""
};

/// @brief The shape opt asks for (block_r, block_c both > 0), or else the tuner's choice
/// for `variant` with active_profile().
/// @param A [in] normalized hub matrix  @param variant [in] kernel name, e.g. "bcsr-warp"
/// @param opt [in] run options (precision, block_r, block_c)
BlockPick pick_block(const CooMatrix& A, const std::string& variant, const RunOptions& opt);

/// @brief The fill part of a run's note, e.g. "actual fill 1.651 (1065 blocks of 2x2)".
/// @param fill [in] stored values / nnz  @param blocks [in] stored blocks  @param r [in] rows per block
/// @param c [in] columns per block
std::string describe_fill(double fill, count_t blocks, int r, int c);

/// @brief The kernel and shape `bcsr-auto` runs: the given shape (block_r, block_c) with the
/// kernel rated faster at it, or else the joint pick of choose_kernel_and_block.
struct KernelPick {
    std::string variant;  ///< kernel to run
    BlockPick block;      ///< its shape, note and table
};

/// @brief The joint pick for `bcsr-auto` over `variants` with active_profile().
/// @param A [in] normalized hub matrix  @param variants [in] kernels to choose from
/// @param opt [in] run options (precision, block_r, block_c)
KernelPick pick_kernel_and_block(const CooMatrix& A, const std::vector<std::string>& variants, const RunOptions& opt);

}  // namespace kit::bcsr
