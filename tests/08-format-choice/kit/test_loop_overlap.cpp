// The partial overlap of a loop's rounds with the stream (partly_hidden, time_model.cpp) and
// its calibration (overlap_power_for): dia-naive in float on few diagonals takes more than the
// longer of its stream and its leftover single trips, less than their sum. Not graded: a kit
// test of lab 08's build, which needs the reference's model.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/kit_error.hpp"
#include "format_choice.hpp"
#include "io/generators.hpp"
#include "kit_kernels.hpp"
#include "kit_prediction.hpp"
#include "time_model.hpp"

using namespace kit;
using namespace kit::model;
using kit::model::testing::kit_prediction;

TEST(LoopOverlap, LiesBetweenTheLongerAndTheSum) {
    EXPECT_DOUBLE_EQ(partly_hidden(20, 19, kMaxOverlapPower), 20);
    EXPECT_DOUBLE_EQ(partly_hidden(19, 20, 1), 39);
    const double half = partly_hidden(20, 19, 2.5);
    EXPECT_GT(half, 20);
    EXPECT_LT(half, 39);
    EXPECT_DOUBLE_EQ(partly_hidden(0, 0, 2), 0);
    // a much shorter loop hides under the stream, whatever the power
    EXPECT_NEAR(partly_hidden(40, 4, 2.5), 40, 0.1);
}

TEST(LoopOverlap, TheCalibratedPowerReproducesTheMeasuredTime) {
    for (const double total : {20.5, 25.6, 30.0, 38.0}) {
        const double k = overlap_power_for(20, 19, total);
        EXPECT_NEAR(partly_hidden(20, 19, k), total, 1e-9 * total) << total;
    }
    EXPECT_EQ(overlap_power_for(20, 19, 19.5), kMaxOverlapPower);  // faster than the longer: no overlap to pay
    EXPECT_EQ(overlap_power_for(20, 19, 45), 1);                   // slower than the sum: the sum
}

TEST(LoopOverlap, OnlyLab03sDiaKernelsPayIt) {
    // 2^20 rows of 7 diagonals: several waves of 3 leftover trips, about as long as the stream
    const CooMatrix A = [] {
        CooMatrix m = generate_band(1 << 20, 7, 4096);
        m.normalize();
        return m;
    }();
    DeviceParams max_only = h100_defaults(), overlap = h100_defaults();
    overlap.loop_overlap_power = 2.5;
    const ModelReport before = model_report(A, Precision::f32, max_only),
                      after = model_report(A, Precision::f32, overlap);
    for (const char* name : {"dia-naive", "dia-shared"}) {
        const KernelPrediction k = kit_prediction(before, name);
        ASSERT_GT(k.loop_ms, 0.3 * stream_ms(k)) << name << ": the band must be one where the loop weighs";
        const double expected =
            k.total_ms - std::max(stream_ms(k), k.loop_ms) + partly_hidden(stream_ms(k), k.loop_ms, 2.5);
        EXPECT_NEAR(kit_prediction(after, name).total_ms, expected, 1e-12) << name;
        EXPECT_GT(kit_prediction(after, name).total_ms, k.total_ms) << name;
    }
    for (const char* name : {"dia-vec4", "dia-ldg", "ell", "csr-vector"})
        EXPECT_DOUBLE_EQ(kit_prediction(after, name).total_ms, kit_prediction(before, name).total_ms) << name;
}
