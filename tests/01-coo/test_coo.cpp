// Lab 01 public tests. Tier 1: the 4x4 example, exact. Tier 2: rdb450 against the oracle.
#include "test_support.hpp"

using kit::Backend;
using kit::Comparison;
using namespace kit::testing;

KIT_PRECISION_SUITE(Step1_CooCpu);

TYPED_TEST(Step1_CooCpu, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("coo", Backend::cpu, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_CooCpu, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("coo", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step2_CooAtomicCuda);

TYPED_TEST(Step2_CooAtomicCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("coo-atomic", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_CooAtomicCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("coo-atomic", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step3_CooSegmentedCuda);

TYPED_TEST(Step3_CooSegmentedCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run =
        run_against_oracle("coo-segmented", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_CooSegmentedCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run =
        run_against_oracle("coo-segmented", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}
