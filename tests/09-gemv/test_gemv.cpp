// Lab 09 public tests. Tier 1: the 4x4 example as a dense matrix, exact. Tier 2: a 450 x 450
// dense matrix against the oracle. Each runs a variant and its "-t" twin (the transposed
// kernel on A^T). FullApi: alpha, beta, both transposes and lda > rows on one small case.
#include "gemv_test_support.hpp"

using kit::Backend;
using kit::Transpose;
using namespace kit::testing;
using namespace gemv_test;

namespace {
const std::vector<ApiCase> kApiCases = {
    {"70x45, lda 80, alpha -1.5, beta 0.5", 70, 45, 80, -1.5, 0.5, Transpose::no},
    {"70x45 transposed, lda 80, alpha -1.5, beta 0.5", 70, 45, 80, -1.5, 0.5, Transpose::yes},
};
}  // namespace

GEMV_PAIR_TEST(Step1_GemvCpu, Example4x4, "gemv", Backend::cpu, example4x4_problem(), true)
GEMV_PAIR_TEST(Step1_GemvCpu, Dense450, "gemv", Backend::cpu, dense_problem(450, 450, 3), false)
TEST(Step1_GemvCpu, FullApi) { EXPECT_TRUE(passes_api("cpu::gemv", Backend::cpu, 1, kApiCases, GEMV_CPU_CALL)); }

GEMV_PAIR_TEST(Step2_GemvThreadCuda, Example4x4, "gemv-thread", Backend::cuda, example4x4_problem(), true)
GEMV_PAIR_TEST(Step2_GemvThreadCuda, Dense450, "gemv-thread", Backend::cuda, dense_problem(450, 450, 3), false)
TEST(Step2_GemvThreadCuda, FullApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_thread_per_output", Backend::cuda, 2, kApiCases, GEMV_THREAD_CALL));
#endif
}

GEMV_PAIR_TEST(Step3_GemvBlockedCuda, Example4x4, "gemv-blocked", Backend::cuda, example4x4_problem(), true)
GEMV_PAIR_TEST(Step3_GemvBlockedCuda, Dense450, "gemv-blocked", Backend::cuda, dense_problem(450, 450, 3), false)
TEST(Step3_GemvBlockedCuda, FullApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_blocked<64,4>", Backend::cuda, 3, kApiCases, GEMV_BLOCKED_CALL));
#endif
}

GEMV_PAIR_TEST(Step4_GemvStreamedCuda, Example4x4, "gemv-streamed", Backend::cuda, example4x4_problem(), true)
GEMV_PAIR_TEST(Step4_GemvStreamedCuda, Dense450, "gemv-streamed", Backend::cuda, dense_problem(450, 450, 3), false)
TEST(Step4_GemvStreamedCuda, FullApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_streamed<64,4>", Backend::cuda, 4, kApiCases, GEMV_STREAMED_CALL));
#endif
}

// The slices of a split march meet in slice order (finish_slices), not through atomics into
// y, so y is bitwise the same on every run. 450 x 450 has 8 block rows of 64: split in slices.
TEST(Step4_GemvStreamedCuda, SameYOnEveryRun) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = dense_problem(450, 450, 3);
    const kit::Reference ref(problem.A, problem.x, problem.y);
    for (const char* name : {"gemv-streamed", "gemv-streamed-t"}) {
        const kit::Variant* v = kit::registry().find(name, Backend::cuda);
        ASSERT_NE(v, nullptr) << name;
        kit::RunOptions opt;
        opt.precision = kit::Precision::f32;
        opt.repeats = 1;
        opt.steady_calls = 0;
        const kit::CheckedRun first = observed_run_checked(*v, ref, opt);
        ASSERT_EQ(first.status, kit::RunStatus::ok) << name << ": " << first.message;
        for (int run = 1; run <= 5; ++run) {
            const kit::CheckedRun again = observed_run_checked(*v, ref, opt);
            ASSERT_EQ(again.status, kit::RunStatus::ok) << name << ": " << again.message;
            EXPECT_EQ(again.result.y, first.result.y) << name << ": run " << run << " differs from the first";
        }
    }
}

GEMV_PAIR_TEST(Step5_GemvTunedCuda, Example4x4, "gemv-tuned", Backend::cuda, example4x4_problem(), true)
GEMV_PAIR_TEST(Step5_GemvTunedCuda, Dense450, "gemv-tuned", Backend::cuda, dense_problem(450, 450, 3), false)

// Step 5's warp-columns shapes run the transposed GEMV only (gemv-tuned-t).
TEST(Step5_GemvWarpColumnsCuda, Dense450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = dense_problem(450, 450, 3);
    for (int columns : {1, 2, 4}) {
        kit::RunOptions opt;
        opt.tunables = kit::gemv_tunables(kit::GemvShape{0, 0, columns});
        for (auto p : {kit::Precision::f32, kit::Precision::f64})
            EXPECT_TRUE(matches_oracle("gemv-tuned-t", Backend::cuda, p, problem, false, opt)) << columns << " columns per warp";
    }
}
TEST(Step5_GemvWarpColumnsCuda, FullApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_warp_columns<2>", Backend::cuda, 5, {kApiCases[1]}, GEMV_WARP_COLUMNS_CALL));
#endif
}
