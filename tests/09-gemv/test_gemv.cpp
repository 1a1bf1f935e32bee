// Lab 09 public tests. Tier 1: the 4x4 example as a dense matrix, exact. Tier 2: a 450 x 450
// dense matrix against the oracle. Each runs a variant and its "-t" twin (the transposed
// kernel on A^T). FullApi: alpha, beta, both transposes and lda > rows on one small case.
#include "gemv_test_support.hpp"

using kit::Backend;
using kit::Comparison;
using kit::Transpose;
using namespace kit::testing;
using namespace gemv_test;

namespace {
const std::vector<ApiCase> kApiCases = {
    {"70x45, lda 80, alpha -1.5, beta 0.5", 70, 45, 80, -1.5, 0.5, Transpose::no},
    {"70x45 transposed, lda 80, alpha -1.5, beta 0.5", 70, 45, 80, -1.5, 0.5, Transpose::yes},
};

/// Step 5's tunables for `columns` columns per warp (the transposed kernel's shape).
kit::RunOptions warp_columns(int columns) {
    kit::RunOptions opt;
    opt.tunables = kit::gemv_tunables(kit::GemvShape{0, 0, columns});
    return opt;
}
}  // namespace

KIT_PRECISION_SUITE(Step1_GemvCpu);

TYPED_TEST(Step1_GemvCpu, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = example4x4_problem();

    const OracleRun plain = run_against_oracle("gemv", Backend::cpu, this->precision, problem, Comparison::exact);
    const OracleRun transposed =
        run_against_oracle("gemv-t", Backend::cpu, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

TYPED_TEST(Step1_GemvCpu, Dense450) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = dense_problem(450, 450, 3);

    const OracleRun plain = run_against_oracle("gemv", Backend::cpu, this->precision, problem, Comparison::bound);
    const OracleRun transposed =
        run_against_oracle("gemv-t", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

TEST(Step1_GemvCpu, FullApi) { EXPECT_TRUE(passes_api("cpu::gemv", Backend::cpu, 1, kApiCases, GEMV_CPU_CALL)); }

KIT_PRECISION_SUITE(Step2_GemvThreadCuda);

TYPED_TEST(Step2_GemvThreadCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun plain =
        run_against_oracle("gemv-thread", Backend::cuda, this->precision, problem, Comparison::exact);
    const OracleRun transposed =
        run_against_oracle("gemv-thread-t", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

TYPED_TEST(Step2_GemvThreadCuda, Dense450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = dense_problem(450, 450, 3);

    const OracleRun plain =
        run_against_oracle("gemv-thread", Backend::cuda, this->precision, problem, Comparison::bound);
    const OracleRun transposed =
        run_against_oracle("gemv-thread-t", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

TEST(Step2_GemvThreadCuda, FullApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_thread", Backend::cuda, 2, kApiCases, GEMV_THREAD_CALL));
#endif
}

KIT_PRECISION_SUITE(Step3_GemvBlockedCuda);

TYPED_TEST(Step3_GemvBlockedCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun plain =
        run_against_oracle("gemv-blocked", Backend::cuda, this->precision, problem, Comparison::exact);
    const OracleRun transposed =
        run_against_oracle("gemv-blocked-t", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

TYPED_TEST(Step3_GemvBlockedCuda, Dense450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = dense_problem(450, 450, 3);

    const OracleRun plain =
        run_against_oracle("gemv-blocked", Backend::cuda, this->precision, problem, Comparison::bound);
    const OracleRun transposed =
        run_against_oracle("gemv-blocked-t", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

TEST(Step3_GemvBlockedCuda, FullApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_blocked<64,4>", Backend::cuda, 3, kApiCases, GEMV_BLOCKED_CALL));
#endif
}

KIT_PRECISION_SUITE(Step4_GemvStreamedCuda);

TYPED_TEST(Step4_GemvStreamedCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun plain =
        run_against_oracle("gemv-streamed", Backend::cuda, this->precision, problem, Comparison::exact);
    const OracleRun transposed =
        run_against_oracle("gemv-streamed-t", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

TYPED_TEST(Step4_GemvStreamedCuda, Dense450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = dense_problem(450, 450, 3);

    const OracleRun plain =
        run_against_oracle("gemv-streamed", Backend::cuda, this->precision, problem, Comparison::bound);
    const OracleRun transposed =
        run_against_oracle("gemv-streamed-t", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

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

KIT_PRECISION_SUITE(Step5_GemvTunedCuda);

TYPED_TEST(Step5_GemvTunedCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun plain =
        run_against_oracle("gemv-tuned", Backend::cuda, this->precision, problem, Comparison::exact);
    const OracleRun transposed =
        run_against_oracle("gemv-tuned-t", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

TYPED_TEST(Step5_GemvTunedCuda, Dense450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = dense_problem(450, 450, 3);

    const OracleRun plain =
        run_against_oracle("gemv-tuned", Backend::cuda, this->precision, problem, Comparison::bound);
    const OracleRun transposed =
        run_against_oracle("gemv-tuned-t", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(plain));
    EXPECT_TRUE(matches_oracle(transposed));
}

// Step 5's warp-columns shapes run the transposed GEMV only (gemv-tuned-t).
KIT_PRECISION_SUITE(Step5_GemvWarpColumnsCuda);

TYPED_TEST(Step5_GemvWarpColumnsCuda, Dense450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = dense_problem(450, 450, 3);

    for (int columns : {1, 2, 4}) {
        const OracleRun run = run_against_oracle("gemv-tuned-t", Backend::cuda, this->precision, problem,
                                                 Comparison::bound, warp_columns(columns));

        EXPECT_TRUE(matches_oracle(run)) << columns << " columns per warp";
    }
}

TEST(Step5_GemvWarpColumnsCuda, FullApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_warp_columns<2>", Backend::cuda, 5, {kApiCases[1]}, GEMV_WARP_COLUMNS_CALL));
#endif
}
