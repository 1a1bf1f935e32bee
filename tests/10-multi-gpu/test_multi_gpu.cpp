// Lab 10 public tests. Steps 1 and 2 are pure functions, tested in one process for P = 1..5;
// steps 3 and 4 run under mpirun (make test starts this program at each rank count of the
// manifest's "mpi_ranks"): every rank multiplies its rows, every rank gathers y, and y is
// compared with the oracle.
#include "dist_checks.hpp"
#include "test_support.hpp"

using namespace kit;
using namespace kit::testing;

TEST(Step1_PartitionRows, Example4x4) {
    const Csr<double> A = Csr<double>::from_coo(example4x4_problem().A);

    const auto two = observe([&] { return dist::partition_rows_by_nnz(A.row_ptr, A.rows, 2); });

    EXPECT_EQ(two, (std::vector<index_t>{0, 2, 4})) << "10-multi-gpu step 1: rows 0-1 hold 4 entries, rows 2-3 hold 5";
    EXPECT_TRUE(partitions_hold(example4x4_problem().A, 5));
}

TEST(Step1_PartitionRows, Rdb450) { EXPECT_TRUE(partitions_hold(rdb450_problem().A, 5)); }

TEST(Step1_SplitBlock, Example4x4) {
    const Csr<double> A = Csr<double>::from_coo(example4x4_problem().A);
    const std::vector<index_t> rows{0, 2, 4};

    const BlockArrays r1 = observe([&] { return arrays_of(dist::split_rank_block(A, rows, rows, 1)); });

    EXPECT_EQ(r1.halo, (std::vector<index_t>{0, 1})) << "10-multi-gpu step 1: rank 1 needs x0 and x1";
    EXPECT_EQ(r1.remote_col, (std::vector<index_t>{0, 1})) << "10-multi-gpu step 1: remote columns index the halo";
    EXPECT_TRUE(blocks_hold(example4x4_problem().A, 5));
}

TEST(Step1_SplitBlock, Rdb450) { EXPECT_TRUE(blocks_hold(rdb450_problem().A, 5)); }

TEST(Step2_CommPlan, Example4x4) { EXPECT_TRUE(plans_hold(example4x4_problem().A, 5)); }

TEST(Step2_CommPlan, Rdb450) { EXPECT_TRUE(plans_hold(rdb450_problem().A, 5)); }

KIT_PRECISION_SUITE(Step3_HaloSpmvMpi);

TYPED_TEST(Step3_HaloSpmvMpi, Example4x4) {
    KIT_REQUIRE_MPI();
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dist-mpi", Backend::cpu, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_HaloSpmvMpi, Rdb450) {
    KIT_REQUIRE_MPI();
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dist-mpi", Backend::cpu, this->precision, problem);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step4_HaloSpmvNccl);

TYPED_TEST(Step4_HaloSpmvNccl, Example4x4) {
    KIT_REQUIRE_NCCL();
    const Problem problem = example4x4_problem();

    const OracleRun run = run_against_oracle("dist-nccl", Backend::cuda, this->precision, problem, Comparison::exact);

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_HaloSpmvNccl, Rdb450) {
    KIT_REQUIRE_NCCL();
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("dist-nccl", Backend::cuda, this->precision, problem);

    EXPECT_TRUE(matches_oracle(run));
}
