// The ELL and HYB containers: column-major layout of the 4x4 example, padding, the width
// refusal, HYB's width heuristic and its split into ELL and COO parts.
#include <gtest/gtest.h>

#include <string>

#include "io/generators.hpp"
#include "formats/hyb.hpp"
#include "core/kit_error.hpp"

using kit::CooMatrix;
using kit::Ell;
using kit::Hyb;
using kit::index_t;

namespace {

CooMatrix normalized(CooMatrix A) {
    A.normalize();
    return A;
}

std::vector<index_t> lengths_of(const CooMatrix& A) {
    std::vector<index_t> len(static_cast<std::size_t>(A.rows), 0);
    for (index_t r : A.row_idx) ++len[r];
    return len;
}

}  // namespace

TEST(Ell, Example4x4HasTheColumnMajorArrays) {
    const auto ell = Ell<float>::from_coo(normalized(kit::example4x4()));

    EXPECT_EQ(ell.width, 3);
    EXPECT_EQ(ell.pitch, 32);
    EXPECT_EQ(ell.nnz(), 9);
    ASSERT_EQ(ell.vals.size(), 3u * 32u);
    const float* v = ell.vals.data();
    const index_t* c = ell.col_idx.data();
    EXPECT_EQ((std::vector<float>(v, v + 4)), (std::vector<float>{1, 2, 5, 6}));  // slot 0 of rows 0..3
    EXPECT_EQ((std::vector<float>(v + 32, v + 36)), (std::vector<float>{7, 8, 3, 4}));
    EXPECT_EQ((std::vector<float>(v + 64, v + 68)), (std::vector<float>{0, 0, 9, 0}));
    EXPECT_EQ((std::vector<index_t>(c, c + 4)), (std::vector<index_t>{0, 1, 0, 1}));
    EXPECT_EQ((std::vector<index_t>(c + 32, c + 36)), (std::vector<index_t>{1, 2, 2, 3}));
    EXPECT_EQ((std::vector<index_t>(c + 64, c + 68)), (std::vector<index_t>{-1, -1, 3, -1}));
}

TEST(Ell, PaddingIsMarkedByANegativeColumnAndHoldsZeros) {
    const auto ell = Ell<double>::from_coo(normalized(kit::example4x4()));

    int padding = 0;
    for (index_t k = 0; k < ell.width; ++k)
        for (index_t r = 0; r < ell.pitch; ++r)
            if (ell.is_padding(k, r)) {
                ++padding;
                EXPECT_EQ(ell.vals[static_cast<std::size_t>(k) * ell.pitch + r], 0.0);
            }
    EXPECT_EQ(padding, 3 * 32 - 9);
    EXPECT_EQ(Ell<double>::kPadding, -1);
}

TEST(Ell, RoundTripThroughCooKeepsEveryEntryAndExplicitZeros) {
    CooMatrix A = kit::generate_random(75, 60, 4, 9);
    A.add(3, 59, 0.0);  // an explicit zero is part of the pattern
    A.normalize();

    const CooMatrix B = Ell<double>::from_coo(A).to_coo();

    EXPECT_EQ(B.rows, A.rows);
    EXPECT_EQ(B.cols, A.cols);
    EXPECT_EQ(B.row_idx, A.row_idx);
    EXPECT_EQ(B.col_idx, A.col_idx);
    EXPECT_EQ(B.vals, A.vals);
}

TEST(Ell, RefusesOneVeryLongRowStatingTheFigures) {
    const CooMatrix A = kit::generate_dense_rows(5000, 5, 1, 2);  // row 2500 is full

    std::string msg;
    try {
        Ell<double>::from_coo(A);
    } catch (const kit::ConversionRefused& e) {
        msg = e.what();
    }

    ASSERT_NE(msg, "") << "ELL of a matrix with one full row would pad every row to 5000 slots";
    for (const std::string& figure :
         {std::string("row 2500"), std::string("5000 entries"), std::string("width 5000 x pitch 5024 = 25120000 slots"),
          std::to_string(A.nnz()) + " nonzeros", "3 x nnz + 65536 = " + std::to_string(3 * A.nnz() + 65536),
          std::string("HYB")})
        EXPECT_NE(msg.find(figure), std::string::npos) << "missing '" << figure << "' in: " << msg;
}

TEST(Ell, FloorKeepsSmallMatricesIn) {
    const CooMatrix A = kit::generate_dense_rows(100, 3, 1, 3);  // width 100 x pitch 128: below the floor

    const auto ell = Ell<float>::from_coo(A);

    EXPECT_EQ(ell.width, 100);
    EXPECT_EQ(ell.nnz(), A.nnz());
}

TEST(Ell, FirstEntriesOfRowsLeavesTheRestOut) {
    const CooMatrix A = normalized(kit::example4x4());
    std::vector<kit::count_t> left_out;

    const auto ell = Ell<float>::first_entries_of_rows(A, 2, 32, &left_out);

    EXPECT_EQ(ell.width, 2);
    EXPECT_EQ(ell.nnz(), 8);
    EXPECT_EQ(left_out, (std::vector<kit::count_t>{6}));  // entry (2,3) = 9, the third of row 2
}

TEST(HybEllWidth, FollowsTheRowLengthHistogram) {
    kit::HybOptions cusp;
    cusp.breakeven_rows = 4096;
    kit::HybOptions all_rows;
    all_rows.relative_speed = 1.0;

    EXPECT_EQ(kit::hyb_ell_width({2, 2, 3, 2}), 2);                        // the 4x4 example
    EXPECT_EQ(kit::hyb_ell_width({}), 0);                                  // empty matrix
    EXPECT_EQ(kit::hyb_ell_width({0, 0, 0}), 0);                           // no entries
    EXPECT_EQ(kit::hyb_ell_width({1, 1, 1, 100}), 1);                      // one long row goes to COO
    EXPECT_EQ(kit::hyb_ell_width({5, 5, 5, 1, 1, 1, 1, 1, 1}), 5);         // 3 of 9 rows reach 5: a third
    EXPECT_EQ(kit::hyb_ell_width({5, 5, 1, 1, 1, 1, 1, 1, 1}), 1);         // 2 of 9 do not
    EXPECT_EQ(kit::hyb_ell_width({300}), 300);                             // a single row is all ELL
    EXPECT_EQ(kit::hyb_ell_width(std::vector<index_t>(450, 6), cusp), 0);  // CUSP: too few rows for ELL
    EXPECT_EQ(kit::hyb_ell_width({4, 7, 9, 3}, all_rows), 3);              // every row must reach K
}

TEST(Hyb, Example4x4SplitsAfterTwoEntries) {
    const auto hyb = Hyb<float>::from_coo(normalized(kit::example4x4()));

    EXPECT_EQ(hyb.ell.width, 2);
    EXPECT_EQ(hyb.ell.nnz(), 8);
    EXPECT_EQ(hyb.coo.row_idx, (std::vector<index_t>{2}));
    EXPECT_EQ(hyb.coo.col_idx, (std::vector<index_t>{3}));
    EXPECT_EQ(hyb.coo.vals, (std::vector<float>{9}));
    EXPECT_EQ(hyb.nnz(), 9);
}

TEST(Hyb, OneDenseRowGoesToCooAndEllPaddingStaysBounded) {
    const CooMatrix A = kit::generate_dense_rows(3000, 6, 1, 4);
    const index_t K = kit::hyb_ell_width(lengths_of(A));
    kit::count_t excess = 0;
    for (index_t len : lengths_of(A)) excess += len > K ? len - K : 0;

    const auto hyb = Hyb<double>::from_coo(A);

    EXPECT_EQ(hyb.ell.width, K);
    EXPECT_GE(K, 4);
    EXPECT_LE(K, 6);
    EXPECT_EQ(static_cast<kit::count_t>(hyb.coo.vals.size()), excess);
    EXPECT_GE(excess, 3000 - K);                                          // the dense row's tail at least
    EXPECT_LE(static_cast<kit::count_t>(K) * A.rows, 3 * hyb.ell.nnz());  // every ELL column at least a third full
    EXPECT_LT(hyb.fill(), 1.1);
}

TEST(Hyb, RoundTripThroughCooKeepsEveryEntry) {
    const CooMatrix A = kit::generate_power_law(3000, 1000, 1.0, 8);

    const CooMatrix B = Hyb<double>::from_coo(A).to_coo();

    EXPECT_EQ(B.row_idx, A.row_idx);
    EXPECT_EQ(B.col_idx, A.col_idx);
    EXPECT_EQ(B.vals, A.vals);
}

TEST(Hyb, CooPartStaysSortedByRow) {
    const auto hyb = Hyb<float>::from_coo(kit::generate_power_law(3000, 1000, 1.0, 8));

    ASSERT_GT(hyb.coo.vals.size(), 0u);
    for (std::size_t k = 1; k < hyb.coo.row_idx.size(); ++k) ASSERT_LE(hyb.coo.row_idx[k - 1], hyb.coo.row_idx[k]);
}
