// Lab 05 hidden tests (tier 3): every block shape on the hostile gallery and on sizes that are
// not a multiple of r or c; the fill estimate's edge cases; the tuner's tie rule.
#include "bcsr_test_support.hpp"
#include "bcsr_tuner.hpp"
#include "io/block_fem.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "model/matrix_stats.hpp"
#include "observe.hpp"

using kit::Backend;
using namespace kit::testing;

namespace {

/// Sizes that leave partial blocks for every r, c in 2..4, each with an entry in its last
/// row and last column, so the edge blocks hold real values next to their fill.
std::vector<std::pair<std::string, Problem>> ragged_problems() {
    std::vector<std::pair<std::string, kit::CooMatrix>> m;
    kit::CooMatrix dense;
    dense.rows = 7;
    dense.cols = 5;
    for (int i = 0; i < 7; ++i)
        for (int j = 0; j < 5; ++j) dense.add(i, j, 1.0 + i - 0.5 * j);
    m.emplace_back("dense 7x5", dense);
    kit::CooMatrix random = kit::generate_random(29, 31, 6, 41);
    random.add(28, 30, 0.75);
    random.add(0, 30, -0.5);
    random.add(28, 0, 0.25);
    m.emplace_back("random 29x31", random);
    m.emplace_back("block FEM 5x3 nodes, 3 dof (45 rows)", kit::generate_block_fem(5, 3, 3, 43));
    kit::CooMatrix one;
    one.rows = one.cols = 1;
    one.add(0, 0, 2.5);
    m.emplace_back("1x1", one);
    std::vector<std::pair<std::string, Problem>> out;
    unsigned seed = 500;
    for (auto& [name, A] : m) {
        A.normalize();
        out.emplace_back(name, random_vectors(std::move(A), seed++));
    }
    return out;
}

/// Exact fill of every shape at sigma = 1, and the estimate, for one matrix.
::testing::AssertionResult estimate_is_exact(const std::string& label, const kit::CooMatrix& A) {
    const auto row_ptr = kit::hub_row_ptr(A);
    for (int r = 1; r <= 4; ++r)
        for (int c = 1; c <= 4; ++c) {
            const double got = observe([&] { return kit::bcsr::estimate_fill(A, row_ptr, r, c, 1.0); });
            const double want = kit::bcsr_fill_ratio(A, r, c);
            if (std::abs(got - want) > 1e-12 * want)
                return ::testing::AssertionFailure() << step_note(4) << "'" << label << "' " << r << "x" << c
                                                     << ": estimate at sigma 1 is " << got << ", exact fill " << want;
        }
    return ::testing::AssertionSuccess();
}

}  // namespace

TEST(Step1_BcsrCpu, AllShapesGallery) { EXPECT_TRUE(bcsr_passes_all_shapes("bcsr", Backend::cpu, hostile_gallery())); }
TEST(Step1_BcsrCpu, RaggedSizes) { EXPECT_TRUE(bcsr_passes_all_shapes("bcsr", Backend::cpu, ragged_problems())); }

TEST(Step2_BcsrTwoKernelCuda, AllShapesGallery) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr-2kernel", Backend::cuda, hostile_gallery()));
}
TEST(Step2_BcsrTwoKernelCuda, RaggedSizes) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr-2kernel", Backend::cuda, ragged_problems()));
}

TEST(Step3_BcsrWarpCuda, AllShapesGallery) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr-warp", Backend::cuda, hostile_gallery()));
}
TEST(Step3_BcsrWarpCuda, RaggedSizes) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr-warp", Backend::cuda, ragged_problems()));
}
TEST(Step3_BcsrWarpCuda, BlockRowLongerThanAWarp) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    // 6 dense rows of 1000 columns: 250 blocks of 2x4 (and more of smaller shapes) per block
    // row, so each lane takes many blocks and the shuffle reduction adds 32 real sums.
    kit::CooMatrix A;
    A.rows = 6;
    A.cols = 1000;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 1000; ++j) A.add(i, j, 1.0);
    A.normalize();
    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr-warp", Backend::cuda, {{"6x1000 dense", random_vectors(A, 77)}}));
}

TEST(Step4_FillEstimate, GalleryAndRaggedExactAtSigmaOne) {
    try {
        for (const auto& [label, problem] : hostile_gallery()) EXPECT_TRUE(estimate_is_exact(label, problem.A));
        for (const auto& [label, problem] : ragged_problems()) EXPECT_TRUE(estimate_is_exact(label, problem.A));
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step4_FillEstimate, EmptySampleFallsBackToEveryBlockRow) {
    try {
        const kit::CooMatrix A = rdb450_problem().A;
        const auto row_ptr = kit::hub_row_ptr(A);
        kit::CooMatrix empty;
        empty.rows = empty.cols = 5;

        // sigma = 1e-12 keeps no block row of 225, so the estimate must fall back to all of them.
        const double fallback = observe([&] { return kit::bcsr::estimate_fill(A, row_ptr, 2, 2, 1e-12); });
        const double no_entries =
            observe([&] { return kit::bcsr::estimate_fill(empty, kit::hub_row_ptr(empty), 3, 3, 0.5); });

        EXPECT_NEAR(fallback, 4260.0 / 2580.0, 1e-12) << step_note(4) << "an empty sample uses every block row";
        EXPECT_EQ(no_entries, 1.0) << step_note(4) << "a matrix with no entries has fill 1";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_ChooseBlock, TiesGoToTheSmallerBlock) {
    try {
        // dof-2 blocks: 1x1, 1x2, 2x1 and 2x2 all have fill 1, and the profile rates every shape
        // alike, so four shapes tie; the first in r-major order (1x1) wins.
        const kit::CooMatrix A = kit::generate_block_fem(6, 6, 2, 9);
        kit::BcsrProfile profile;
        for (int r = 1; r <= 4; ++r)
            for (int c = 1; c <= 4; ++c) profile.entries.push_back({"bcsr", kit::Precision::f64, r, c, 1000, 50.0});

        const auto choice =
            observe([&] { return kit::bcsr::choose_block(A, profile, "bcsr", kit::Precision::f64, 1.0); });

        EXPECT_EQ(choice.best.r, 1) << step_note(5) << "ties go to the first shape in r-major order";
        EXPECT_EQ(choice.best.c, 1) << step_note(5) << "ties go to the first shape in r-major order";
        EXPECT_DOUBLE_EQ(choice.best.estimate, 50.0) << step_note(5);
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

// The GPU gates: a CUDA step earns its points only if its kernel, on 5.2 million entries,
// beats the kit's single-threaded CPU loop by kit::testing::kGpuFloorSpeedup (manifest: gates).
KIT_GPU_FLOOR_TEST(Step2_BcsrTwoKernelCuda, "bcsr-2kernel", kit::testing::gpu_floor_matrix())
KIT_GPU_FLOOR_TEST(Step3_BcsrWarpCuda, "bcsr-warp", kit::testing::gpu_floor_matrix())
