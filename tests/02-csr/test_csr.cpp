// Lab 02 public tests. Tier 1: the 4x4 example, exact. Tier 2: rdb450 against the oracle.
#include <utility>
#include <vector>

#include "csr_kernels.hpp"
#include "core/kit_error.hpp"
#include "observe.hpp"
#include "test_support.hpp"

using kit::Backend;
using kit::Comparison;
using namespace kit::testing;

KIT_OBSERVABLE(kit::MergeCoord, row, nz)

KIT_PRECISION_SUITE(Step1_CsrScalarCuda);

TYPED_TEST(Step1_CsrScalarCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("csr-scalar", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_CsrScalarCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("csr-scalar", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step1_CsrVectorCuda);

TYPED_TEST(Step1_CsrVectorCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("csr-vector", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step1_CsrVectorCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("csr-vector", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step2_CsrScalarOpenCL);

TYPED_TEST(Step2_CsrScalarOpenCL, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = example4x4_problem();

    const OracleRun run =
        run_against_oracle("csr-scalar", Backend::opencl, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_CsrScalarOpenCL, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::opencl);
    const Problem problem = rdb450_problem();

    const OracleRun run =
        run_against_oracle("csr-scalar", Backend::opencl, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step3_CsrLanesCuda);

TYPED_TEST(Step3_CsrLanesCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("csr-lanes", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_CsrLanesCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("csr-lanes", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step4_CsrMergeCpu);

TYPED_TEST(Step4_CsrMergeCpu, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("csr-merge", Backend::cpu, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_CsrMergeCpu, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("csr-merge", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step4_CsrMergeCuda);

TYPED_TEST(Step4_CsrMergeCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("csr-merge", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_CsrMergeCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("csr-merge", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TEST(Step3_ChooseLanes, FollowsMeanRowLength) {
    const auto lanes = [](double mean) { return observe([&] { return kit::choose_lanes(mean); }); };

    try {
        EXPECT_EQ(lanes(0.0), 2) << "02-csr step 3: an empty matrix still needs a valid lane count";
        EXPECT_EQ(lanes(2.25), 4) << "02-csr step 3: the 4x4 example (mean 2.25) needs 4 lanes";
        EXPECT_EQ(lanes(5.73), 8) << "02-csr step 3: rdb450 (mean 5.73) needs 8 lanes";
        EXPECT_EQ(lanes(16.0), 16) << "02-csr step 3: mean 16 fits 16 lanes exactly";
        EXPECT_EQ(lanes(500.0), 32) << "02-csr step 3: long rows are capped at a warp";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

// The merge path of the 4x4 example, drawn in the handout: N0 N1 R0 N2 N3 R1 N4 N5 N6 R2 N7 N8 R3.
TEST(Step4_MergePathSearch, Example4x4) {
    const std::vector<kit::index_t> row_end = {2, 4, 7, 9};  // row_ptr[1..] of the 4x4 example
    const std::vector<std::pair<int, int>> expected = {{0, 0}, {0, 1}, {0, 2}, {1, 2}, {1, 3}, {1, 4}, {2, 4},
                                                       {2, 5}, {2, 6}, {2, 7}, {3, 7}, {3, 8}, {3, 9}, {4, 9}};

    try {
        for (int d = 0; d <= 13; ++d) {
            const kit::MergeCoord c = observe([&] { return kit::merge_path_search(d, row_end.data(), 4, 9); });
            EXPECT_EQ(c.row, expected[d].first) << "02-csr step 4: rows finished before diagonal " << d;
            EXPECT_EQ(c.nz, expected[d].second) << "02-csr step 4: nonzeros consumed before diagonal " << d;
        }
        EXPECT_THROW(observe([&] { return kit::merge_path_search(14, row_end.data(), 4, 9); }), kit::Error)
            << "02-csr step 4: diagonal 14 lies past the 13 items of the path";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}
