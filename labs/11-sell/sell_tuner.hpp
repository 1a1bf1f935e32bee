/// @file sell_tuner.hpp
/// @brief Lab 11, step 3: the choice of C and sigma from the row lengths alone.
///
/// A chunk of C rows stores C times its longest row, so the padded slots, and with them the
/// bytes an SpMV moves, follow from the row lengths: no conversion is needed to rate a
/// (C, sigma). A larger sigma gathers rows of like length and cuts the padding, but moves
/// rows further from their natural order, so that neighbouring threads read x and write y
/// far apart. The rule therefore takes the smallest sigma whose bytes are within a tie band
/// of the fewest, and a measured sweep (`make bench`) tells how far that rule is from the
/// fastest setting.
#pragma once

#include <vector>

#include "formats/sell.hpp"

namespace kit::sell {

/// Bytes within this share of the fewest are a tie: the rule then prefers the locality of
/// the smaller C and sigma to a saving of under 1% of the traffic.
inline constexpr double kTieBand = 0.01;

/// The chunk heights the rule tries: the warp and twice the warp (C a multiple of 32 keeps
/// every warp inside one chunk).
inline const std::vector<index_t> kTunerC = {32, 64};

/// @brief One (C, sigma) the rule rated.
struct SellCandidate {
    index_t C = 0;      ///< rows per chunk
    index_t sigma = 0;  ///< sorting window (1: no sorting)
    count_t slots = 0;  ///< stored slots, padding included (sell_slots)
    count_t bytes = 0;  ///< kit::sell_bytes of one SpMV with these slots
};

/// @brief The rule's answer: the pick and every candidate, in the order they were tried.
struct SellChoice {
    SellCandidate best;                     ///< the pick
    std::vector<SellCandidate> candidates;  ///< every (C, sigma) rated
};

/// @brief The sigmas the rule tries for a chunk height C over `rows` rows: 1, then C, 4C,
/// 16C, ... up to the first that covers every row (capped at kSellMaxSigma).
/// @param C [in] rows per chunk  @param rows [in] rows of the matrix
std::vector<index_t> sigma_candidates(index_t C, index_t rows);

/// @brief Step 3a: the stored slots (padding included) of SELL-C-sigma for these row
/// lengths: sort in windows of sigma (kit::sell_row_order), cut chunks of C, sum C times
/// each chunk's longest row.
/// @param row_lengths [in] entries per row  @param C [in] rows per chunk (>= 1)
/// @param sigma [in] sorting window (>= 1)
count_t sell_slots(const std::vector<index_t>& row_lengths, index_t C, index_t sigma);

/// @brief Step 3b: rates every C of kTunerC with every sigma of sigma_candidates by
/// kit::sell_bytes, and picks the first candidate, in that order (C first, then sigma
/// ascending), whose bytes are at most (1 + kTieBand) times the fewest.
/// @param row_lengths [in] entries per row  @param cols [in] columns of the matrix
/// @param value_bytes [in] sizeof(T)
SellChoice choose_sell(const std::vector<index_t>& row_lengths, index_t cols, count_t value_bytes);

/// Rows whose entries span more than this share of the columns (the median row) leave no order
/// of x to keep: on the committed sweep (H200, h200-2026-11-27) the global sort was then within
/// 1% of the best setting on the random matrix, where the rule's window of 8192 rows was 14%
/// slower, while on the stencils and rdb (spans under 1%) it was 11-17% slower.
inline constexpr double kScatteredSpan = 0.25;

/// @brief The median, over the rows that hold an entry, of (last column - first column + 1) /
/// cols: near 0 for banded and stencil matrices, near 1 for random ones. 0 for an empty matrix.
/// @param A [in] normalized hub matrix (entries sorted by row, then column)
double median_row_span(const CooMatrix& A);

/// @brief The (C, sigma) that sell-auto runs (given, not a step): choose_sell's pick from the
/// row lengths, with sigma raised to the global sort (the largest of sigma_candidates) when
/// median_row_span(A) > kScatteredSpan and that sort stores fewer slots than sigma = 1. Why:
/// with x read all over already, sorting every row costs no locality, and a global sort runs
/// the longest chunks first, so the last wave of the launch holds the shortest; the bytes
/// alone cannot see either effect. A sort that saves no slots (rows of one length, a matrix
/// of one chunk) would only add the permutation's load, which sigma = 1 skips: on the H200
/// sweep of 223 real matrices (h200-2026-11-29h) that took the pick within 5% of the best from
/// 300 to 315 of 339 matrix/precision pairs.
/// @param A [in] normalized hub matrix  @param value_bytes [in] sizeof(T)
SellCandidate auto_setting(const CooMatrix& A, count_t value_bytes);

}  // namespace kit::sell
