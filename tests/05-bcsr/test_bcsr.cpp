// Lab 05 public tests. Tier 1: the 4x4 example, exact, with every block shape. Tier 2: rdb450
// against the oracle. Steps 4-5: the autotuner's fill estimate and choice (pure CPU code); the
// tests of step 5's time model are in test_bcsr_time_model.cpp.
#include "bcsr_test_support.hpp"
#include "bcsr_tuner.hpp"
#include "io/block_fem.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "model/matrix_stats.hpp"
#include "observe.hpp"

using kit::Backend;
using kit::Comparison;
using namespace kit::testing;

namespace {

/// 2x2 (the worked example), 3x3 (partial blocks), 4x4 (rdb450's 450 rows are not a multiple of 4).
::testing::AssertionResult rdb450_in_three_shapes(const std::string& name, Backend b, kit::Precision p) {
    const Problem rdb = rdb450_problem();
    for (int s = 2; s <= 4; ++s)
        if (auto ok = bcsr_matches_oracle(name, b, p, s, s, rdb); !ok) return ok;
    return ::testing::AssertionSuccess();
}

/// A profile with one size per shape, so "nearest size" is that size and only P/f decides.
kit::BcsrProfile one_size_profile(const std::string& variant) {
    kit::BcsrProfile p;
    for (int r = 1; r <= 4; ++r)
        for (int c = 1; c <= 4; ++c)
            p.entries.push_back({variant, kit::Precision::f64, r, c, 100000, 10.0 + 3 * r * c + c});
    return p;
}

}  // namespace

KIT_PRECISION_SUITE(Step1_BcsrCpu);

TYPED_TEST(Step1_BcsrCpu, Example4x4) {
    const ProblemList example = {{"4x4 example", example4x4_problem()}};

    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr", Backend::cpu, this->precision, example, true));
}

TYPED_TEST(Step1_BcsrCpu, Rdb450) { EXPECT_TRUE(rdb450_in_three_shapes("bcsr", Backend::cpu, this->precision)); }

KIT_PRECISION_SUITE(Step2_BcsrTwoKernelCuda);

TYPED_TEST(Step2_BcsrTwoKernelCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const ProblemList example = {{"4x4 example", example4x4_problem()}};

    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr-2kernel", Backend::cuda, this->precision, example, true));
}

TYPED_TEST(Step2_BcsrTwoKernelCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(rdb450_in_three_shapes("bcsr-2kernel", Backend::cuda, this->precision));
}

KIT_PRECISION_SUITE(Step3_BcsrWarpCuda);

TYPED_TEST(Step3_BcsrWarpCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const ProblemList example = {{"4x4 example", example4x4_problem()}};

    EXPECT_TRUE(bcsr_passes_all_shapes("bcsr-warp", Backend::cuda, this->precision, example, true));
}

TYPED_TEST(Step3_BcsrWarpCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(rdb450_in_three_shapes("bcsr-warp", Backend::cuda, this->precision));
}

TEST(Step4_FillEstimate, Rdb450ExactAtSigmaOne) {
    try {
        const kit::CooMatrix A = rdb450_problem().A;
        const auto row_ptr = kit::hub_row_ptr(A);

        const double f22 = observe([&] { return kit::bcsr::estimate_fill(A, row_ptr, 2, 2, 1.0); });

        // rdb450 couples u and v only at the same grid node: its 225 diagonal 2x2 blocks are
        // full, but its 840 neighbour blocks hold 2 of 4 entries (u-u and v-v). So 2x2 is not
        // fill-free: 1065 blocks x 4 = 4260 values for 2580 entries, fill 71/43.
        EXPECT_NEAR(f22, 4260.0 / 2580.0, 1e-12) << step_note(4) << "rdb450's exact 2x2 fill";
        for (int r = 1; r <= 4; ++r)
            for (int c = 1; c <= 4; ++c) {
                const double fill = observe([&] { return kit::bcsr::estimate_fill(A, row_ptr, r, c, 1.0); });
                EXPECT_NEAR(fill, kit::bcsr_fill_ratio(A, r, c), 1e-12)
                    << step_note(4) << "at sigma = 1 the estimate is the exact fill, " << r << "x" << c;
            }
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step4_FillEstimate, BlockFemIsFillFreeAtItsBlockSize) {
    try {
        for (int dof = 2; dof <= 4; ++dof) {
            const kit::CooMatrix A = kit::generate_block_fem(40, 30, dof, 5);
            const auto row_ptr = kit::hub_row_ptr(A);

            const double exact = observe([&] { return kit::bcsr::estimate_fill(A, row_ptr, dof, dof, 1.0); });
            const double sampled =
                observe([&] { return kit::bcsr::estimate_fill(A, row_ptr, dof, dof, kit::bcsr::kDefaultSigma); });
            const double one_by_one =
                observe([&] { return kit::bcsr::estimate_fill(A, row_ptr, 1, 1, kit::bcsr::kDefaultSigma); });

            // Every sampled block row of an exactly blocked matrix has fill 1, so any sample is exact.
            EXPECT_EQ(exact, 1.0) << step_note(4) << "dof " << dof << " FEM blocks are dense " << dof << "x" << dof;
            EXPECT_EQ(sampled, 1.0) << step_note(4) << "sampled estimate, dof " << dof;
            EXPECT_EQ(one_by_one, 1.0) << step_note(4) << "1x1 blocks never need fill";
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
                const double sampled =
                    observe([&] { return kit::bcsr::estimate_fill(A, row_ptr, r, c, kit::bcsr::kDefaultSigma); });
                const double exact = kit::bcsr_fill_ratio(A, r, c);

                EXPECT_NEAR(sampled, exact, 0.03 * exact) << step_note(4) << "sampled fill " << r << "x" << c;
                if (r * c > 1) {
                    EXPECT_NE(sampled, exact) << step_note(4) << r << "x" << c
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

        const auto choice =
            observe([&] { return kit::bcsr::choose_block(A, profile, "bcsr-warp", kit::Precision::f64, 1.0); });

        EXPECT_EQ(choice.shapes.size(), 16u) << step_note(5) << "every shape of the profile is rated";
        EXPECT_EQ(choice.best.r, best_r) << step_note(5) << "the pick maximises P_dense / fill";
        EXPECT_EQ(choice.best.c, best_c) << step_note(5) << "the pick maximises P_dense / fill";
        EXPECT_NEAR(choice.best.estimate, best, 1e-9 * best) << step_note(5) << "estimate = P_dense / fill";
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

        const auto choice =
            observe([&] { return kit::bcsr::choose_block(A, profile, "bcsr", kit::Precision::f32, 1.0); });

        EXPECT_EQ(choice.shapes.size(), 2u) << step_note(5) << "shapes missing from the profile are skipped";
        EXPECT_EQ(choice.best.r, 2) << step_note(5);
        EXPECT_EQ(choice.best.c, 2) << step_note(5);
        EXPECT_EQ(choice.best.profile_nnz, 15) << step_note(5) << "nz_d nearest to fill * nnz = 16";
        EXPECT_DOUBLE_EQ(choice.best.estimate, 1.6875) << step_note(5) << "3.0 GFLOP/s / fill 16/9";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_ChooseBlock, EstimatesWithinOnePercentTieAndTheFewestStoredValuesRun) {
    try {
        // The 4x4 example: 2x2 stores 16 values at an estimate of 3.0 / (16/9) = 1.6875, 1x1
        // stores 9. At 1.68 GFLOP/s, 1x1 is 0.44% below 2x2, a tie (kTieBand), and the tuner runs
        // 1x1; at 1.6 it is 5.2% below, and 2x2 runs.
        kit::BcsrProfile profile;
        profile.entries = {{"bcsr", kit::Precision::f32, 1, 1, 9, 1.68}, {"bcsr", kit::Precision::f32, 2, 2, 15, 3.0}};
        const kit::CooMatrix A = example4x4_problem().A;

        const auto tie = observe([&] { return kit::bcsr::choose_block(A, profile, "bcsr", kit::Precision::f32, 1.0); });
        profile.entries[0].gflops = 1.6;
        const auto apart =
            observe([&] { return kit::bcsr::choose_block(A, profile, "bcsr", kit::Precision::f32, 1.0); });

        EXPECT_EQ(tie.best.r, 2) << step_note(5) << "best is the largest estimate";
        EXPECT_EQ(tie.pick().r, 1) << step_note(5) << "a tie runs the shape storing fewer values";
        EXPECT_DOUBLE_EQ(tie.pick().estimate, 1.68) << step_note(5);
        EXPECT_EQ(apart.pick().r, 2) << step_note(5) << "5% apart is no tie";
        EXPECT_EQ(apart.pick().c, 2) << step_note(5);
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_ChooseBlock, RefusesAProfileWithoutTheVariant) {
    const kit::BcsrProfile profile = one_size_profile("bcsr-warp");

    try {
        observe([&] {
            return kit::bcsr::choose_block(example4x4_problem().A, profile, "bcsr-2kernel", kit::Precision::f64);
        });
        FAIL() << step_note(5) << "a profile without records for the variant must be refused";
    } catch (const kit::TodoError& e) {
        FAIL() << e.what();
    } catch (const kit::Error& e) {
        EXPECT_NE(std::string(e.what()).find("bcsr-2kernel"), std::string::npos)
            << step_note(5) << "the message should name the variant: " << e.what();
    }
}

KIT_PRECISION_SUITE(Step5_BcsrAutoCpu);

TYPED_TEST(Step5_BcsrAutoCpu, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("bcsr", Backend::cpu, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step5_BcsrAutoCuda);

TYPED_TEST(Step5_BcsrAutoCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("bcsr-warp", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

TEST(Step5_JointPick, TakesTheKernelWithTheLargestEstimate) {
    try {
        // Same shapes rated by both kernels, the warp kernel's profile twice as fast: the joint
        // pick is the warp kernel at its own best shape. A kernel the profile lacks is skipped.
        kit::BcsrProfile profile = one_size_profile("bcsr-2kernel");
        for (kit::ProfileEntry e : one_size_profile("bcsr-2kernel").entries) {
            e.variant = "bcsr-warp";
            e.gflops *= 2;
            profile.entries.push_back(e);
        }
        const kit::CooMatrix A = rdb450_problem().A;

        // choose_kernel_and_block (kit code) calls the student's choose_block for each kernel.
        const auto joint = observe([&] {
            return kit::bcsr::choose_kernel_and_block(A, profile, {"bcsr-2kernel", "bcsr", "bcsr-warp"},
                                                      kit::Precision::f64, 1.0);
        });
        const auto warp =
            observe([&] { return kit::bcsr::choose_block(A, profile, "bcsr-warp", kit::Precision::f64, 1.0); });

        ASSERT_EQ(joint.variants.size(), 2u) << step_note(5) << "'bcsr' has no record and is skipped";
        EXPECT_EQ(joint.variant(), "bcsr-warp") << step_note(5) << "the larger estimate wins";
        EXPECT_EQ(joint.choice().best.r, warp.best.r) << step_note(5);
        EXPECT_EQ(joint.choice().best.c, warp.best.c) << step_note(5);
        EXPECT_DOUBLE_EQ(joint.choice().best.estimate, 2 * joint.choices.at(0).best.estimate) << step_note(5);
        EXPECT_THROW(
            observe([&] { return kit::bcsr::choose_kernel_and_block(A, profile, {"bcsr"}, kit::Precision::f64); }),
            kit::Error)
            << step_note(5) << "no kernel covered";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

KIT_PRECISION_SUITE(Step5_BcsrJointCuda);

TYPED_TEST(Step5_BcsrJointCuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run = run_against_oracle("bcsr-auto", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}
