// The COO hub, CSR, their conversions, the oracle and its tolerance, and the structure figures.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "formats/csr.hpp"
#include "core/kit_error.hpp"
#include "io/generators.hpp"
#include "model/matrix_stats.hpp"
#include "check/oracle.hpp"

using kit::CooMatrix;

TEST(Coo, NormalizeSortsRowMajorAndSumsDuplicates) {
    CooMatrix A;
    A.rows = A.cols = 3;
    A.add(2, 0, 1.0);
    A.add(0, 1, 2.0);
    A.add(2, 0, 0.5);
    A.add(0, 0, 3.0);

    const kit::count_t merged = A.normalize();

    EXPECT_EQ(merged, 1);
    EXPECT_EQ(A.row_idx, (std::vector<kit::index_t>{0, 0, 2}));
    EXPECT_EQ(A.col_idx, (std::vector<kit::index_t>{0, 1, 0}));
    EXPECT_EQ(A.vals, (std::vector<double>{3.0, 2.0, 1.5}));
    EXPECT_TRUE(A.is_normalized());
}

TEST(Csr, Example4x4HasTheTextbookArrays) {
    CooMatrix A = kit::example4x4();
    A.normalize();

    const auto csr = kit::Csr<float>::from_coo(A);

    EXPECT_EQ(csr.row_ptr, (std::vector<kit::index_t>{0, 2, 4, 7, 9}));
    EXPECT_EQ(csr.col_idx, (std::vector<kit::index_t>{0, 1, 1, 2, 0, 2, 3, 1, 3}));
    EXPECT_EQ(csr.vals, (std::vector<float>{1, 7, 2, 8, 5, 3, 9, 6, 4}));
}

TEST(Csr, RoundTripThroughCooKeepsEveryEntry) {
    CooMatrix A = kit::generate_random(57, 43, 5, 3);
    A.add(56, 0, 1.0);  // make sure the last row is not empty... and some are
    A.normalize();

    const CooMatrix B = kit::Csr<double>::from_coo(A).to_coo();

    EXPECT_EQ(B.rows, A.rows);
    EXPECT_EQ(B.cols, A.cols);
    EXPECT_EQ(B.row_idx, A.row_idx);
    EXPECT_EQ(B.col_idx, A.col_idx);
    EXPECT_EQ(B.vals, A.vals);
}

TEST(Csr, RefusesAnUnnormalizedHub) {
    CooMatrix A;
    A.rows = A.cols = 2;
    A.add(1, 1, 1.0);
    A.add(0, 0, 1.0);

    EXPECT_THROW(kit::Csr<float>::from_coo(A), kit::Error);
}

TEST(Oracle, Example4x4GivesTheExercisesAnswer) {
    const std::vector<double> y = kit::oracle_spmv(kit::example4x4(), {1, 2, 3, 4}, {1, 2, 3, 4});

    EXPECT_EQ(y, (std::vector<double>{16, 30, 53, 32}));
}

TEST(Oracle, ToleranceGrowsWithRowLengthAndMagnitude) {
    CooMatrix A;
    A.rows = 2;
    A.cols = 3;
    A.add(0, 0, 1.0);
    A.add(1, 0, -2.0);
    A.add(1, 1, 2.0);
    A.add(1, 2, 2.0);
    const double eps = kit::eps_of(kit::Precision::f32);

    const auto tol = kit::spmv_tolerance(A, {1, 1, 1}, {0, 0}, eps);

    EXPECT_NEAR(tol[0], 5 * eps * 1.0, 1e-12);  // (1 + 4) eps |a||x|
    EXPECT_NEAR(tol[1], 7 * eps * 6.0, 1e-12);  // (3 + 4) eps (2+2+2), although y = 2
}

TEST(Oracle, CompareReportsTheFirstBadRowAndNeverPassesNaN) {
    const std::vector<double> expected{1, 2, 3};

    const auto ok = kit::compare_with_oracle(expected, {1, 2, 3}, {});
    const auto bad = kit::compare_with_oracle(expected, {1, 2.5, NAN}, {0.1, 0.1, 0.1});

    EXPECT_EQ(ok.row, -1);
    EXPECT_EQ(bad.row, 1);
    EXPECT_EQ(bad.bad_rows, 2);
    EXPECT_EQ(bad.actual, 2.5);
    EXPECT_TRUE(std::isnan(bad.max_error));
    EXPECT_NE(kit::describe(bad).find("row 1: expected 2, got 2.5"), std::string::npos) << kit::describe(bad);
}

TEST(MatrixStats, Example4x4) {
    CooMatrix A = kit::example4x4();
    A.normalize();

    const kit::MatrixStats s = kit::compute_stats(A);

    EXPECT_EQ(s.nnz, 9);
    EXPECT_EQ(s.min_row, 2);
    EXPECT_EQ(s.max_row, 3);
    EXPECT_EQ(s.diagonals, 3);  // offsets -2, 0, 1 (Bell and Garland's DIA figure)
    EXPECT_DOUBLE_EQ(s.ell_fill, 12.0 / 9.0);
    EXPECT_DOUBLE_EQ(s.dia_fill, 12.0 / 9.0);
    EXPECT_DOUBLE_EQ(s.bcsr_fill[1][1], 16.0 / 9.0);  // all four 2x2 blocks are occupied
}

TEST(Generators, RadiusFiveGridHas81DiagonalsIn11Bands) {
    CooMatrix A = kit::generate_radius_grid(40, 30, 5);

    const kit::MatrixStats s = kit::compute_stats(A);

    EXPECT_EQ(s.diagonals, 81);
    EXPECT_EQ(s.max_row, 81);
    EXPECT_TRUE(A.is_normalized());
}

TEST(Generators, StencilsHaveTheirRowLengths) {
    EXPECT_EQ(kit::compute_stats(kit::generate_stencil2d(10, 10)).max_row, 5);
    EXPECT_EQ(kit::compute_stats(kit::generate_stencil3d(6, 7)).max_row, 7);
    EXPECT_EQ(kit::compute_stats(kit::generate_stencil3d(6, 27)).max_row, 27);
    EXPECT_EQ(kit::generate_stencil2d(10, 10).nnz(), 5 * 100 - 4 * 10);
}

TEST(Generators, BandPutsItsDiagonalsSpacingApartAndCutsThemAtTheBorders) {
    const CooMatrix A = kit::generate_band(10, 3, 4);  // offsets -4, 0, 4

    const kit::MatrixStats s = kit::compute_stats(A);

    EXPECT_EQ(A.nnz(), 10 + 6 + 6);
    EXPECT_EQ(s.diagonals, 3);
    EXPECT_TRUE(A.is_normalized());
    ASSERT_EQ(A.row_idx.front(), 0);
    EXPECT_EQ(A.col_idx[0], 0);  // row 0: the main diagonal (3), then column 4 (-1)
    EXPECT_EQ(A.vals[0], 3.0);
    EXPECT_EQ(A.col_idx[1], 4);
    EXPECT_EQ(A.vals[1], -1.0);
    EXPECT_EQ(kit::generate_band(100, 8, 1).nnz(), 8 * 100 - (4 * 5 / 2 + 3 * 4 / 2));  // offsets -4..3
}

TEST(Generators, BandRefusesMoreDiagonalsThanTheMatrixHas) {
    EXPECT_THROW(kit::generate_band(4, 8, 1), kit::Error);
    EXPECT_THROW(kit::generate_band(4, 2, 0), kit::Error);
}

TEST(Generators, PowerLawHasOneLongRowAndManyShortOnes) {
    const kit::MatrixStats s = kit::compute_stats(kit::generate_power_law(5000, 2000, 1.0, 1));

    EXPECT_GT(s.max_row, 1500);  // random columns can collide and be summed
    EXPECT_EQ(s.min_row, 1);
    EXPECT_GT(s.stddev_row, 10 * s.mean_row / 4);
}

TEST(Generators, AreDeterministic) {
    const CooMatrix a = kit::generate_power_law(300, 100, 1.0, 9);
    const CooMatrix b = kit::generate_power_law(300, 100, 1.0, 9);

    EXPECT_EQ(a.col_idx, b.col_idx);
    EXPECT_EQ(a.vals, b.vals);
}
