// The given kernel with several threads per row (sell_spmv_threads, labs/11-sell/sell_split.cu)
// against the oracle, and the rule that picks the threads (kit::sell_threads_for). Not graded
// (a kit test of lab 11's build).
#include <gtest/gtest.h>

#include <set>

#include "io/generators.hpp"
#include "sell_test_support.hpp"

using kit::Backend;
using kit::Comparison;
using namespace kit::testing;

KIT_PRECISION_SUITE(SellThreadsCuda);

// Long, uneven rows (a power law up to 300 entries; about 100 random entries a row, on 1200
// columns), row counts no C divides, and every block shape the launch takes: several chunks per block
// (C * T < 256), one chunk per block (C * T >= 256) and chunks narrower than a warp.
TYPED_TEST(SellThreadsCuda, EveryThreadCountMatchesTheOracle) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const std::vector<Problem> problems = {random_vectors(kit::generate_power_law(1000, 300, 1.0, 5), 3),
                                           random_vectors(kit::generate_random(997, 1200, 100, 7), 4),
                                           example4x4_problem()};
    for (const Problem& problem : problems)
        for (const int C : {4, 32, 64, 256})
            for (const int T : {2, 4, 8}) {
                if (C * T > kit::kSellMaxC) continue;
                kit::RunOptions opt = sell_shape(C, 4 * C);
                opt.tunables[kit::kSellThreads] = T;
                const OracleRun run =
                    run_against_oracle("sell", Backend::cuda, this->precision, problem, Comparison::bound, opt);
                EXPECT_TRUE(matches_oracle(run))
                    << "C = " << C << ", " << T << " threads per row, " << problem.A.rows << " rows";
            }
}

// Rows of 2000 and 700 entries among 20000 rows of 8: their chunks are wide (sell_wide_plan),
// so the wide kernel takes them in segments and adds to y atomically, after the row kernels,
// in every chunk shape the fill limit lets through and with several threads per row.
TYPED_TEST(SellThreadsCuda, WideChunksMatchTheOracle) {
    kit::CooMatrix A = kit::generate_random(20000, 40000, 8, 11);
    for (kit::index_t c = 0; c < 2000; ++c) A.add(17, c, 0.5 + (c % 7));
    for (kit::index_t c = 0; c < 700; ++c) A.add(19999, 3 * c, 1.0 - (c % 3));
    A.normalize();  // sums the duplicates of rows 17 and 19999
    for (const int C : {4, 32, 64})
        for (const int T : {1, 2}) {  // the shapes below convert, and take the wide path
            const auto m = kit::Sell<double>::from_coo(A, {C, 4 * C, T});
            EXPECT_EQ(kit::sell_wide_plan(m.chunk_width, T, m.slots(), m.rows, 0).wide_chunk.size(), 8 + 3u) << C;
            // on an H200 the same two chunks, in segments of 64 slots (11 blocks would not fill it)
            const kit::SellWidePlan h200 = kit::sell_wide_plan(m.chunk_width, T, m.slots(), m.rows, 132 * 2048);
            EXPECT_EQ(h200.segment, kit::kSellWideMinSegment) << C;
            EXPECT_EQ(std::set<kit::index_t>(h200.wide_chunk.begin(), h200.wide_chunk.end()).size(), 2u) << C;
        }
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = random_vectors(A, 5);
    for (const int C : {4, 32, 64})
        for (const int T : {1, 2}) {
            kit::RunOptions opt = sell_shape(C, 4 * C);
            opt.tunables[kit::kSellThreads] = T;
            const OracleRun run =
                run_against_oracle("sell", Backend::cuda, this->precision, problem, Comparison::bound, opt);
            EXPECT_TRUE(matches_oracle(run)) << "C = " << C << ", " << T << " threads per row";
        }
    const OracleRun automatic =
        run_against_oracle("sell-auto", Backend::cuda, this->precision, problem, Comparison::bound, {});
    EXPECT_TRUE(matches_oracle(automatic)) << "sell-auto";
}

// Dense matrices have no row far above the mean, but too few rows to fill a GPU: their chunks
// go to the wide kernel once they are longer than 128 slots a thread (sell_wide_limit).
TYPED_TEST(SellThreadsCuda, DenseChunksTooFewToFillTheGpuMatchTheOracle) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem small = random_vectors(kit::generate_dense(300, 300, 3), 7);
    for (const int T : {1, 2, 4}) {  // 300 slots: wide for T = 1 and 2, in the row kernels for 4
        kit::RunOptions opt = sell_shape(32, 32);
        opt.tunables[kit::kSellThreads] = T;
        const OracleRun run = run_against_oracle("sell", Backend::cuda, this->precision, small, Comparison::bound, opt);
        EXPECT_TRUE(matches_oracle(run)) << T << " threads per row";
    }
    const Problem wide = random_vectors(kit::generate_dense(1100, 1300, 5), 9);  // sell-auto: T = 8
    const OracleRun automatic =
        run_against_oracle("sell-auto", Backend::cuda, this->precision, wide, Comparison::bound, {});
    EXPECT_TRUE(matches_oracle(automatic)) << "sell-auto";
}

// 40 pairs of rows of 7000 entries, 64 rows apart, among 2560 rows of 8, in chunks of 4 rows
// (half of each such chunk long, within the fill limit): 40 wide chunks of 28 segments of 256
// slots, 1120 blocks of 256 threads, enough to fill an H100 or H200, so the segments keep
// their full length there (the test above runs the shortest).
TYPED_TEST(SellThreadsCuda, ManyWideChunksKeepLongSegmentsAndMatchTheOracle) {
    kit::CooMatrix A = kit::generate_random(2560, 8000, 8, 13);
    for (kit::index_t r = 0; r < 2560; r += 64)
        for (kit::index_t c = 0; c < 7000; ++c) {
            A.add(r, c, 0.25 + (c % 5));
            A.add(r + 1, c, 1.5 - (c % 3));
        }
    A.normalize();
    const auto m = kit::Sell<double>::from_coo(A, {4, 4, 1});
    const kit::SellWidePlan plan = kit::sell_wide_plan(m.chunk_width, 1, m.slots(), m.rows, 132 * 2048);
    EXPECT_EQ(plan.segment, kit::kSellWideSegment);
    EXPECT_EQ(plan.wide_chunk.size(), 40 * 28u);
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const OracleRun run = run_against_oracle("sell", Backend::cuda, this->precision, random_vectors(A, 3),
                                             Comparison::bound, sell_shape(4, 4));
    EXPECT_TRUE(matches_oracle(run));
}

TEST(SellThreadsFor, InFloatOneThreadUntilEachHasSixteenSlotsOfTheMeanRow) {
    EXPECT_EQ(kit::sell_threads_for(32, 27 * 1000, 1000, 4), 1);    // fem_q1_dof3: 27 per row
    EXPECT_EQ(kit::sell_threads_for(32, 31 * 1000, 1000, 4), 1);    // 31: 15.5 slots each for T = 2
    EXPECT_EQ(kit::sell_threads_for(32, 40 * 1000, 1000, 4), 2);    // random32, sorted in windows
    EXPECT_EQ(kit::sell_threads_for(32, 81 * 1000, 1000, 4), 4);    // radius5: 81 per row
    EXPECT_EQ(kit::sell_threads_for(32, 2000 * 1000, 1000, 4), 8);  // dense rows
    EXPECT_EQ(kit::sell_threads_for(32, 0, 0, 4), 1);               // no rows
}

TEST(SellThreadsFor, InDoubleEachThreadStreamsTheSameBytes) {
    // 128 bytes of 12-byte slots: 10.7 slots a thread
    EXPECT_EQ(kit::sell_threads_for(32, 7 * 1000, 1000, 8), 1);     // stencil3d7
    EXPECT_EQ(kit::sell_threads_for(32, 21 * 1000, 1000, 8), 1);    // 10.5 slots each for T = 2
    EXPECT_EQ(kit::sell_threads_for(32, 27 * 1000, 1000, 8), 2);    // fem_q1_dof3
    EXPECT_EQ(kit::sell_threads_for(32, 40 * 1000, 1000, 8), 2);    // random32, sorted
    EXPECT_EQ(kit::sell_threads_for(32, 81 * 1000, 1000, 8), 4);    // radius5: 10.1 each for T = 8
    EXPECT_EQ(kit::sell_threads_for(32, 2000 * 1000, 1000, 8), 8);  // dense rows
}

TEST(SellThreadsFor, RowsThatLeaveTheGpuIdleGetMoreThreads) {
    const kit::count_t h200 = 132 * 2048;                                    // threads an H200 holds at once
    EXPECT_EQ(kit::sell_threads_for(32, 13 * 60000, 60000, 8, h200), 4);     // Andrews: 60,000 x 8 would not fit
    EXPECT_EQ(kit::sell_threads_for(32, 13 * 60000, 60000, 8), 1);           // the bytes rule alone: 13 slots
    EXPECT_EQ(kit::sell_threads_for(32, 5 * 2873, 2873, 8, h200), 8);        // zenios: few rows, 5 slots each
    EXPECT_EQ(kit::sell_threads_for(32, 3 * 1000, 1000, 4, h200), 4);        // 3 slots: not 8 threads for 3
    EXPECT_EQ(kit::sell_threads_for(32, 7 * 1000000, 1000000, 8, h200), 1);  // the 7-point stencil fills it
    EXPECT_EQ(kit::sell_threads_for(32, 7 * 70000, 70000, 8, h200), 2);      // 70,016 x 4 > 270,336
    EXPECT_EQ(kit::sell_threads_for(32, 0, 1000, 8, h200), 1);               // no slots
    EXPECT_EQ(kit::sell_threads_for(128, 5 * 1000, 1000, 8, h200), 2);       // C x T still fits the block
}

TEST(SellThreadsFor, ChunkAndThreadsFitTheBlock) {
    for (const kit::count_t value_bytes : {4, 8}) {
        EXPECT_EQ(kit::sell_threads_for(128, 2000 * 1000, 1000, value_bytes), 2);  // 128 x 2 = 256
        EXPECT_EQ(kit::sell_threads_for(256, 2000 * 1000, 1000, value_bytes), 1);
        EXPECT_EQ(kit::sell_threads_for(96, 2000 * 1000, 1000, value_bytes), 2);  // 96 x 2 <= 256: a block of 192
    }
}

TEST(SellThreadsFor, ConversionRefusesABadThreadCount) {
    const kit::CooMatrix A = kit::generate_stencil2d(8, 8);
    EXPECT_THROW(kit::Sell<double>::from_coo(A, {32, 32, 3}), kit::Error);
    EXPECT_THROW(kit::Sell<double>::from_coo(A, {256, 256, 8}), kit::Error);  // 2048 threads per chunk
    EXPECT_EQ(kit::Sell<double>::from_coo(A, {32, 32, 4}).threads, 4);
}
