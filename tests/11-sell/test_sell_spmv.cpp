// Lab 11 public tests of the kernels. Tier 1: the 4x4 example, exact, with the default shape
// and with the handout's C = 2, sigma = 4. Tier 2: rdb450 against the oracle, with the
// default shape and with the shapes of sell_test_shapes().
#include <string>

#include "sell_kernels.hpp"
#include "sell_test_support.hpp"

using kit::Backend;
using kit::Comparison;
using namespace kit::testing;

namespace {

// rdb450 in every shape of sell_test_shapes(); names the first shape that fails.
::testing::AssertionResult rdb450_in_every_shape(const std::string& name, Backend backend, kit::Precision p) {
    const Problem problem = rdb450_problem();
    for (const auto& [C, sigma] : sell_test_shapes()) {
        const OracleRun run = run_against_oracle(name, backend, p, problem, Comparison::bound, sell_shape(C, sigma));
        if (!matches_oracle(run))
            return matches_oracle(run) << " (with C = " << C << ", sigma = " << sigma << ")";
    }
    return ::testing::AssertionSuccess();
}

}  // namespace

KIT_PRECISION_SUITE(Step1_SellCpu);

TYPED_TEST(Step1_SellCpu, Example4x4) {
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("sell", Backend::cpu, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_SellCpu, Example4x4TwoRowChunks) {
    const Problem problem = example4x4_problem();

    const OracleRun run =
        run_against_oracle("sell", Backend::cpu, this->precision, problem, Comparison::exact, sell_shape(2, 4));

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_SellCpu, Rdb450) {
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("sell", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_SellCpu, Rdb450Shapes) { EXPECT_TRUE(rdb450_in_every_shape("sell", Backend::cpu, this->precision)); }

KIT_PRECISION_SUITE(Step2_SellCuda);

TYPED_TEST(Step2_SellCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("sell", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_SellCuda, Example4x4TwoRowChunks) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run =
        run_against_oracle("sell", Backend::cuda, this->precision, problem, Comparison::exact, sell_shape(2, 4));

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_SellCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("sell", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_SellCuda, Rdb450Shapes) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(rdb450_in_every_shape("sell", Backend::cuda, this->precision));
}

KIT_PRECISION_SUITE(Step3_SellAutoCpu);

TYPED_TEST(Step3_SellAutoCpu, Rdb450) {
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("sell-auto", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step3_SellAutoCuda);

TYPED_TEST(Step3_SellAutoCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("sell-auto", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}
