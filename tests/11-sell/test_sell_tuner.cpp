// Lab 11 public tests of step 3: the slots of SELL-C-sigma from the row lengths, and the
// (C, sigma) rule. Tier 1: small row-length lists checked by hand. Tier 2: rdb450 and
// larger matrices, checked against the kit's container (Sell::from_coo).
#include <string>
#include <vector>

#include "io/generators.hpp"
#include "measure/bytes_model.hpp"
#include "sell_test_support.hpp"

using kit::CooMatrix;
using kit::count_t;
using kit::index_t;
using namespace kit::testing;

namespace {

CooMatrix normalized(CooMatrix A) {
    A.normalize();
    return A;
}

// The slots the kit's container stores for (C, sigma), with no fill limit.
count_t format_slots(const CooMatrix& A, index_t C, index_t sigma) {
    return kit::Sell<float>::from_coo(A, {C, sigma}, {1e12, 0}).slots();
}

// Checks a choice of choose_sell on A against the rule: every candidate of kTunerC x
// sigma_candidates in order, with the container's slots and sell_bytes, and the pick the
// first whose bytes are within kTieBand of the fewest.
::testing::AssertionResult follows_the_rule(const CooMatrix& A, const kit::sell::SellChoice& got,
                                            count_t value_bytes) {
    std::vector<kit::sell::SellCandidate> want;
    count_t fewest = -1;
    for (const index_t C : kit::sell::kTunerC)
        for (const index_t sigma : kit::sell::sigma_candidates(C, A.rows)) {
            const count_t slots = format_slots(A, C, sigma);
            const count_t chunks = (static_cast<count_t>(A.rows) + C - 1) / C;
            want.push_back({C, sigma, slots, kit::sell_bytes(A.rows, A.cols, chunks, slots, value_bytes)});
            if (fewest < 0 || want.back().bytes < fewest) fewest = want.back().bytes;
        }
    if (got.candidates.size() != want.size())
        return ::testing::AssertionFailure() << "11-sell step 3: choose_sell rated " << got.candidates.size()
                                             << " candidates, expected " << want.size();
    for (std::size_t i = 0; i < want.size(); ++i) {
        const auto& g = got.candidates[i];
        const auto& w = want[i];
        if (g.C != w.C || g.sigma != w.sigma || g.slots != w.slots || g.bytes != w.bytes)
            return ::testing::AssertionFailure()
                   << "11-sell step 3: candidate " << i << " is (C " << g.C << ", sigma " << g.sigma << ", slots "
                   << g.slots << ", bytes " << g.bytes << "), expected (C " << w.C << ", sigma " << w.sigma
                   << ", slots " << w.slots << ", bytes " << w.bytes << ")";
    }
    for (const auto& w : want)
        if (static_cast<double>(w.bytes) <= (1.0 + kit::sell::kTieBand) * static_cast<double>(fewest)) {
            if (got.best.C != w.C || got.best.sigma != w.sigma || got.best.bytes != w.bytes)
                return ::testing::AssertionFailure()
                       << "11-sell step 3: picked C " << got.best.C << ", sigma " << got.best.sigma << " ("
                       << got.best.bytes << " bytes), expected C " << w.C << ", sigma " << w.sigma << " (" << w.bytes
                       << " bytes: the first within " << kit::sell::kTieBand * 100 << "% of the fewest, " << fewest
                       << ")";
            break;
        }
    return ::testing::AssertionSuccess();
}

kit::sell::SellChoice observed_choice(const CooMatrix& A, count_t value_bytes) {
    const std::vector<index_t> lengths = kit::sell_row_lengths(A);
    return observe([&] { return kit::sell::choose_sell(lengths, A.cols, value_bytes); });
}

}  // namespace

TEST(Step3_SellSlots, Example4x4) {
    const std::vector<index_t> lengths = {2, 2, 3, 2};  // the 4x4 example's rows

    EXPECT_EQ(observe([&] { return kit::sell::sell_slots(lengths, 2, 4); }), 10);  // sell.hpp's drawing
    EXPECT_EQ(observe([&] { return kit::sell::sell_slots(lengths, 2, 1); }), 10);
    EXPECT_EQ(observe([&] { return kit::sell::sell_slots(lengths, 4, 1); }), 12);  // ELL
    EXPECT_EQ(observe([&] { return kit::sell::sell_slots(lengths, 1, 1); }), 9);   // CSR: no padding
    EXPECT_EQ(observe([&] { return kit::sell::sell_slots(lengths, 3, 3); }), 15);  // last chunk has 3 lanes
}

TEST(Step3_SellSlots, SortingInWindows) {
    const std::vector<index_t> lengths = {1, 3, 2, 5, 4, 0, 4, 1};

    EXPECT_EQ(observe([&] { return kit::sell::sell_slots(lengths, 2, 1); }), 32);  // widths 3 5 4 4
    EXPECT_EQ(observe([&] { return kit::sell::sell_slots(lengths, 2, 4); }), 24);  // widths 5 2 4 1
    EXPECT_EQ(observe([&] { return kit::sell::sell_slots(lengths, 3, 6); }), 33);  // widths 5 2 4, 3 lanes each
}

TEST(Step3_SellSlots, Rdb450MatchesTheFormat) {
    const CooMatrix A = rdb450_problem().A;
    const std::vector<index_t> lengths = kit::sell_row_lengths(A);

    for (const index_t C : {1, 4, 32, 64})
        for (const index_t sigma : {1, 4 * C, 4096}) {
            const count_t got = observe([&] { return kit::sell::sell_slots(lengths, C, sigma); });
            EXPECT_EQ(got, format_slots(A, C, sigma)) << "C " << C << ", sigma " << sigma;
        }
}

TEST(Step3_ChooseSell, NearlyEqualRowsStayInTheirOrder) {
    const CooMatrix A = normalized(kit::generate_stencil2d(64, 64));  // rows of 5, 4 on the edges

    const kit::sell::SellChoice choice = observed_choice(A, 8);

    EXPECT_TRUE(follows_the_rule(A, choice, 8));
    EXPECT_EQ(choice.best.C, 32);
    EXPECT_EQ(choice.best.sigma, 1);
}

TEST(Step3_ChooseSell, PowerLawRowsAreSorted) {
    const CooMatrix A = normalized(kit::generate_power_law(20000, 2000, 1.0, 43));

    const kit::sell::SellChoice choice = observed_choice(A, 4);

    EXPECT_TRUE(follows_the_rule(A, choice, 4));
    EXPECT_GT(choice.best.sigma, 1);
}

TEST(Step3_ChooseSell, Rdb450FollowsTheRule) {
    const CooMatrix A = rdb450_problem().A;

    const kit::sell::SellChoice in_double = observed_choice(A, 8);
    const kit::sell::SellChoice in_float = observed_choice(A, 4);

    EXPECT_TRUE(follows_the_rule(A, in_double, 8));
    EXPECT_TRUE(follows_the_rule(A, in_float, 4));
}
