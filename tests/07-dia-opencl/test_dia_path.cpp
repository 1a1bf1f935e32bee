// Lab 07 public tests. Tier 1: the 4x4 example, exact. Tier 2: rdb450 and the case study's
// radius grid at small sizes (rows % 4 != 0; more diagonals than one local-memory chunk).
#include <functional>

#include "dia_path.hpp"
#include "dia_path_problems.hpp"
#include "observe.hpp"

using kit::Backend;
using kit::Comparison;
using kit::Precision;
using namespace kit::testing;

KIT_OBSERVABLE(kit::dia_path::XImageLayout, width, height, log2_width, width_mask)

namespace {

/// 23 x 17 = 391 rows (391 % 4 == 3), radius 5: 81 diagonals, all four x misalignments.
Problem radius_grid() { return radius_grid_problem(23, 17, 5, 7); }
/// 41 x 30 = 1230 rows (1230 % 4 == 2), radius 10: 317 diagonals, two chunks of 256 offsets.
Problem many_diagonals() { return radius_grid_problem(41, 30, 10, 11); }

}  // namespace

// step 0: the CPU loop
KIT_PRECISION_SUITE(Step0_DiaLoopCpu);

TYPED_TEST(Step0_DiaLoopCpu, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dia-loop", Backend::cpu, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step0_DiaLoopCpu, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dia-loop", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step0_DiaLoopCpu, RadiusGrid) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = radius_grid();

    const OracleRun run = run_against_oracle("dia-loop", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

// steps 1-5 in OpenCL (PoCL on a laptop or in CI)
KIT_PRECISION_SUITE(Step1_DiaNaiveOpenCL);

TYPED_TEST(Step1_DiaNaiveOpenCL, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dia-naive", Backend::opencl, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_DiaNaiveOpenCL, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dia-naive", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_DiaNaiveOpenCL, RadiusGrid) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = radius_grid();

    const OracleRun run = run_against_oracle("dia-naive", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step2_DiaAlignedOpenCL);

TYPED_TEST(Step2_DiaAlignedOpenCL, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = example4x4_problem();

    const OracleRun run =
        run_against_oracle("dia-aligned", Backend::opencl, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_DiaAlignedOpenCL, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = rdb450_problem();

    const OracleRun run =
        run_against_oracle("dia-aligned", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_DiaAlignedOpenCL, RadiusGrid) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = radius_grid();

    const OracleRun run =
        run_against_oracle("dia-aligned", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step3_DiaLocalOpenCL);

TYPED_TEST(Step3_DiaLocalOpenCL, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dia-local", Backend::opencl, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_DiaLocalOpenCL, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dia-local", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_DiaLocalOpenCL, RadiusGrid) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = radius_grid();

    const OracleRun run = run_against_oracle("dia-local", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_DiaLocalOpenCL, ManyDiagonals) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = many_diagonals();

    const OracleRun run = run_against_oracle("dia-local", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step4_DiaVec4OpenCL);

TYPED_TEST(Step4_DiaVec4OpenCL, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dia-vec4", Backend::opencl, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_DiaVec4OpenCL, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dia-vec4", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_DiaVec4OpenCL, RadiusGrid) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = radius_grid();

    const OracleRun run = run_against_oracle("dia-vec4", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_DiaVec4OpenCL, ManyDiagonals) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = many_diagonals();

    const OracleRun run = run_against_oracle("dia-vec4", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TEST(Step5_DiaImageOpenCL, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = example4x4_problem();
    if (auto why = unavailable_in_float("dia-image", Backend::opencl, problem)) GTEST_SKIP() << *why;

    const OracleRun in_float =
        run_against_oracle("dia-image", Backend::opencl, Precision::f32, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(in_float));
    EXPECT_TRUE(refuses_double("dia-image", Backend::opencl, problem));
}

TEST(Step5_DiaImageOpenCL, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = rdb450_problem();
    if (auto why = unavailable_in_float("dia-image", Backend::opencl, problem)) GTEST_SKIP() << *why;

    const OracleRun in_float =
        run_against_oracle("dia-image", Backend::opencl, Precision::f32, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(in_float));
    EXPECT_TRUE(refuses_double("dia-image", Backend::opencl, problem));
}

TEST(Step5_DiaImageOpenCL, RadiusGrid) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = radius_grid();
    if (auto why = unavailable_in_float("dia-image", Backend::opencl, problem)) GTEST_SKIP() << *why;

    const OracleRun in_float =
        run_against_oracle("dia-image", Backend::opencl, Precision::f32, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(in_float));
    EXPECT_TRUE(refuses_double("dia-image", Backend::opencl, problem));
}

TEST(Step5_DiaImageOpenCL, ManyDiagonals) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = many_diagonals();
    if (auto why = unavailable_in_float("dia-image", Backend::opencl, problem)) GTEST_SKIP() << *why;

    const OracleRun in_float =
        run_against_oracle("dia-image", Backend::opencl, Precision::f32, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(in_float));
    EXPECT_TRUE(refuses_double("dia-image", Backend::opencl, problem));
}

// the CUDA counterparts of steps 4 and 5
KIT_PRECISION_SUITE(Step4_DiaVec4Cuda);

TYPED_TEST(Step4_DiaVec4Cuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dia-vec4", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_DiaVec4Cuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dia-vec4", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_DiaVec4Cuda, RadiusGrid) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = radius_grid();

    const OracleRun run = run_against_oracle("dia-vec4", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_DiaVec4Cuda, ManyDiagonals) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = many_diagonals();

    const OracleRun run = run_against_oracle("dia-vec4", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step5_DiaLdgCuda);

TYPED_TEST(Step5_DiaLdgCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dia-ldg", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step5_DiaLdgCuda, RadiusGrid) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = radius_grid();

    const OracleRun run = run_against_oracle("dia-ldg", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TEST(Step5_DiaTextureCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();
    if (auto why = unavailable_in_float("dia-texture", Backend::cuda, problem)) GTEST_SKIP() << *why;

    const OracleRun in_float =
        run_against_oracle("dia-texture", Backend::cuda, Precision::f32, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(in_float));
    EXPECT_TRUE(refuses_double("dia-texture", Backend::cuda, problem));
}

TEST(Step5_DiaTextureCuda, RadiusGrid) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = radius_grid();
    if (auto why = unavailable_in_float("dia-texture", Backend::cuda, problem)) GTEST_SKIP() << *why;

    const OracleRun in_float =
        run_against_oracle("dia-texture", Backend::cuda, Precision::f32, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(in_float));
    EXPECT_TRUE(refuses_double("dia-texture", Backend::cuda, problem));
}

// step 5, host part: the image that holds x
namespace {

kit::dia_path::ImageLimits device_with_images(kit::count_t max_width, kit::count_t max_height) {
    return {true, max_width, max_height, "test device"};
}

/// The message of the BackendUnavailable that `plan` throws, or a failure saying what happened instead.
::testing::AssertionResult refuses(const std::function<void()>& plan, std::string& message) {
    try {
        plan();
    } catch (const kit::BackendUnavailable& e) {
        message = e.what();
        return ::testing::AssertionSuccess();
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << "expected a BackendUnavailable refusal, got: " << e.what();
    }
    return ::testing::AssertionFailure() << "07-dia-opencl step 5: plan_x_image accepted a device it must refuse";
}

}  // namespace

/// The student's plan_x_image, observed (the grader's judge replays what it returned or threw).
static kit::dia_path::XImageLayout observed_plan(kit::index_t values, const kit::dia_path::ImageLimits& limits) {
    return kit::testing::observe([&] { return kit::dia_path::plan_x_image(values, limits); });
}

TEST(Step5_XImageLayout, PowerOfTwoWidth) {
    try {
        const auto big = device_with_images(16384, 16384);
        const auto article = observed_plan(154401, big);  // 38601 pixels: 128^2 < 38601 <= 256^2
        EXPECT_EQ(article.width, 256) << "07-dia-opencl step 5: narrowest power of two w with w*w >= pixels";
        EXPECT_EQ(article.height, 151) << "07-dia-opencl step 5: height = ceil(38601 / 256)";
        EXPECT_EQ(article.log2_width, 8) << "07-dia-opencl step 5: log2 of the width";
        EXPECT_EQ(article.width_mask, 255) << "07-dia-opencl step 5: width - 1";
        const auto empty = observed_plan(0, big);
        EXPECT_EQ(empty.width * empty.height, 1) << "07-dia-opencl step 5: an empty x still gets one pixel";
        EXPECT_EQ(observed_plan(4, big).width, 1) << "07-dia-opencl step 5: 4 values fill one pixel";
        const auto five = observed_plan(5, big);  // 2 pixels
        EXPECT_EQ(five.width, 2) << "07-dia-opencl step 5: 5 values need 2 pixels";
        EXPECT_EQ(five.height, 1) << "07-dia-opencl step 5: 2 pixels fit one row of width 2";
        const auto capped = observed_plan(40000, device_with_images(100, 16384));  // 10000 pixels
        EXPECT_EQ(capped.width, 64) << "07-dia-opencl step 5: width capped at the largest power of two <= max_width";
        EXPECT_EQ(capped.height, 157) << "07-dia-opencl step 5: height = ceil(10000 / 64)";
        EXPECT_EQ(capped.width_mask, 63) << "07-dia-opencl step 5: width - 1";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_XImageLayout, RefusesClearly) {
    std::string why;
    kit::dia_path::ImageLimits none;
    none.device = "imageless device";
    ASSERT_TRUE(refuses([&] { observed_plan(100, none); }, why));
    EXPECT_NE(why.find("imageless device"), std::string::npos) << "07-dia-opencl step 5: name the device: " << why;
    EXPECT_NE(why.find("image support"), std::string::npos) << "07-dia-opencl step 5: say images are missing: " << why;
    EXPECT_NE(why.find("step 4"), std::string::npos) << "07-dia-opencl step 5: point to the fallback, step 4: " << why;
    ASSERT_TRUE(refuses([&] { observed_plan(1000, device_with_images(8, 8)); }, why));  // 8 x 32 pixels needed
    EXPECT_NE(why.find("8 x 8"), std::string::npos) << "07-dia-opencl step 5: state the device's limit: " << why;
}
