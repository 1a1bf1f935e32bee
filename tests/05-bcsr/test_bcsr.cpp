// Lab 05 public tests. Tier 1: the 4x4 example, exact, with every block shape. Tier 2: rdb450
// against the oracle. Steps 4-5: the autotuner's fill estimate and choice (pure CPU code).
#include <cmath>

#include "bcsr_test_support.hpp"
#include "bcsr_tuner.hpp"
#include "block_fem.hpp"
#include "generators.hpp"
#include "kit_error.hpp"
#include "matrix_stats.hpp"

using kit::Backend;
using namespace kit::testing;

namespace {

/// 2x2 (the worked example), 3x3 (partial blocks), 4x4 (rdb450's 450 rows are not a multiple of 4).
::testing::AssertionResult rdb450_in_three_shapes(const std::string& name, Backend b) {
    const Problem rdb = rdb450_problem();
    for (int s = 2; s <= 4; ++s)
        for (auto p : {kit::Precision::f32, kit::Precision::f64})
            if (auto ok = bcsr_matches_oracle(name, b, p, s, s, rdb); !ok) return ok;
    return ::testing::AssertionSuccess();
}

/// A profile with one size per shape, so "nearest size" is that size and only P/f decides.
kit::BcsrProfile one_size_profile(const std::string& variant) {
    kit::BcsrProfile p;
    for (int r = 1; r <= 4; ++r)
        for (int c = 1; c <= 4; ++c) p.entries.push_back({variant, kit::Precision::f64, r, c, 100000, 10.0 + 3 * r * c + c});
    return p;
}

}  // namespace

TEST(Step1_BcsrCpu, Example4x4) {
    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr", Backend::cpu, {{"4x4 example", example4x4_problem()}}, true));
}

TEST(Step1_BcsrCpu, Rdb450) { EXPECT_TRUE(rdb450_in_three_shapes("bcsr", Backend::cpu)); }

TEST(Step2_BcsrTwoKernelCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr-2kernel", Backend::cuda, {{"4x4 example", example4x4_problem()}}, true));
}

TEST(Step2_BcsrTwoKernelCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(rdb450_in_three_shapes("bcsr-2kernel", Backend::cuda));
}

TEST(Step3_BcsrWarpCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr-warp", Backend::cuda, {{"4x4 example", example4x4_problem()}}, true));
}

TEST(Step3_BcsrWarpCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(rdb450_in_three_shapes("bcsr-warp", Backend::cuda));
}

TEST(Step4_FillEstimate, Rdb450ExactAtSigmaOne) {
    try {
        const kit::CooMatrix A = rdb450_problem().A;
        const auto row_ptr = kit::hub_row_ptr(A);

        const double f22 = kit::bcsr::estimate_fill(A, row_ptr, 2, 2, 1.0);

        // rdb450 couples u and v only at the same grid node: its 225 diagonal 2x2 blocks are
        // full, but its 840 neighbour blocks hold 2 of 4 entries (u-u and v-v). So 2x2 is not
        // fill-free: 1065 blocks x 4 = 4260 values for 2580 entries, fill 71/43.
        EXPECT_NEAR(f22, 4260.0 / 2580.0, 1e-12) << "05-bcsr step 4: rdb450's exact 2x2 fill";
        for (int r = 1; r <= 4; ++r)
            for (int c = 1; c <= 4; ++c)
                EXPECT_NEAR(kit::bcsr::estimate_fill(A, row_ptr, r, c, 1.0), kit::bcsr_fill_ratio(A, r, c), 1e-12)
                    << "05-bcsr step 4: at sigma = 1 the estimate is the exact fill, " << r << "x" << c;
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step4_FillEstimate, BlockFemIsFillFreeAtItsBlockSize) {
    try {
        for (int dof = 2; dof <= 4; ++dof) {
            const kit::CooMatrix A = kit::generate_block_fem(40, 30, dof, 5);
            const auto row_ptr = kit::hub_row_ptr(A);

            const double exact = kit::bcsr::estimate_fill(A, row_ptr, dof, dof, 1.0);
            const double sampled = kit::bcsr::estimate_fill(A, row_ptr, dof, dof, kit::bcsr::kDefaultSigma);
            const double one_by_one = kit::bcsr::estimate_fill(A, row_ptr, 1, 1, kit::bcsr::kDefaultSigma);

            // Every sampled block row of an exactly blocked matrix has fill 1, so any sample is exact.
            EXPECT_EQ(exact, 1.0) << "05-bcsr step 4: dof " << dof << " FEM blocks are dense " << dof << "x" << dof;
            EXPECT_EQ(sampled, 1.0) << "05-bcsr step 4: sampled estimate, dof " << dof;
            EXPECT_EQ(one_by_one, 1.0) << "05-bcsr step 4: 1x1 blocks never need fill";
        }
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step4_FillEstimate, SampleIsCloseToExact) {
    try {
        kit::RdbParams params;
        params.m = 80;  // 12800 rows: 6400 block rows at 2x2, about 320 in a 5% sample
        const kit::CooMatrix A = kit::generate_rdb(params);
        const auto row_ptr = kit::hub_row_ptr(A);

        for (int r = 1; r <= 4; ++r)
            for (int c = 1; c <= 4; ++c) {
                const double sampled = kit::bcsr::estimate_fill(A, row_ptr, r, c, kit::bcsr::kDefaultSigma);
                const double exact = kit::bcsr_fill_ratio(A, r, c);

                EXPECT_NEAR(sampled, exact, 0.03 * exact) << "05-bcsr step 4: sampled fill " << r << "x" << c;
                if (r * c > 1) {
                    EXPECT_NE(sampled, exact) << "05-bcsr step 4: " << r << "x" << c
                                              << " at sigma 0.05 should look at a sample, not every block row";
                }
            }
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_ChooseBlock, MaximisesDenseSpeedOverFill) {
    try {
        const kit::CooMatrix A = rdb450_problem().A;
        const kit::BcsrProfile profile = one_size_profile("bcsr-warp");
        int best_r = 0, best_c = 0;
        double best = -1;
        for (int r = 1; r <= 4; ++r)
            for (int c = 1; c <= 4; ++c) {
                const double rate = (10.0 + 3 * r * c + c) / kit::bcsr_fill_ratio(A, r, c);
                if (rate > best) best = rate, best_r = r, best_c = c;
            }

        const auto choice = kit::bcsr::choose_block(A, profile, "bcsr-warp", kit::Precision::f64, 1.0);

        EXPECT_EQ(choice.shapes.size(), 16u) << "05-bcsr step 5: every shape of the profile is rated";
        EXPECT_EQ(choice.best.r, best_r) << "05-bcsr step 5: the pick maximises P_dense / fill";
        EXPECT_EQ(choice.best.c, best_c) << "05-bcsr step 5: the pick maximises P_dense / fill";
        EXPECT_NEAR(choice.best.estimate, best, 1e-9 * best) << "05-bcsr step 5: estimate = P_dense / fill";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_ChooseBlock, UsesTheProfiledSizeNearestToTheStoredValues) {
    try {
        // The 4x4 example stores 9 values as 1x1 and 16 (fill 16/9) as 2x2. The 2x2 profile has
        // points at 10 and 15 values: the stored 16 is nearest 15 (3.0 GFLOP/s, estimate
        // 3.0 / (16/9) = 1.6875), beating 1x1 at 1.2. Looking up nnz = 9 instead of the stored
        // values would find 10 (1.0 GFLOP/s) and wrongly pick 1x1.
        kit::BcsrProfile profile;
        profile.entries = {{"bcsr", kit::Precision::f32, 1, 1, 9, 1.2},
                           {"bcsr", kit::Precision::f32, 2, 2, 10, 1.0},
                           {"bcsr", kit::Precision::f32, 2, 2, 15, 3.0},
                           {"bcsr", kit::Precision::f64, 2, 2, 15, 99.0}};
        kit::CooMatrix A = example4x4_problem().A;

        const auto choice = kit::bcsr::choose_block(A, profile, "bcsr", kit::Precision::f32, 1.0);

        EXPECT_EQ(choice.shapes.size(), 2u) << "05-bcsr step 5: shapes missing from the profile are skipped";
        EXPECT_EQ(choice.best.r, 2) << "05-bcsr step 5";
        EXPECT_EQ(choice.best.c, 2) << "05-bcsr step 5";
        EXPECT_EQ(choice.best.profile_nnz, 15) << "05-bcsr step 5: nz_d nearest to fill * nnz = 16";
        EXPECT_DOUBLE_EQ(choice.best.estimate, 1.6875) << "05-bcsr step 5: 3.0 GFLOP/s / fill 16/9";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_ChooseBlock, RefusesAProfileWithoutTheVariant) {
    const kit::BcsrProfile profile = one_size_profile("bcsr-warp");

    try {
        kit::bcsr::choose_block(example4x4_problem().A, profile, "bcsr-2kernel", kit::Precision::f64);
        FAIL() << "05-bcsr step 5: a profile without records for the variant must be refused";
    } catch (const kit::TodoError& e) {
        FAIL() << e.what();
    } catch (const kit::Error& e) {
        EXPECT_NE(std::string(e.what()).find("bcsr-2kernel"), std::string::npos)
            << "05-bcsr step 5: the message should name the variant: " << e.what();
    }
}

KIT_SPMV_TEST(Step5_BcsrAutoCpu, Rdb450, "bcsr", Backend::cpu, rdb450_problem(), false)
KIT_SPMV_TEST(Step5_BcsrAutoCuda, Rdb450, "bcsr-warp", Backend::cuda, rdb450_problem(), false)
