// The BCSR container (conversions, partial blocks, fill, refusals); the autotuner's profile file is
// lab 05's (tests/05-bcsr/kit/test_bcsr_profile.cpp).
#include <gtest/gtest.h>

#include <sstream>

#include "formats/bcsr.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "model/matrix_stats.hpp"

using kit::CooMatrix;

namespace {

CooMatrix normalized(CooMatrix A) {
    A.normalize();
    return A;
}

}  // namespace

TEST(Bcsr, Example4x4With2x2BlocksHasTheWorkedArrays) {
    const CooMatrix A = normalized(kit::example4x4());

    const auto b = kit::Bcsr<float>::from_coo(A, 2, 2);

    EXPECT_EQ(b.row_ptr, (std::vector<kit::index_t>{0, 2, 4}));
    EXPECT_EQ(b.col_idx, (std::vector<kit::index_t>{0, 2, 0, 2}));
    EXPECT_EQ(b.vals, (std::vector<float>{1, 7, 0, 2, 0, 0, 8, 0, 5, 0, 0, 6, 3, 9, 0, 4}));
    EXPECT_DOUBLE_EQ(b.fill(), 16.0 / 9.0);
}

TEST(Bcsr, Example4x4With3x3BlocksPadsThePartialBlocks) {
    const CooMatrix A = normalized(kit::example4x4());

    const auto b = kit::Bcsr<double>::from_coo(A, 3, 3);

    EXPECT_EQ(b.block_rows(), 2);
    EXPECT_EQ(b.row_ptr, (std::vector<kit::index_t>{0, 2, 4}));
    EXPECT_EQ(b.col_idx, (std::vector<kit::index_t>{0, 3, 0, 3}));
    EXPECT_EQ(b.vals, (std::vector<double>{1, 7, 0, 0, 2, 8, 5, 0, 3,  // rows 0-2, columns 0-2
                                           0, 0, 0, 0, 0, 0, 9, 0, 0,  // rows 0-2, column 3 (+ 2 outside)
                                           0, 6, 0, 0, 0, 0, 0, 0, 0,  // row 3 (+ 2 outside), columns 0-2
                                           4, 0, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_DOUBLE_EQ(b.fill(), 4.0);
}

TEST(Bcsr, RoundTripThroughCooForEveryShape) {
    CooMatrix A = kit::generate_random(29, 31, 5, 3);
    A.add(28, 30, 0.5);  // an entry in the corner block, whatever the shape
    A.normalize();

    for (int r = 1; r <= 4; ++r)
        for (int c = 1; c <= 4; ++c) {
            const CooMatrix B = kit::Bcsr<double>::from_coo(A, r, c).to_coo();

            EXPECT_EQ(B.rows, A.rows);
            EXPECT_EQ(B.cols, A.cols);
            EXPECT_EQ(B.row_idx, A.row_idx) << r << "x" << c;
            EXPECT_EQ(B.col_idx, A.col_idx) << r << "x" << c;
            EXPECT_EQ(B.vals, A.vals) << r << "x" << c;
        }
}

TEST(Bcsr, FillIsTheStoredValuesOverTheEntries) {
    const CooMatrix A = normalized(kit::generate_stencil2d(13, 11));

    for (int r = 1; r <= 4; ++r)
        for (int c = 1; c <= 4; ++c) {
            const auto b = kit::Bcsr<float>::from_coo(A, r, c);

            EXPECT_EQ(b.vals.size(), static_cast<std::size_t>(b.blocks()) * r * c);
            EXPECT_DOUBLE_EQ(b.fill(), kit::bcsr_fill_ratio(A, r, c)) << r << "x" << c;
        }
}

TEST(Bcsr, EmptyMatrixHasOneEmptyBlockRowPerRBlockOfRows) {
    CooMatrix A;
    A.rows = 5;
    A.cols = 3;

    const auto b = kit::Bcsr<double>::from_coo(A, 2, 2);

    EXPECT_EQ(b.row_ptr, (std::vector<kit::index_t>{0, 0, 0, 0}));
    EXPECT_EQ(b.blocks(), 0);
    EXPECT_DOUBLE_EQ(b.fill(), 1.0);
}

TEST(Bcsr, RefusesAbsurdFillWithTheFigures) {
    // Scattered entries: almost every entry gets a 4x4 block of its own (fill near 16).
    const CooMatrix A = normalized(kit::generate_random(20000, 20000, 8, 5));

    try {
        kit::Bcsr<double>::from_coo(A, 4, 4);
        FAIL() << "a 4x4 split of a random matrix should be refused";
    } catch (const kit::ConversionRefused& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("4x4"), std::string::npos) << msg;
        EXPECT_NE(msg.find("nonzeros (fill 1"), std::string::npos) << msg;
        EXPECT_NE(msg.find("limit 8 x nnz + 1048576"), std::string::npos) << msg;
    }
    EXPECT_NO_THROW(kit::Bcsr<double>::from_coo(A, 1, 2));  // fill below 2 is fine
}

TEST(Bcsr, RejectsUnsupportedBlockShapesAndUnnormalizedHubs) {
    const CooMatrix A = normalized(kit::example4x4());
    CooMatrix unsorted;
    unsorted.rows = unsorted.cols = 2;
    unsorted.add(1, 1, 1.0);
    unsorted.add(0, 0, 1.0);

    EXPECT_THROW(kit::Bcsr<double>::from_coo(A, 0, 2), kit::Error);
    EXPECT_THROW(kit::Bcsr<double>::from_coo(A, 2, 5), kit::Error);
    EXPECT_THROW(kit::Bcsr<double>::from_coo(unsorted, 1, 1), kit::Error);
}
