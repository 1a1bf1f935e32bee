// Lab 04 public tests. Tier 1: the 4x4 example, exact. Tier 2: rdb450 against the oracle,
// and a matrix with one dense row, which ELL refuses and HYB must handle.
#include "ell_kernels.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "test_support.hpp"

using kit::Backend;
using kit::Comparison;
using namespace kit::testing;

namespace {

// 3000 rows of 6 entries and one full row: ELL would pad every row to 3000 slots.
Problem one_dense_row_problem() { return random_vectors(kit::generate_dense_rows(3000, 6, 1, 5), 6); }

// The premise of the OneDenseRow tests: ELL refuses the matrix, and HYB uses both its
// parts, so both the ELL kernel and the COO kernel are checked.
void expect_both_hyb_parts(const kit::CooMatrix& A) {
    EXPECT_THROW(kit::Ell<double>::from_coo(A), kit::ConversionRefused);
    const auto hyb = kit::Hyb<double>::from_coo(A);
    EXPECT_GT(hyb.ell.nnz(), 0);
    EXPECT_GT(hyb.coo.vals.size(), 0u);
}

}  // namespace

KIT_PRECISION_SUITE(Step1_EllCpu);

TYPED_TEST(Step1_EllCpu, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("ell", Backend::cpu, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_EllCpu, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("ell", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step2_EllCuda);

TYPED_TEST(Step2_EllCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("ell", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_EllCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("ell", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step3_HybCpu);

TYPED_TEST(Step3_HybCpu, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("hyb", Backend::cpu, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_HybCpu, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("hyb", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step3_HybCuda);

TYPED_TEST(Step3_HybCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("hyb", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_HybCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("hyb", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_HybCpu, OneDenseRow) {
    const Problem problem = one_dense_row_problem();
    expect_both_hyb_parts(problem.A);

    const OracleRun run = run_against_oracle("hyb", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_HybCuda, OneDenseRow) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = one_dense_row_problem();
    expect_both_hyb_parts(problem.A);

    const OracleRun run = run_against_oracle("hyb", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}
