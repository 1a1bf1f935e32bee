// Lab 10 hidden tests: the hostile gallery, plus matrices that stress the distribution: a
// rank whose rows reference no remote column (diagonal), every column remote (anti-diagonal),
// fewer rows than ranks (2 x 2, 1 x 3), run at every rank count of the manifest.
#include "dist_checks.hpp"
#include "test_support.hpp"

using namespace kit;
using namespace kit::testing;

namespace {

/// n x n with one entry per row: on the diagonal, or on the anti-diagonal (every column remote
/// once P > 1, but the middle one).
CooMatrix one_per_row(index_t n, bool anti) {
    CooMatrix A;
    A.rows = A.cols = n;
    for (index_t i = 0; i < n; ++i) {
        A.row_idx.push_back(i);
        A.col_idx.push_back(anti ? n - 1 - i : i);
        A.vals.push_back(1.0 + i);
    }
    A.normalize();
    return A;
}

/// The gallery and the distribution's own hostile matrices, each with random vectors.
ProblemList dist_gallery() {
    ProblemList list = hostile_gallery();
    list.emplace_back("diagonal 37 (no remote column)", random_vectors(one_per_row(37, false), 11));
    list.emplace_back("anti-diagonal 40 (every column remote)", random_vectors(one_per_row(40, true), 12));
    list.emplace_back("2 x 2 (fewer rows than ranks)", random_vectors(one_per_row(2, true), 13));
    return list;
}

}  // namespace

TEST(Step1_PartitionRows, Gallery) {
    for (const auto& [name, problem] : dist_gallery()) EXPECT_TRUE(partitions_hold(problem.A, 6)) << name;
}

TEST(Step1_SplitBlock, Gallery) {
    for (const auto& [name, problem] : dist_gallery()) EXPECT_TRUE(blocks_hold(problem.A, 6)) << name;
}

TEST(Step2_CommPlan, Gallery) {
    for (const auto& [name, problem] : dist_gallery()) EXPECT_TRUE(plans_hold(problem.A, 6)) << name;
}

TEST(Step3_HaloSpmvMpi, Gallery) {
    KIT_REQUIRE_MPI();
    EXPECT_TRUE(passes_problems("dist-mpi", Backend::cpu, dist_gallery()));
}

TEST(Step4_HaloSpmvNccl, Gallery) {
    KIT_REQUIRE_NCCL();
    EXPECT_TRUE(passes_problems("dist-nccl", Backend::cuda, dist_gallery()));
}
