// Lab 03 public tests. Tier 1: the 4x4 example, exact. Tier 2: rdb450 against the oracle,
// and a matrix with more diagonals than one shared-memory chunk.
#include "dia_kernels.hpp"
#include "io/generators.hpp"
#include "test_support.hpp"

using kit::Backend;
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

KIT_SPMV_TEST(Step1_DiaCpu, Example4x4, "dia", Backend::cpu, example4x4_problem(), true)
KIT_SPMV_TEST(Step1_DiaCpu, Rdb450, "dia", Backend::cpu, rdb450_problem(), false)
KIT_SPMV_TEST(Step2_DiaNaiveCuda, Example4x4, "dia-naive", Backend::cuda, example4x4_problem(), true)
KIT_SPMV_TEST(Step2_DiaNaiveCuda, Rdb450, "dia-naive", Backend::cuda, rdb450_problem(), false)
KIT_SPMV_TEST(Step3_DiaSharedCuda, Example4x4, "dia-shared", Backend::cuda, example4x4_problem(), true)
KIT_SPMV_TEST(Step3_DiaSharedCuda, Rdb450, "dia-shared", Backend::cuda, rdb450_problem(), false)

TEST(Step3_DiaSharedCuda, MoreDiagonalsThanTwoChunks) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = many_diagonals_problem();
    // The test's own premise: without it, a kernel limited to one chunk would pass.
    ASSERT_GT(kit::Dia<double>::from_coo(problem.A).diagonals(), 2 * kit::kDiaOffsetChunk);

    for (auto p : {kit::Precision::f32, kit::Precision::f64})
        EXPECT_TRUE(matches_oracle("dia-shared", Backend::cuda, p, problem));
}
