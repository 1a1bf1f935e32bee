// Lab 08's prices of csr-merge, csr5 and the BCSR kernels (kit_kernels.cpp): csr-merge and csr5
// stream at the rates calibrate measures for them (merge_gbs, csr5_gbs); bcsr-warp retires its
// block rows at block_row_ns; bcsr-2kernel's second launch walks the longest row's partial sums
// one after another; bcsr-auto costs the faster of the two BCSR kernels it chooses between; a
// float run walks a thread's chain at its own step (float_step_share). Not graded: a kit test of
// lab 08's build, which needs the reference's model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "format_choice.hpp"
#include "io/generators.hpp"
#include "kit_kernels.hpp"
#include "kit_prediction.hpp"

using namespace kit;
using namespace kit::model;
using kit::model::testing::kit_prediction;

namespace {

/// A diagonal of `rows` plus one full row 0: the longest row is `rows` entries.
CooMatrix diagonal_and_one_full_row(index_t rows) {
    CooMatrix A;
    A.rows = A.cols = rows;
    for (index_t j = 0; j < rows; ++j) A.add(0, j, 1.0);
    for (index_t i = 1; i < rows; ++i) A.add(i, i, 1.0);
    A.normalize();
    return A;
}

}  // namespace

TEST(BalancedCsrKernels, EachStreamsAtItsOwnRate) {
    DeviceParams p = h100_defaults();
    p.merge_gbs = 0.5 * p.bandwidth_gbs;
    p.csr5_gbs = 0.6 * p.bandwidth_gbs;
    const CooMatrix band = generate_band(1 << 16, 8, 1);
    const ModelReport r = model_report(band, Precision::f64, p);
    const KernelPrediction vector = kit_prediction(r, "csr-vector");
    ASSERT_GT(vector.stream_gbs, p.csr5_gbs) << "the example must be one where both rates bind";
    for (const auto& [name, gbs] : {std::pair<const char*, double>{"csr-merge", p.merge_gbs}, {"csr5", p.csr5_gbs}}) {
        const KernelPrediction k = kit_prediction(r, name);
        EXPECT_DOUBLE_EQ(k.stream_gbs, gbs) << name;
        EXPECT_EQ(k.bytes, vector.bytes) << name;
        EXPECT_NEAR(k.am_ms, vector.am_ms * vector.stream_gbs / gbs, 1e-9) << name;
    }
    p.merge_gbs = p.csr5_gbs = 10 * p.bandwidth_gbs;  // rates above the others change nothing
    const ModelReport fast = model_report(band, Precision::f64, p);
    for (const char* name : {"csr-merge", "csr5"}) EXPECT_DOUBLE_EQ(kit_prediction(fast, name).am_ms, vector.am_ms);
}

TEST(BlockedKernels, TheTwoKernelSchemeWalksTheLongestRowsPartials) {
    const DeviceParams p = h100_defaults();
    const index_t n = 1 << 14;
    const ModelReport r = model_report(diagonal_and_one_full_row(n), Precision::f64, p);
    const double partials = std::ceil(static_cast<double>(n) / r.inputs.bcsr_c);
    EXPECT_DOUBLE_EQ(kit_prediction(r, "bcsr-2kernel").serial_ms, partials * p.step_ns * 1e-6);
}

TEST(BlockedKernels, TheWarpKernelRetiresBlockRowsAtTheirOwnCost) {
    DeviceParams p = h100_defaults();
    const CooMatrix band = generate_band(1 << 16, 3, 1);  // short rows: the block rows set the chain
    for (const double block_row_ns : {0.1, 0.5}) {
        p.block_row_ns = block_row_ns;
        const ModelReport r = model_report(band, Precision::f64, p);
        const double block_rows = std::ceil(static_cast<double>(band.rows) / r.inputs.bcsr_r);
        ASSERT_GT(block_rows * p.block_row_ns, p.warp_step_ns) << "the example must be one where the rows bind";
        EXPECT_DOUBLE_EQ(kit_prediction(r, "bcsr-warp").serial_ms, block_rows * block_row_ns * 1e-6) << block_row_ns;
    }
    // one long row: the warp walks it 32 entries a step, as csr-vector does
    const index_t n = 1 << 14;
    p.block_row_ns = 0.1;
    const ModelReport r = model_report(diagonal_and_one_full_row(n), Precision::f64, p);
    EXPECT_DOUBLE_EQ(kit_prediction(r, "bcsr-warp").serial_ms, std::ceil(n / 32.0) * p.warp_step_ns * 1e-6);
}

TEST(BlockedKernels, AutoCostsTheFasterOfTheTwo) {
    const DeviceParams p = h100_defaults();
    for (const CooMatrix& A : {diagonal_and_one_full_row(1 << 14), generate_stencil2d(512, 512)}) {
        const ModelReport r = model_report(A, Precision::f64, p);
        const KernelPrediction warp = kit_prediction(r, "bcsr-warp"), two = kit_prediction(r, "bcsr-2kernel");
        EXPECT_DOUBLE_EQ(kit_prediction(r, "bcsr-auto").total_ms, std::min(warp.total_ms, two.total_ms));
    }
    // one row of 16384 entries: the second launch's chain makes the two-kernel scheme the slower
    const ModelReport r = model_report(diagonal_and_one_full_row(1 << 14), Precision::f64, p);
    EXPECT_LT(kit_prediction(r, "bcsr-warp").total_ms, kit_prediction(r, "bcsr-2kernel").total_ms);
}

TEST(ThreadChains, AFloatRunWalksAtItsMeasuredShare) {
    DeviceParams p = h100_defaults();
    p.float_step_share = 0.5;
    const CooMatrix A = diagonal_and_one_full_row(1 << 14);
    for (const Precision precision : {Precision::f64, Precision::f32}) {
        const ModelReport r = model_report(A, precision, p);
        const double partials = std::ceil(static_cast<double>(1 << 14) / r.inputs.bcsr_c);
        const double step_ns = precision == Precision::f32 ? 0.5 * p.step_ns : p.step_ns;
        EXPECT_DOUBLE_EQ(kit_prediction(r, "bcsr-2kernel").serial_ms, partials * step_ns * 1e-6)
            << (precision == Precision::f32 ? "float" : "double");
    }
    EXPECT_DOUBLE_EQ(p.for_values(4).for_values(4).step_ns, 0.5 * p.step_ns) << "a second call changes nothing";
    EXPECT_DOUBLE_EQ(p.for_values(8).step_ns, p.step_ns);
    EXPECT_DOUBLE_EQ(p.for_values(4).warp_step_ns, p.warp_step_ns) << "a warp's walk has no float share";
}
