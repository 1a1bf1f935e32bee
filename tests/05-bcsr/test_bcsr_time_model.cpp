// Lab 05 public tests of step 5's time model (bcsr_tuner.hpp): GOSpMV's P_dense / fill,
// replaced by a launch cost, block rows timed by panels of known blocks per block row and
// layout, and the longest block row timed by a chain record. Small cases whose figures can be
// checked by hand.
#include <sstream>

#include "bcsr_test_support.hpp"
#include "bcsr_tuner.hpp"
#include "model/matrix_stats.hpp"
#include "observe.hpp"

using namespace kit::testing;

namespace {

// Panels of one shape, 2x2, and one dense size (so no launch cost can be fitted: t0 = 0).
// A panel of nnz entries at bpr has nnz / (4 bpr) block rows sharing 2 nnz / P ns: each
// costs w = 8 bpr / P ns. bpr 1 at 4 GFLOP/s: 2 ns; bpr 4 at 8: 4 ns; bpr 8 at 16: 4 ns.
// Linear between points, flat below the first, proportional past the last.
kit::BcsrProfile band_panels_2x2() {
    std::istringstream text(
        "device test\n"
        "dense bcsr f64 2 2 1000 20\n"
        "panel bcsr double 2 2 1000 1 band 4\n"
        "panel bcsr double 2 2 1000 8 band 16\n"
        "panel bcsr double 2 2 1000 4 band 8   # out of order on purpose\n");
    return kit::BcsrProfile::parse(text, "test profile");
}

// Two rows 64 columns apart at 1x1: neither finds its sector read before.
kit::CooMatrix two_rows_far_apart() {
    kit::CooMatrix far;
    far.rows = 2;
    far.cols = 64;
    far.add(0, 0, 1.0);
    far.add(1, 40, 1.0);
    far.normalize();
    return far;
}

// Both kernels, float, 1x1, the same records. Dense runs of 1000 and 3000 entries take 2
// and 4 us: the line t = t0 + n * 1 ns has t0 = 1 us. A band panel of 4000 entries, 2
// blocks per block row, takes 3 us: 2 us of work for 2000 block rows, 1 ns each. A chain
// of 100 blocks (300 entries in all) takes 21 us: 20 us of work, 0.2 us a block.
kit::BcsrProfile launch_and_chain_profile() {
    kit::BcsrProfile profile;
    const auto f32 = kit::Precision::f32;
    for (const char* v : {"bcsr-2kernel", "bcsr-warp"}) {
        profile.entries.push_back({v, f32, 1, 1, 1000, 1.0});
        profile.entries.push_back({v, f32, 1, 1, 3000, 1.5});
        profile.panels.push_back({v, f32, 1, 1, 4000, 2, kit::PanelLayout::band, 8.0 / 3.0});
        profile.chains.push_back({v, f32, 1, 1, 300, 100, 600.0 / 21000.0});
    }
    return profile;
}

// 1000 block rows of 2 blocks, 10 of them sampled, all local: the rows take 1000 * 1 ns.
kit::bcsr::BlockRowSample thousand_rows_of_two_blocks() {
    kit::bcsr::BlockRowSample sample;
    sample.rows_by_blocks = {{2, 10}};
    sample.block_rows = 10;
    sample.blocks = 20;
    sample.entries = 20;
    sample.local_blocks = 20;
    sample.all_block_rows = 1000;
    sample.nnz = 2000;
    sample.longest_blocks = 2;
    return sample;
}

// thousand_rows_of_two_blocks as a matrix: 1000 rows of 2 entries side by side.
kit::CooMatrix thousand_rows_of_two() {
    kit::CooMatrix band;
    band.rows = band.cols = 1000;
    for (kit::index_t i = 0; i < 1000; ++i) {
        band.add(i, i, 1.0);
        band.add(i, (i + 1) % 1000, 1.0);
    }
    band.normalize();
    return band;
}

}  // namespace

TEST(Step5_ChooseBlock, StructureModelArithmetic) {
    try {
        const kit::BcsrProfile profile = band_panels_2x2();
        const auto band = profile.panels_of("bcsr", kit::Precision::f64, 2, 2, kit::PanelLayout::band);
        // The 4x4 example at 2x2 in double (4 values of x per 32-byte sector): 2 block rows of 2
        // blocks. Block (0,0) reads sector 0 first; the other three find it already read.
        const kit::CooMatrix A = example4x4_problem().A;
        const auto sample = kit::bcsr::sample_block_rows(A, kit::hub_row_ptr(A), 2, 2, 1.0, 8);
        const kit::CooMatrix far = two_rows_far_apart();
        const auto far_sample = kit::bcsr::sample_block_rows(far, kit::hub_row_ptr(far), 1, 1, 1.0, 8);

        const kit::bcsr::StructureModel m =
            kit::bcsr::structure_model(profile, "bcsr", kit::Precision::f64, 2, 2, sample);
        const auto choice =
            observe([&] { return kit::bcsr::choose_block(A, profile, "bcsr", kit::Precision::f64, 1.0); });

        ASSERT_EQ(band.size(), 3u) << step_note(5) << "the profile's panel records";
        EXPECT_EQ(band[1].bpr, 4) << step_note(5) << "panels_of sorts by blocks per block row";
        const double ns = 1e-9;
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 0, 0), 2 * ns, 1e-12 * ns) << step_note(5) << "an empty block row";
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 1, 0), 2 * ns, 1e-12 * ns) << step_note(5);
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 2, 0), 8.0 / 3.0 * ns, 1e-12 * ns)
            << step_note(5) << "linear between 1 and 4";
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 6, 0), 4 * ns, 1e-12 * ns)
            << step_note(5) << "linear between 4 and 8";
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 16, 0), 8 * ns, 1e-12 * ns)
            << step_note(5) << "proportional past the last panel";
        // A launch cost of 1 ns leaves the bpr-1 panel (1000 entries, 500 ns) 499 ns for its 250 block rows.
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 1, 1 * ns), 499.0 / 250.0 * ns, 1e-12 * ns)
            << step_note(5) << "t0 removed";
        EXPECT_DOUBLE_EQ(kit::bcsr::launch_seconds(profile, "bcsr", kit::Precision::f64, 2, 2), 0.0)
            << step_note(5) << "one dense size fits no launch cost";
        EXPECT_EQ(sample.block_rows, 2) << step_note(5);
        EXPECT_EQ(sample.blocks, 4) << step_note(5);
        EXPECT_EQ(sample.entries, 9) << step_note(5);
        EXPECT_EQ(sample.all_block_rows, 2) << step_note(5);
        EXPECT_EQ(sample.nnz, 9) << step_note(5);
        EXPECT_EQ(sample.longest_blocks, 2) << step_note(5) << "the block row with the most entries holds 2 blocks";
        EXPECT_EQ(sample.rows_by_blocks.at(2), 2) << step_note(5) << "both block rows hold 2 blocks";
        EXPECT_EQ(sample.local_blocks, 3) << step_note(5) << "every block but the first reads a sector already read";
        EXPECT_EQ(far_sample.local_blocks, 0) << step_note(5) << "gathers 40 columns apart are not local";
        // Only band panels: each block row costs w(2) = 8/3 ns, 16/3 ns in all, so 2 * 9 useful flops
        // run at 3.375 GFLOP/s, against P_dense / fill = 20 / (16/9) = 11.25: factor 0.3.
        EXPECT_TRUE(m.used) << step_note(5);
        EXPECT_NEAR(m.rows_seconds, 16.0 / 3.0 * ns, 1e-12 * ns) << step_note(5) << "the sum of w over the block rows";
        EXPECT_DOUBLE_EQ(m.chain_seconds, 0.0) << step_note(5) << "no chain record";
        EXPECT_NEAR(m.gflops, 3.375, 1e-12) << step_note(5) << "2 nnz / predicted time";
        EXPECT_NEAR(m.factor, 0.3, 1e-12) << step_note(5) << "predicted speed / (P_dense / fill)";
        ASSERT_EQ(choice.shapes.size(), 1u) << step_note(5) << "only 2x2 is profiled";
        EXPECT_NEAR(choice.best.structure, 0.3, 1e-12) << step_note(5) << "choose_block uses structure_factor";
        EXPECT_NEAR(choice.best.estimate, 20.0 / (16.0 / 9.0) * 0.3, 1e-11)
            << step_note(5) << "estimate = P_dense / fill * structure";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_ChooseBlock, LaunchCostAndTheLongestBlockRow) {
    try {
        const kit::BcsrProfile profile = launch_and_chain_profile();
        const auto f32 = kit::Precision::f32;
        const kit::bcsr::BlockRowSample sample = thousand_rows_of_two_blocks();
        kit::bcsr::BlockRowSample long_row = sample;
        long_row.longest_blocks = 50;

        const double launch = kit::bcsr::launch_seconds(profile, "bcsr-warp", f32, 1, 1);
        const auto warp = kit::bcsr::structure_model(profile, "bcsr-warp", f32, 1, 1, sample);
        const auto warp_long = kit::bcsr::structure_model(profile, "bcsr-warp", f32, 1, 1, long_row);
        const auto two = kit::bcsr::structure_model(profile, "bcsr-2kernel", f32, 1, 1, sample);
        const auto two_long = kit::bcsr::structure_model(profile, "bcsr-2kernel", f32, 1, 1, long_row);

        EXPECT_NEAR(launch, 1e-6, 1e-15) << step_note(5) << "the intercept of the dense records' times";
        EXPECT_NEAR(warp.rows_seconds, 1e-6, 1e-15) << step_note(5);
        EXPECT_NEAR(warp.chain_seconds, 0.4e-6, 1e-15) << step_note(5) << "2 blocks of the chain";
        EXPECT_NEAR(warp.seconds, 2e-6, 1e-15) << step_note(5) << "t0 + max(rows, chain)";
        EXPECT_NEAR(warp.gflops, 2.0, 1e-9) << step_note(5) << "4000 flops in 2 us";
        // Nearest dense size to 2000 stored values on a log scale: 3000 (1.5 GFLOP/s), fill 1.
        EXPECT_NEAR(warp.factor, 2.0 / 1.5, 1e-9) << step_note(5);
        EXPECT_NEAR(warp_long.chain_seconds, 10e-6, 1e-15) << step_note(5) << "50 blocks of the chain";
        EXPECT_NEAR(warp_long.seconds, 11e-6, 1e-15) << step_note(5) << "the longest block row decides";
        EXPECT_NEAR(warp_long.gflops, 4000.0 / 11e-6 * 1e-9, 1e-9) << step_note(5);
        // bcsr-2kernel sums the long row in its second launch, after every block: t0 + rows + chain.
        EXPECT_NEAR(two.seconds, 2.4e-6, 1e-15) << step_note(5) << "bcsr-2kernel adds the chain";
        EXPECT_NEAR(two_long.seconds, 12e-6, 1e-15) << step_note(5) << "bcsr-2kernel adds the chain";

        // The same structure as a matrix. choose_block rates its only profiled shape, 1x1, at
        // P_dense / fill * structure = the model's 2 nnz / T.
        const kit::CooMatrix band = thousand_rows_of_two();
        const auto warp_choice = observe([&] { return kit::bcsr::choose_block(band, profile, "bcsr-warp", f32, 1.0); });
        const auto two_choice =
            observe([&] { return kit::bcsr::choose_block(band, profile, "bcsr-2kernel", f32, 1.0); });
        ASSERT_EQ(warp_choice.shapes.size(), 1u) << step_note(5) << "only 1x1 is profiled";
        EXPECT_NEAR(warp_choice.best.estimate, 2.0, 1e-9) << step_note(5) << "4000 flops in t0 + rows = 2 us";
        EXPECT_NEAR(two_choice.best.estimate, 4000.0 / 2.4e-6 * 1e-9, 1e-9)
            << step_note(5) << "4000 flops in t0 + rows + chain = 2.4 us";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_ChooseBlock, AWarpTakesABlockRow32BlocksAtATime) {
    try {
        // 1x1 band panels of 6400 entries, t0 = 0, w = 2 bpr / P ns: bpr 16 at 32/3 GFLOP/s
        // (3 ns), bpr 32 at 16 (4 ns), bpr 64 at 16 (8 ns). Half the lanes cost 3 of 4 ns, so
        // alpha = 2 * 3/4 - 1 = 0.5 of a pass is paid however many lanes work.
        const auto f32 = kit::Precision::f32;
        const std::vector<kit::PanelEntry> band = {
            {"bcsr-warp", f32, 1, 1, 6400, 16, kit::PanelLayout::band, 32.0 / 3.0},
            {"bcsr-warp", f32, 1, 1, 6400, 32, kit::PanelLayout::band, 16.0},
            {"bcsr-warp", f32, 1, 1, 6400, 64, kit::PanelLayout::band, 16.0}};
        const double ns = 1e-9;

        EXPECT_NEAR(kit::bcsr::block_row_time(band, 24, 0, 32), 3.5 * ns, 1e-12 * ns)
            << step_note(5) << "one pass, linear";
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 48, 0, 0), 6.0 * ns, 1e-12 * ns)
            << step_note(5) << "no lanes, linear";
        // 48 blocks take 2 passes: w(64) * (0.5 + 0.5 * 48/64) = 8 * 0.875.
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 48, 0, 32), 7.0 * ns, 1e-12 * ns) << step_note(5) << "two passes";
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 40, 0, 32), 6.5 * ns, 1e-12 * ns) << step_note(5) << "two passes";
        // 80 blocks take 3 passes: w(96) = 8 * 96/64 = 12 (proportional past the last panel), * (0.5 + 0.5 * 80/96).
        EXPECT_NEAR(kit::bcsr::block_row_time(band, 80, 0, 32), 11.0 * ns, 1e-12 * ns)
            << step_note(5) << "three passes";

        // Two rows of 48 and 40 entries: bcsr-warp takes 7 + 6.5 ns for them, so choose_block
        // rates 1x1 (the only shape with a dense record, one size: t0 = 0) at 2 * 88 / 13.5 GFLOP/s.
        kit::BcsrProfile profile;
        profile.entries = {{"bcsr-warp", f32, 1, 1, 6400, 10.0}};
        profile.panels = band;
        kit::CooMatrix A;
        A.rows = 2;
        A.cols = 64;
        for (kit::index_t j = 0; j < 48; ++j) A.add(0, j, 1.0);
        for (kit::index_t j = 0; j < 40; ++j) A.add(1, j, 1.0);
        A.normalize();
        const auto choice = observe([&] { return kit::bcsr::choose_block(A, profile, "bcsr-warp", f32, 1.0); });
        ASSERT_EQ(choice.shapes.size(), 1u) << step_note(5) << "only 1x1 is profiled";
        EXPECT_NEAR(choice.best.estimate, 2.0 * 88 / 13.5, 1e-9) << step_note(5) << "the warp kernel's passes";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

TEST(Step5_ChooseBlock, StructureFactorBlendsBandAndScatterByLocality) {
    try {
        // 1x1, P_dense 10, one dense size (t0 = 0). w = 2 bpr / P ns. band: bpr 1 at 2 (1 ns),
        // bpr 2 at 4 (1 ns); scatter: bpr 1 at 1 (2 ns), bpr 2 at 1 (4 ns). A sample of 2 block
        // rows of 1 block and 1 of 2, 1 block of 4 local: w(1) = 0.25*1 + 0.75*2 = 1.75 ns,
        // w(2) = 0.25*1 + 0.75*4 = 3.25 ns; 2 * 4 flops / (2*1.75 + 3.25) ns = 32/27 GFLOP/s;
        // fill 1, so the factor is 32/27 / 10.
        kit::BcsrProfile profile;
        profile.entries = {{"bcsr-warp", kit::Precision::f32, 1, 1, 5000, 10.0}};
        profile.panels = {{"bcsr-warp", kit::Precision::f32, 1, 1, 4000, 1, kit::PanelLayout::band, 2.0},
                          {"bcsr-warp", kit::Precision::f32, 1, 1, 4000, 2, kit::PanelLayout::band, 4.0},
                          {"bcsr-warp", kit::Precision::f32, 1, 1, 4000, 1, kit::PanelLayout::scatter, 1.0},
                          {"bcsr-warp", kit::Precision::f32, 1, 1, 4000, 2, kit::PanelLayout::scatter, 1.0}};
        kit::bcsr::BlockRowSample sample;
        sample.rows_by_blocks = {{1, 2}, {2, 1}};
        sample.block_rows = 3;
        sample.blocks = 4;
        sample.entries = 4;
        sample.local_blocks = 1;
        sample.all_block_rows = 3;
        sample.nnz = 4;
        sample.longest_blocks = 2;
        const kit::CooMatrix A = example4x4_problem().A;

        const auto m = kit::bcsr::structure_model(profile, "bcsr-warp", kit::Precision::f32, 1, 1, sample);
        const auto choice =
            observe([&] { return kit::bcsr::choose_block(A, profile, "bcsr-warp", kit::Precision::f32, 1.0); });
        const double factor =
            kit::bcsr::structure_factor(A, kit::hub_row_ptr(A), profile, "bcsr-warp", kit::Precision::f32, 1, 1, 1.0);

        EXPECT_NEAR(m.gflops, 32.0 / 27.0, 1e-12) << step_note(5);
        EXPECT_NEAR(m.factor, 32.0 / 270.0, 1e-13) << step_note(5);
        ASSERT_EQ(choice.shapes.size(), 1u) << step_note(5);
        EXPECT_DOUBLE_EQ(choice.best.structure, factor) << step_note(5) << "choose_block uses structure_factor";
        EXPECT_DOUBLE_EQ(choice.best.estimate, 10.0 * factor) << step_note(5) << "fill 1 at 1x1";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}
