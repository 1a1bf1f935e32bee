// The SELL-C-sigma container: the worked example of sell.hpp, the sort in windows of sigma,
// round trips through the COO hub, the fill beta, bad parameters and the padding refusal.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "core/kit_error.hpp"
#include "formats/sell.hpp"
#include "io/generators.hpp"
#include "measure/bytes_model.hpp"

using kit::CooMatrix;
using kit::index_t;
using kit::Sell;

namespace {

CooMatrix normalized(CooMatrix A) {
    A.normalize();
    return A;
}

bool same_matrix(const CooMatrix& a, const CooMatrix& b) {
    return a.rows == b.rows && a.cols == b.cols && a.row_idx == b.row_idx && a.col_idx == b.col_idx && a.vals == b.vals;
}

}  // namespace

TEST(Sell, Example4x4HasTheArraysOfTheHeader) {
    const auto m = Sell<float>::from_coo(normalized(kit::example4x4()), {2, 4});

    EXPECT_EQ(m.C, 2);
    EXPECT_EQ(m.sigma, 4);
    EXPECT_EQ(m.perm, (std::vector<index_t>{2, 0, 1, 3}));
    EXPECT_EQ(m.chunk_width, (std::vector<index_t>{3, 2}));
    EXPECT_EQ(m.chunk_ptr, (std::vector<index_t>{0, 6, 10}));
    EXPECT_EQ(m.vals, (std::vector<float>{5, 1, 3, 7, 9, 0, 2, 6, 8, 4}));
    EXPECT_EQ(m.col_idx, (std::vector<index_t>{0, 0, 2, 1, 3, -1, 1, 1, 2, 3}));
    EXPECT_EQ(m.nnz(), 9);
    EXPECT_EQ(m.slots(), 10);
    EXPECT_DOUBLE_EQ(m.beta(), 0.9);
}

TEST(Sell, DefaultsAreAWarpAndAWindowOfEightWarps) {
    const auto m = Sell<double>::from_coo(normalized(kit::example4x4()));

    EXPECT_EQ(m.C, kit::kSellDefaultC);
    EXPECT_EQ(m.sigma, kit::kSellDefaultSigma);
    EXPECT_EQ(m.chunks(), 1);
    EXPECT_EQ(m.slots(), 3 * 32);  // the last chunk keeps C lanes: 28 of them hold no row
    EXPECT_EQ(m.perm.size(), 4u);
    EXPECT_EQ(kit::sell_resolve({128, 0}).sigma, 256);
    EXPECT_EQ(kit::sell_resolve({512, 0}).sigma, 512);
}

TEST(Sell, SortsLongestFirstInsideEachWindowOnly) {
    const std::vector<index_t> lengths = {1, 3, 2, 5, 4, 0, 4, 1};

    EXPECT_EQ(kit::sell_row_order(lengths, 1), (std::vector<index_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(kit::sell_row_order(lengths, 4), (std::vector<index_t>{3, 1, 2, 0, 4, 6, 7, 5}));
    EXPECT_EQ(kit::sell_row_order(lengths, 3), (std::vector<index_t>{1, 2, 0, 3, 4, 5, 6, 7}));
    EXPECT_EQ(kit::sell_row_order(lengths, 100), (std::vector<index_t>{3, 4, 6, 1, 2, 0, 7, 5}));
}

TEST(Sell, RoundTripsThroughTheHub) {
    std::vector<std::pair<std::string, CooMatrix>> matrices = {
        {"4x4", kit::example4x4()},
        {"stencil2d 33x31", kit::generate_stencil2d(33, 31)},
        {"random 300x200", kit::generate_random(300, 200, 7, 11)},
        {"power law 3000", kit::generate_power_law(3000, 300, 1.0, 13)},
        {"dense rows 1000", kit::generate_dense_rows(1000, 4, 2, 17)}};
    CooMatrix empty_rows;  // rows 0..69 empty but one, and an explicit zero kept
    empty_rows.rows = 70;
    empty_rows.cols = 5;
    empty_rows.add(33, 4, 0.0);
    empty_rows.add(69, 0, 2.5);
    matrices.emplace_back("70x5 mostly empty", empty_rows);
    const std::vector<kit::SellParams> shapes = {{1, 1}, {2, 4}, {4, 1}, {32, 1}, {32, 256}, {64, 1 << 20}, {3, 9}};
    for (auto& [name, A] : matrices) {
        A.normalize();
        for (const kit::SellParams p : shapes) {
            const auto m = Sell<double>::from_coo(A, p);
            EXPECT_TRUE(same_matrix(m.to_coo(), A)) << name << " C " << p.C << " sigma " << p.sigma;
            EXPECT_EQ(m.nnz(), A.nnz()) << name;
            EXPECT_EQ(m.chunk_ptr.back(), m.slots()) << name;
            EXPECT_GE(m.slots(), A.nnz()) << name;
        }
    }
}

TEST(Sell, SortingNeverAddsPaddingWithinOneWindow) {
    CooMatrix A = normalized(kit::generate_power_law(4096, 200, 1.0, 19));

    const auto unsorted = Sell<double>::from_coo(A, {32, 1});
    const auto sorted = Sell<double>::from_coo(A, {32, 4096});

    EXPECT_LE(sorted.slots(), unsorted.slots());
    EXPECT_GT(sorted.beta(), unsorted.beta());
}

TEST(Sell, RowsAreInPlaceExactlyWhenSigmaIsOne) {
    // The GPU kernels skip the permutation when rows_in_place says so: it must then be the
    // identity, and a sorted matrix must never claim it. The bytes model drops 4 B a row.
    const CooMatrix A = normalized(kit::generate_power_law(1000, 60, 1.0, 7));
    const auto in_place = Sell<double>::from_coo(A, {32, 1});
    ASSERT_EQ(in_place.rows_in_place(), 1);
    EXPECT_EQ(in_place.view().rows_in_place, 1);
    for (index_t p = 0; p < in_place.rows; ++p) ASSERT_EQ(in_place.perm[p], p) << "position " << p;
    const auto sorted = Sell<double>::from_coo(A, {32, 256});
    EXPECT_EQ(sorted.rows_in_place(), 0);
    EXPECT_EQ(sorted.view().rows_in_place, 0);
    EXPECT_EQ(kit::sell_bytes_of(in_place, 8),
              kit::sell_bytes(A.rows, A.cols, in_place.chunks(), in_place.slots(), 8) - 4 * A.rows);
    EXPECT_EQ(kit::sell_bytes_of(sorted, 8), kit::sell_bytes(A.rows, A.cols, sorted.chunks(), sorted.slots(), 8));
}

TEST(Sell, RejectsBadParameters) {
    const CooMatrix A = normalized(kit::example4x4());

    EXPECT_THROW(Sell<double>::from_coo(A, {-1, 1}), kit::Error);
    EXPECT_THROW(Sell<double>::from_coo(A, {kit::kSellMaxC * 2, 1}), kit::Error);
    EXPECT_THROW(Sell<double>::from_coo(A, {4, 6}), kit::Error);  // sigma not a multiple of C
    EXPECT_THROW(Sell<double>::from_coo(A, {4, -4}), kit::Error);
    CooMatrix unsorted;  // entries out of row order: not normalized
    unsorted.rows = unsorted.cols = 2;
    unsorted.add(1, 0, 1.0);
    unsorted.add(0, 1, 2.0);
    EXPECT_THROW(Sell<double>::from_coo(unsorted, {2, 4}), kit::Error);
    EXPECT_NO_THROW(Sell<double>::from_coo(A, {4, 1}));
}

TEST(Sell, RefusesPaddingBeyondTheLimitWithTheFigures) {
    // One row of 2000 entries in each of 64 chunks, the others 1 entry: with sigma = C the
    // sort cannot gather the long rows, so every chunk is 2000 wide.
    CooMatrix A;
    A.rows = 64 * 32;
    A.cols = 2000;
    for (index_t r = 0; r < A.rows; ++r) {
        const index_t len = r % 32 == 0 ? 2000 : 1;
        for (index_t c = 0; c < len; ++c) A.add(r, c, 1.0);
    }
    A.normalize();

    try {
        Sell<double>::from_coo(A, {32, 32});
        FAIL() << "expected ConversionRefused";
    } catch (const kit::ConversionRefused& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("C 32 and sigma 32"), std::string::npos) << msg;
        EXPECT_NE(msg.find("2000 slots wide"), std::string::npos) << msg;
        EXPECT_NE(msg.find("4096000 slots for 129984 nonzeros"), std::string::npos) << msg;
        EXPECT_NE(msg.find("limit 3 x nnz + 65536"), std::string::npos) << msg;
    }
    // A window over every row gathers the long rows into two chunks: accepted.
    EXPECT_NO_THROW(Sell<double>::from_coo(A, {32, 64 * 32}));
}

TEST(SellWidePlan, ChunksFarWiderThanTheMeanGoToTheWideKernelInSegments) {
    // 10 chunks: nine of width 4, one of width 600; 10 rows per chunk, so the mean stored row
    // is (9 * 4 + 600) / 10 = 63.6 slots, and the limit is max(128 * T, 4 * 63.6 = 254).
    std::vector<index_t> widths(10, 4);
    widths[3] = 600;
    const kit::count_t slots = (9 * 4 + 600) * 10;
    const kit::SellWidePlan one = kit::sell_wide_plan(widths, 1, slots, 100, 0);
    EXPECT_EQ(kit::sell_wide_limit(1, slots, 100, 0), 254);
    std::vector<index_t> seen(10, 4);
    seen[3] = 0;
    EXPECT_EQ(one.row_widths, seen);
    // ceil(600 / 256) = 3 segments, from slots 0, 256 and 512
    EXPECT_EQ(one.wide_chunk, (std::vector<index_t>{3, 3, 3}));
    EXPECT_EQ(one.wide_from, (std::vector<index_t>{0, 256, 512}));
    // with 8 threads a row the limit is 1024 slots: the row kernels keep every chunk
    const kit::SellWidePlan eight = kit::sell_wide_plan(widths, 8, slots, 100, 0);
    EXPECT_EQ(kit::sell_wide_limit(8, slots, 100, 0), 1024);
    EXPECT_EQ(eight.row_widths, widths);
    EXPECT_TRUE(eight.wide_chunk.empty());
}

TEST(SellWidePlan, UniformlyLongRowsNeverTakeTheWidePathWhenTheyFillTheGpu) {
    // a dense 300 x 300 matrix: every chunk 300 wide, the mean row 300; its 300 threads fill a
    // GPU of 300 resident threads (and one of unknown size, 0)
    const Sell<double> m = Sell<double>::from_coo(kit::generate_dense(300, 300, 1), {32, 32});
    for (const kit::count_t resident : {0, 300}) {
        const kit::SellWidePlan plan = kit::sell_wide_plan(m.chunk_width, 1, m.slots(), m.rows, resident);
        EXPECT_EQ(plan.row_widths, m.chunk_width) << resident;
        EXPECT_TRUE(plan.wide_chunk.empty()) << resident;
    }
    EXPECT_TRUE(kit::sell_wide_plan({}, 1, 0, 0, 0).wide_chunk.empty());       // an empty matrix
    EXPECT_TRUE(kit::sell_wide_plan({}, 1, 0, 0, 270336).wide_chunk.empty());  // on an H200
}

TEST(SellWidePlan, LongRowsTooFewToFillTheGpuGoToTheWideKernel) {
    // the same matrix on a GPU of 132 SMs x 2048 threads: 300 rows x T threads leave it almost
    // empty, so every chunk longer than 128 slots a thread goes to the wide kernel (10 chunks);
    // their 20 segments of 256 slots would not fill it either, so the segments shrink to the
    // shortest, 64 slots: ceil(300 / 64) = 5 a chunk
    const Sell<double> m = Sell<double>::from_coo(kit::generate_dense(300, 300, 1), {32, 32});
    const kit::count_t h200 = 132 * 2048;
    EXPECT_EQ(kit::sell_wide_limit(1, m.slots(), m.rows, h200), 128);
    const kit::SellWidePlan one = kit::sell_wide_plan(m.chunk_width, 1, m.slots(), m.rows, h200);
    EXPECT_EQ(one.row_widths, std::vector<index_t>(10, 0));
    EXPECT_EQ(one.segment, kit::kSellWideMinSegment);
    EXPECT_EQ(one.wide_chunk.size(), 50u);
    EXPECT_EQ(one.wide_from[1], 64);
    EXPECT_EQ(one.wide_from[5], 0);  // the next chunk
    EXPECT_EQ(one.wide_chunk[5], 1);
    // with 4 threads a row, 300 slots are 75 a thread: the row kernels keep them
    EXPECT_EQ(kit::sell_wide_limit(4, m.slots(), m.rows, h200), 512);
    EXPECT_TRUE(kit::sell_wide_plan(m.chunk_width, 4, m.slots(), m.rows, h200).wide_chunk.empty());
}

TEST(SellWidePlan, SegmentsHalveOnlyUntilTheirBlocksFillTheGpu) {
    const kit::count_t h200 = 132 * 2048;
    // 1000 chunks of 300 slots a row (32 rows each): 2000 segments of 256 slots, 512,000
    // threads of blocks of 256, fill an H200: the segments stay at 256
    const std::vector<index_t> many(1000, 300);
    EXPECT_EQ(kit::sell_wide_plan(many, 1, 300 * 32000, 32000, h200).segment, 256);
    // 700 of them: 1400 x 256 = 358,400 threads still fill it; 500: 1000 segments do not, and
    // 128 slots (1500 segments, 384,000 threads) do
    EXPECT_EQ(kit::sell_wide_plan(std::vector<index_t>(700, 300), 1, 300 * 22400, 22400, h200).segment, 256);
    const kit::SellWidePlan half = kit::sell_wide_plan(std::vector<index_t>(500, 300), 1, 300 * 16000, 16000, h200);
    EXPECT_EQ(half.segment, 128);
    EXPECT_EQ(half.wide_chunk.size(), 1500u);
    // a row of 250,000 slots would end in 977 atomics on its y entry with 256-slot segments, and
    // twice as many with 128: too long a chain, whatever the GPU's size
    EXPECT_EQ(kit::sell_wide_plan(std::vector<index_t>{250000, 10, 10}, 1, 250020 * 32, 96, h200).segment, 256);
    // a GPU of unknown size (0) keeps the longest segments
    EXPECT_EQ(kit::sell_wide_plan(std::vector<index_t>(10, 3000), 1, 3000 * 320, 320, 0).segment, 256);
}
