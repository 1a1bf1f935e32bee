// sell::auto_setting (labs/11-sell/sell_tuner.hpp): sell-auto's (C, sigma) is choose_sell's
// pick, with sigma raised to the global sort where the rows scatter over x. Not graded (a kit
// test of lab 11's build; it runs the reference's choose_sell).
#include <gtest/gtest.h>

#include "io/generators.hpp"
#include "measure/bytes_model.hpp"
#include "sell_tuner.hpp"
#include "test_support.hpp"

namespace {

kit::sell::SellCandidate rule_pick(const kit::CooMatrix& A) {
    return kit::sell::choose_sell(kit::sell_row_lengths(A), A.cols, 8).best;
}

}  // namespace

TEST(SellAutoSetting, MedianRowSpanOfKnownShapes) {
    kit::CooMatrix A;
    A.rows = A.cols = 10;
    for (kit::index_t r = 0; r < 10; ++r) A.add(r, r, 1.0);  // the identity: each row spans 1 column of 10
    A.add(0, 9, 1.0);                                        // one row spans all 10
    A.normalize();

    EXPECT_DOUBLE_EQ(kit::sell::median_row_span(A), 0.1);
    EXPECT_DOUBLE_EQ(kit::sell::median_row_span(kit::CooMatrix{}), 0.0);
}

TEST(SellAutoSetting, StencilRowsKeepTheRulesPick) {
    const kit::CooMatrix A = kit::generate_stencil2d(200, 200);  // rows span 401 of 40000 columns

    kit::sell::SellCandidate got, rule;
    KIT_SKIP_IF_TODO(got = kit::sell::auto_setting(A, 8), rule = rule_pick(A));  // choose_sell is step 3

    EXPECT_LT(kit::sell::median_row_span(A), kit::sell::kScatteredSpan);
    EXPECT_EQ(got.C, rule.C);
    EXPECT_EQ(got.sigma, rule.sigma);
}

TEST(SellAutoSetting, ScatteredRowsAreSortedGlobally) {
    const kit::CooMatrix A = kit::generate_random(20000, 20000, 32, 21);

    kit::sell::SellCandidate got, rule;
    KIT_SKIP_IF_TODO(got = kit::sell::auto_setting(A, 8), rule = rule_pick(A));  // choose_sell is step 3

    EXPECT_GT(kit::sell::median_row_span(A), kit::sell::kScatteredSpan);
    EXPECT_EQ(got.C, rule.C);
    EXPECT_EQ(got.sigma, kit::sell::sigma_candidates(got.C, A.rows).back());
    EXPECT_GE(got.sigma, A.rows) << "the largest candidate window covers every row";
}

TEST(SellAutoSetting, ScatteredRowsOfOneLengthStayInPlace) {
    // every row holds 4 entries spread over all 20000 columns: no sort pads less than none
    kit::CooMatrix A;
    A.rows = A.cols = 20000;
    for (kit::index_t r = 0; r < A.rows; ++r)
        for (kit::index_t k = 0; k < 4; ++k) A.add(r, (r * 7919 + k * 5003) % A.cols, 1.0);
    A.normalize();

    kit::sell::SellCandidate got, rule;
    KIT_SKIP_IF_TODO(got = kit::sell::auto_setting(A, 8), rule = rule_pick(A));  // choose_sell is step 3

    EXPECT_GT(kit::sell::median_row_span(A), kit::sell::kScatteredSpan);
    EXPECT_EQ(got.sigma, 1) << "a sort that saves no slots only adds the permutation's load";
    EXPECT_EQ(got.sigma, rule.sigma);
    EXPECT_EQ(got.slots, rule.slots);
}

TEST(SellAutoSetting, AGlobalSortCarriesItsOwnSlotsAndBytes) {
    const kit::CooMatrix A = kit::generate_random(20000, 20000, 32, 21);

    kit::sell::SellCandidate got;
    kit::count_t slots = 0;
    KIT_SKIP_IF_TODO(got = kit::sell::auto_setting(A, 8),
                     slots = kit::sell::sell_slots(kit::sell_row_lengths(A), got.C, got.sigma));

    EXPECT_GT(got.sigma, 1);
    EXPECT_EQ(got.slots, slots);
    EXPECT_EQ(got.bytes, kit::sell_bytes(A.rows, A.cols, (A.rows + got.C - 1) / got.C, got.slots, 8));
}
