// Lab 03 public tests. Tier 1: the 4x4 example, exact. Tier 2: rdb450 against the oracle,
// and a matrix with more diagonals than one shared-memory chunk.
#include "dia_kernels.hpp"
#include "io/generators.hpp"
#include "test_support.hpp"

using kit::Backend;
using kit::Comparison;
using namespace kit::testing;

namespace {

// A radius-14 grid couples every point to about pi * 14^2 = 615 others: more than two
// chunks of offsets, and 40 x 37 = 1480 rows, not a multiple of the block size.
Problem many_diagonals_problem() {
    kit::CooMatrix A = kit::generate_radius_grid(40, 37, 14);
    kit::randomize_values(A, 3);
    return random_vectors(std::move(A), 4);
}

}  // namespace

KIT_PRECISION_SUITE(Step1_DiaCpu);

TYPED_TEST(Step1_DiaCpu, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dia", Backend::cpu, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_DiaCpu, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dia", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step2_DiaNaiveCuda);

TYPED_TEST(Step2_DiaNaiveCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dia-naive", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_DiaNaiveCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dia-naive", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step3_DiaSharedCuda);

TYPED_TEST(Step3_DiaSharedCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dia-shared", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_DiaSharedCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dia-shared", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_DiaSharedCuda, MoreDiagonalsThanTwoChunks) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = many_diagonals_problem();
    // The test's own premise: without it, a kernel limited to one chunk would pass.
    ASSERT_GT(kit::Dia<double>::from_coo(problem.A).diagonals(), 2 * kit::kDiaOffsetChunk);

    const OracleRun run = run_against_oracle("dia-shared", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}
