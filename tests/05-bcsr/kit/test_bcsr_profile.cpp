// Lab 05's profile file (bcsr_profile.hpp): parsing, writing, and the lookups the tuner makes.
// Not graded: the file is the lab's given code, tested here like the kit's own (test_05-bcsr_kit).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "bcsr_profile.hpp"
#include "core/kit_error.hpp"

TEST(BcsrProfile, ParsesDeviceAndDenseRecords) {
    std::istringstream text(
        "# a comment\n"
        "device  NVIDIA H200 (test)\n"
        "\n"
        "dense bcsr-warp double 2 3 230400 61.5   # trailing comment\n"
        "dense bcsr float 1 1 14400 2.25\n");

    const kit::BcsrProfile p = kit::BcsrProfile::parse(text, "test.txt");

    EXPECT_EQ(p.device, "NVIDIA H200 (test)");
    ASSERT_EQ(p.entries.size(), 2u);
    EXPECT_EQ(p.entries[0].variant, "bcsr-warp");
    EXPECT_EQ(p.entries[0].precision, kit::Precision::f64);
    EXPECT_EQ(p.entries[0].r, 2);
    EXPECT_EQ(p.entries[0].c, 3);
    EXPECT_EQ(p.entries[0].nnz, 230400);
    EXPECT_DOUBLE_EQ(p.entries[0].gflops, 61.5);
    EXPECT_EQ(p.entries[1].precision, kit::Precision::f32);
}

TEST(BcsrProfile, BadRecordNamesFileAndLine) {
    const char* bad[] = {"dense bcsr double 2 2 100\n",       "dense bcsr double 5 2 100 1.0\n",
                         "dense bcsr quad 2 2 100 1.0\n",     "sparse bcsr double 2 2 100 1.0\n",
                         "dense bcsr double 2 2 100 -1.0\n",  "dense bcsr double 2 2 100 1.0 7\n",
                         "chain bcsr double 2 2 100 1.0\n",   "chain bcsr double 2 2 100 0 1.0\n",
                         "chain bcsr double 2 2 100 8 nan\n", "panel bcsr double 2 2 100 4 diagonal 1.0\n"};
    for (const char* line : bad) {
        std::istringstream text(std::string("# header\n") + line);
        try {
            kit::BcsrProfile::parse(text, "p.txt");
            ADD_FAILURE() << "accepted: " << line;
        } catch (const kit::InputError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("p.txt:2: ", 0), 0u) << e.what();
        }
    }
}

TEST(BcsrProfile, NearestSizeIsMeasuredOnALogScale) {
    kit::BcsrProfile p;
    p.entries = {{"v", kit::Precision::f64, 2, 2, 1000, 1.0},
                 {"v", kit::Precision::f64, 2, 2, 4000, 2.0},
                 {"v", kit::Precision::f64, 2, 2, 16000, 3.0},
                 {"v", kit::Precision::f32, 2, 2, 2500, 9.0}};

    // 2100 is nearer 4000 on a log scale (ratio 1.9) than 1000 (ratio 2.1), though nearer 1000 in plain difference.
    EXPECT_EQ(p.nearest("v", kit::Precision::f64, 2, 2, 2100)->nnz, 4000);
    EXPECT_EQ(p.nearest("v", kit::Precision::f64, 2, 2, 1900)->nnz, 1000);
    EXPECT_EQ(p.nearest("v", kit::Precision::f64, 2, 2, 1e9)->nnz, 16000);
    EXPECT_EQ(p.nearest("v", kit::Precision::f64, 2, 2, 0)->nnz, 1000);
    EXPECT_EQ(p.nearest("v", kit::Precision::f64, 2, 2, 2000)->nnz, 1000);  // a tie goes to the smaller size
    EXPECT_EQ(p.nearest("v", kit::Precision::f64, 3, 2, 2000), nullptr);
    EXPECT_EQ(p.nearest("w", kit::Precision::f64, 2, 2, 2000), nullptr);
    EXPECT_TRUE(p.covers("v", kit::Precision::f32));
    EXPECT_FALSE(p.covers("w", kit::Precision::f64));
}

TEST(BcsrProfile, WriteThenParseGivesTheSameProfile) {
    kit::BcsrProfile p;
    p.device = "cuda: Test GPU";
    p.entries = {{"bcsr-2kernel", kit::Precision::f32, 4, 1, 14745600, 123.457},
                 {"bcsr", kit::Precision::f64, 1, 3, 14400, 0.5}};
    std::ostringstream out;

    p.write(out, "line one\nline two");
    std::istringstream in(out.str());
    const kit::BcsrProfile q = kit::BcsrProfile::parse(in, "round trip");

    EXPECT_EQ(q.device, p.device);
    ASSERT_EQ(q.entries.size(), 2u);
    EXPECT_EQ(q.entries[0].variant, "bcsr-2kernel");
    EXPECT_EQ(q.entries[0].r, 4);
    EXPECT_EQ(q.entries[0].nnz, 14745600);
    EXPECT_DOUBLE_EQ(q.entries[0].gflops, 123.457);
    EXPECT_NE(out.str().find("# line two\n"), std::string::npos);
}

TEST(BcsrProfile, ChainRecordsParseWriteAndPickTheLongest) {
    std::istringstream text(
        "chain bcsr-2kernel float 1 2 24576 8192 0.25\n"
        "chain bcsr-2kernel float 1 2 12288 4096 0.5\n"
        "chain bcsr-warp float 1 2 24576 8192 2\n");
    const kit::BcsrProfile p = kit::BcsrProfile::parse(text, "chains.txt");
    std::ostringstream out;
    p.write(out);
    std::istringstream in(out.str());
    const kit::BcsrProfile q = kit::BcsrProfile::parse(in, "round trip");

    ASSERT_EQ(p.chains.size(), 3u);
    const kit::ChainEntry* longest = p.chain_of("bcsr-2kernel", kit::Precision::f32, 1, 2);
    ASSERT_NE(longest, nullptr);
    EXPECT_EQ(longest->blocks, 8192) << "the record with the most blocks";
    EXPECT_NEAR(longest->seconds(), 2.0 * 24576 / 0.25e9, 1e-15) << "2 nnz / GFLOP/s";
    EXPECT_EQ(p.chain_of("bcsr-2kernel", kit::Precision::f64, 1, 2), nullptr);
    EXPECT_EQ(p.chain_of("bcsr-2kernel", kit::Precision::f32, 2, 1), nullptr);
    ASSERT_EQ(q.chains.size(), 3u);
    EXPECT_EQ(q.chains[2].variant, "bcsr-warp");
    EXPECT_EQ(q.chains[2].nnz, 24576);
    EXPECT_EQ(q.chains[2].blocks, 8192);
    EXPECT_DOUBLE_EQ(q.chains[2].gflops, 2.0);
}

TEST(BcsrProfile, ShippedDefaultCoversEveryVariantShapeAndPrecision) {
    const std::string path = KIT_BCSR_DEFAULT_PROFILE;  // the build's labs/05-bcsr/profile_default.txt

    const kit::BcsrProfile p = kit::BcsrProfile::read(path);

    for (const char* v : {"bcsr", "bcsr-2kernel", "bcsr-warp"})
        for (auto prec : {kit::Precision::f32, kit::Precision::f64})
            for (int r = 1; r <= 4; ++r)
                for (int c = 1; c <= 4; ++c)
                    EXPECT_NE(p.nearest(v, prec, r, c, 1e5), nullptr)
                        << v << " " << kit::to_string(prec) << " " << r << "x" << c;
}
