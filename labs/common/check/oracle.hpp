/// @file oracle.hpp
/// @brief The one CPU oracle every kernel is checked against, and the tolerance it implies.
///
/// The oracle is deliberately the simplest loop over COO in double precision. It shares
/// no code with any format under test, so a bug in a format cannot hide in the oracle.
#pragma once

#include <string>
#include <vector>

#include "formats/coo.hpp"

namespace kit {

/// @brief Computes y + A x in double precision by one loop over the COO entries.
/// @param A [in] hub matrix (any order)
/// @param x [in] vector of A.cols values
/// @param y [in] vector of A.rows values
/// @return y + A x
std::vector<double> oracle_spmv(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y);

/// @brief The per-row figures an error bound needs: |y_i| + sum_j |a_ij x_j| and the row length.
struct RowBounds {
    std::vector<double> magnitude;  ///< |y_i| + sum_j |a_ij| |x_j|, in double
    std::vector<double> length;     ///< entries in row i
    std::vector<double> operands;   ///< sum_j (|a_ij| + |x_j|): what an underflowed input or product costs
};

/// @brief The smallest normal value of the working precision whose machine epsilon is `eps`:
/// FLT_MIN for float's epsilon (or any larger one), DBL_MIN below it.
/// @param eps [in] machine epsilon of the working precision (eps_of)
double smallest_normal_for(double eps);

/// @brief Computes the row magnitudes, lengths and operand sums of y + A x.
/// @param A [in] hub matrix  @param x [in] input vector  @param y [in] initial y
RowBounds row_bounds(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y);

/// @brief The tolerance of spmv_tolerance(A, x, y, eps) from row figures already computed.
/// @param rows [in] row_bounds(A, x, y)  @param eps [in] machine epsilon of the working precision (eps_of)
std::vector<double> spmv_tolerance(const RowBounds& rows, double eps);

/// @brief Per-row error bound for y + A x computed in working precision with unit roundoff u.
///
/// A dot product of n terms summed in any order has error at most about n*u*sum|a_j x_j|
/// (Higham, the gamma_n bound). Rounding A, x and y to the working precision adds a few
/// more u per term. Relative bounds fail at the bottom of the range: a value, product or
/// sum below the smallest normal number `tiny` of the working precision (FLT_MIN in float,
/// DBL_MIN in double) loses up to `tiny` absolutely, whether it is rounded gradually or
/// flushed to zero (GPU flush-to-zero, OpenCL without denormals). Flushing a_ij costs up to
/// tiny |x_j|, flushing x_j up to tiny |a_ij|, and each product, the sums and y one tiny
/// more. The bound used is
///   tol_i = (n_i + 4) * eps * (|y_i| + sum_j |a_ij| |x_j|) + tiny * (sum_j (|a_ij| + |x_j|) + 2 n_i + 2),
/// with n_i the row length and eps the machine epsilon of the working precision, so the
/// order of the additions (atomics, shuffles, tiles) never matters, and a row whose exact
/// result lies below float's range (3 x 1e-301) is not called wrong in float for reading 0.
/// @param A   [in] hub matrix
/// @param x   [in] input vector
/// @param y   [in] initial y
/// @param eps [in] machine epsilon of the working precision
std::vector<double> spmv_tolerance(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                   double eps);

/// @brief One row where a result left its tolerance.
struct Mismatch {
    index_t row = -1;      ///< first row outside tolerance (-1: none)
    double expected = 0;   ///< oracle value
    double actual = 0;     ///< kernel value
    double tolerance = 0;  ///< allowed |actual - expected|
    count_t bad_rows = 0;  ///< how many rows are outside tolerance
    double max_error = 0;  ///< max |actual - expected| over all rows
};

/// @brief Compares a result with the oracle, row by row. NaN never passes; an infinity
/// passes only where the oracle has the same infinity (y overflowed in double too).
/// @param expected [in] oracle result
/// @param actual   [in] kernel result
/// @param tol      [in] per-row tolerance (empty: exact comparison)
Mismatch compare_with_oracle(const std::vector<double>& expected, const std::vector<double>& actual,
                             const std::vector<double>& tol);

/// @brief Human-readable description of a mismatch: row, expected, actual, tolerance.
/// @param m [in] the mismatch
std::string describe(const Mismatch& m);

}  // namespace kit
