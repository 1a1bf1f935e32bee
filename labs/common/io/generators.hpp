/// @file generators.hpp
/// @brief Matrices the kit generates itself: rdb (Brusselator), stencils, bands, power-law, dense rows,
/// dense; and the random vectors of a problem.
///
/// Every generator is deterministic: the same arguments give the same file, byte for byte.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/coo.hpp"

namespace kit {

/// @brief Parameters of the Brusselator Jacobian behind SuiteSparse's Bai/rdb* matrices.
struct RdbParams {
    int m = 15;          ///< interior grid points per side (rdb450: m = 15, n = 2*m*m)
    double c = 0.016;    ///< diffusion scale: tau1 = c*(m+1)^2, tau2 = 2*tau1
    double alpha = 2.0;  ///< Brusselator alpha
    double beta = 5.45;  ///< Brusselator beta
};

/// @brief The reaction-diffusion Brusselator Jacobian (Bai/rdb family).
///
/// Species u and v are interleaved per grid node k = i*m + j: unknown 2k is u, 2k+1 is v.
/// - u row: diagonal -4*tau1 + (beta-1), tau1 to the 4 grid-neighbour u's, alpha^2 to v at k.
/// - v row: diagonal -4*tau2 - alpha^2, tau2 to the 4 grid-neighbour v's, -beta to u at k.
///
/// Dirichlet boundaries drop couplings that leave the grid. Values are rounded to the
/// nearest double of their short decimal (12 significant digits), so rdb450's diagonals
/// are exactly the doubles nearest -11.934 and -36.768.
/// Known members: c = 0.016 gives rdb200 (m=10), rdb450 (m=15), rdb1250 (m=25);
/// c = 0.004 gives rdb200l, rdb450l, rdb800l (m=20), rdb968 (m=22), rdb2048 (m=32),
/// rdb3200l (m=40), rdb5000 (m=50).
/// @param p [in] parameters
CooMatrix generate_rdb(const RdbParams& p);

/// @brief 2-D 5-point Laplacian on an nx x ny grid (4 on the diagonal, -1 off it).
/// @param nx [in] grid points in x
/// @param ny [in] grid points in y
CooMatrix generate_stencil2d(int nx, int ny);

/// @brief 3-D Laplacian on an n x n x n grid with 7 or 27 points.
/// @param n      [in] grid points per side
/// @param points [in] 7 or 27
CooMatrix generate_stencil3d(int n, int points);

/// @brief 2-D grid where each point couples to every point within `radius` (Euclidean).
///
/// With radius 5 this is the image-segmentation matrix of the AMD DIA case study:
/// 81 diagonals in 11 bands; 481 x 321 pixels gives its 154401 rows.
/// @param nx     [in] grid points in x (the fast index)
/// @param ny     [in] grid points in y
/// @param radius [in] coupling radius in grid points
CooMatrix generate_radius_grid(int nx, int ny, int radius);

/// @brief n x n band of `diagonals` diagonals `spacing` rows apart, cut at the borders.
///
/// The offsets are d * spacing for d = -diagonals/2 .. diagonals - diagonals/2 - 1, so the
/// main diagonal is always one of them; it holds `diagonals`, the others -1. spacing 1 is an
/// ordinary band. A wide spacing gives each diagonal x's lines of its own: lab 08's calibration
/// runs both, and a sweep of `diagonals` shows how a DIA kernel's loop over them is unrolled.
/// @param n         [in] rows and columns
/// @param diagonals [in] number of diagonals (at least 1)
/// @param spacing   [in] rows between neighbouring diagonals (at least 1)
CooMatrix generate_band(int n, int diagonals, int spacing);

/// @brief Square matrix whose row lengths follow a power law (a few very long rows).
///
/// Row i gets about max_len / (i_perm+1)^exponent entries at random columns, with
/// at least one entry per row; rows are shuffled so long rows are spread out.
/// @param n        [in] rows and columns
/// @param max_len  [in] length of the longest row
/// @param exponent [in] power-law exponent (1.0 is Zipf)
/// @param seed     [in] random seed
CooMatrix generate_power_law(int n, int max_len, double exponent, std::uint64_t seed);

/// @brief Square matrix with `row_len` entries per row, plus `dense_rows` full rows.
/// @param n          [in] rows and columns
/// @param row_len    [in] entries in an ordinary row (random columns, diagonal included)
/// @param dense_rows [in] number of completely dense rows, spread evenly
/// @param seed       [in] random seed
CooMatrix generate_dense_rows(int n, int row_len, int dense_rows, std::uint64_t seed);

/// @brief Random rows x cols matrix with about `per_row` entries per row, values in [-1, 1].
/// @param rows    [in] rows
/// @param cols    [in] columns
/// @param per_row [in] mean entries per row (exact count varies 0..2*per_row)
/// @param seed    [in] random seed
CooMatrix generate_random(int rows, int cols, int per_row, std::uint64_t seed);

/// @brief Fully dense rows x cols matrix with pseudo-random values in [-1, 1], in row-major
/// order (already normalized): the dense problems of lab 09, its tests and the benchmarks.
///
/// Each value is a hash of `seed` and its position, so the matrix is built in one pass.
/// @param rows [in] rows (at least 1)  @param cols [in] columns (at least 1)
/// @param seed [in] random seed of the values
CooMatrix generate_dense(index_t rows, index_t cols, std::uint64_t seed);

/// @brief The kit's 4x4 example: [[1,7,0,0],[0,2,8,0],[5,0,3,9],[0,6,0,4]].
CooMatrix example4x4();

/// @brief The vectors of an SpMV problem, as random_xy draws them.
struct RandomXY {
    std::vector<double> x;  ///< cols values
    std::vector<double> y;  ///< rows values
};

/// @brief Deterministic pseudo-random x (cols values) and y (rows values), uniform in [-1, 1]:
/// x first, then y, from one stream seeded by `seed`.
///
/// The one place the kit draws random vectors (drivers, benchmarks, tests): zeros or ones would
/// hide unwritten outputs and wrong indexing.
/// @param cols [in] length of x  @param rows [in] length of y  @param seed [in] random seed
RandomXY random_xy(index_t cols, index_t rows, std::uint64_t seed);

/// @brief Replaces every value by a deterministic pseudo-random value in [-1, 1].
///
/// Tests use this so a kernel that ignores values (or reads the wrong one) cannot pass.
/// @param A    [in,out] matrix
/// @param seed [in] random seed
void randomize_values(CooMatrix& A, std::uint64_t seed);

}  // namespace kit
