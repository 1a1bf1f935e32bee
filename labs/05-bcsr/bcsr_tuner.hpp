/// @file bcsr_tuner.hpp
/// @brief The run-time half of the GOSpMV block-size autotuner: estimate the fill f(r,c) by
/// sampling block rows, then pick the r x c that maximises P_dense(r x c, nearest nz) / f(r,c).
///
/// The offline half measured P_dense: GFLOP/s of a dense matrix stored as r x c BCSR, at
/// several sizes (bcsr_profile.hpp, `spmv-kit tune-profile`). A sparse matrix with fill f
/// stores f*nnz values, so the kernel runs at about the dense speed for that many values,
/// but only 1/f of its flops are useful: the estimate is P_dense / f in useful GFLOP/s.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bcsr.hpp"
#include "bcsr_profile.hpp"
#include "variants.hpp"

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
    int r = 1;                 ///< rows per block
    int c = 1;                 ///< columns per block
    double fill = 1;           ///< estimated f(r,c): stored values / nnz
    double stored = 0;         ///< fill * nnz: the stored values of the sparse matrix (GOSpMV's nz_EBCSR)
    count_t profile_nnz = 0;   ///< nz_d: the profiled dense size nearest to `stored`
    double dense_gflops = 0;   ///< P_dense(r x c, nz_d) from the profile
    double estimate = 0;       ///< dense_gflops / fill: predicted useful GFLOP/s
};

/// @brief The tuner's answer: the winner and every shape it rated.
struct TunerChoice {
    BlockEstimate best;                 ///< the shape with the largest estimate
    std::vector<BlockEstimate> shapes;  ///< every shape the profile covers, r-major order
    double sigma = kDefaultSigma;       ///< sampling rate used
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

/// @brief The GOSpMV run-time evaluation: for each r x c in 1..4 x 1..4 that the profile
/// covers, estimate the fill, look up P_dense at the profiled size nearest to fill * nnz,
/// and rate the shape at P_dense / fill. The best is the largest rating; ties go to the
/// first shape in r-major order (the smaller block). Throws kit::Error if the profile has
/// no record for this variant and precision.
/// @param A [in] normalized hub matrix  @param profile [in] P_dense measurements
/// @param variant [in] kernel whose profile to use, e.g. "bcsr-warp"  @param p [in] precision
/// @param sigma [in] sampling rate for the fill estimates
TunerChoice choose_block(const CooMatrix& A, const BcsrProfile& profile, const std::string& variant, Precision p,
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

/// @brief The block shape a BCSR variant runs with, and the note that says why.
struct BlockPick {
    int r = 1;         ///< rows per block
    int c = 1;         ///< columns per block
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

}  // namespace kit::bcsr
