// Lab 08's price of SELL's wide kernel (kit_kernels.cpp): a row split into segments adds each
// segment's sum to one y entry, one atomic after another, so the chain is as long as the row
// has segments, and the model must cut the row where the kernel does (sell_wide_segment), not
// at the longest segment. Not graded: a kit test of lab 08's build, which needs the
// reference's model.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/kit_error.hpp"
#include "format_choice.hpp"
#include "formats/sell.hpp"
#include "kit_kernels.hpp"
#include "kit_prediction.hpp"
#include "time_model.hpp"

using namespace kit;
using namespace kit::model;
using kit::model::testing::kit_prediction;

namespace {

/// rows x cols, every entry present: two chunks of SELL-32, both as wide as a row.
CooMatrix dense(index_t rows, index_t cols) {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j) A.add(i, j, 1.0);
    A.normalize();
    return A;
}

}  // namespace

TEST(SellWideChain, TheModelCutsTheRowWhereTheKernelDoes) {
    const index_t rows = 64, cols = 4096;
    const DeviceParams p = h100_defaults();
    const auto resident = static_cast<count_t>(resident_threads(p));
    const count_t slots = static_cast<count_t>(rows) * cols;
    // sell (one thread a row): 64 rows cannot fill the GPU, so both chunks are wide
    const index_t limit = sell_wide_limit(1, slots, rows, resident);
    ASSERT_LT(limit, cols);
    const index_t segment = sell_wide_segment({cols, cols}, limit, resident);
    ASSERT_LT(segment, kSellWideSegment) << "the example must be one whose segments the plan shortens";
    const ModelReport r = model_report(dense(rows, cols), Precision::f64, p);
    const KernelPrediction sell = kit_prediction(r, "sell");
    EXPECT_DOUBLE_EQ(sell.serial_ms, static_cast<double>(cols / segment) * p.atomic_ns * 1e-6);
}
