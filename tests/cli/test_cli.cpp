// The spmv-kit command line as a user meets it: --help everywhere, FILE:LINE errors with a
// non-zero exit for malformed files, and a correct run on the 4x4 example.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "registry/variants.hpp"
#include "shell.hpp"

#ifndef KIT_SPMV_KIT_BIN
#error "KIT_SPMV_KIT_BIN must point at the reference spmv-kit binary"
#endif

namespace {

using Outcome = kit::testing::ShellOutcome;

Outcome spmv_kit(const std::string& args) {
    return kit::testing::run_shell(std::string(KIT_SPMV_KIT_BIN) + " " + args);
}

std::string write_temp(const std::string& name, const std::string& text) {
    static const std::string dir = [] {
        char tmpl[] = "/tmp/kit-cli-XXXXXX";
        return std::string(mkdtemp(tmpl));
    }();
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST(Cli, EverySubcommandHasHelp) {
    for (const char* cmd : {"", "info", "run", "table", "gen", "list", "tune-profile", "calibrate"}) {
        const Outcome o = spmv_kit(std::string(cmd) + " --help");

        EXPECT_EQ(o.status, 0) << cmd << ": " << o.output;
        EXPECT_NE(o.output.find("usage: spmv-kit"), std::string::npos) << cmd << ": " << o.output;
    }
}

TEST(Cli, UnknownCommandAndOptionAreErrorsThatPointAtHelp) {
    const Outcome cmd = spmv_kit("frobnicate");
    const Outcome opt = spmv_kit("info --frob x");

    EXPECT_EQ(cmd.status, 2);
    EXPECT_NE(cmd.output.find("unknown command 'frobnicate'"), std::string::npos) << cmd.output;
    EXPECT_EQ(opt.status, 2);
    EXPECT_NE(opt.output.find("unknown option '--frob'; see 'spmv-kit info --help'"), std::string::npos) << opt.output;
}

TEST(Cli, InfoReportsMalformedFilesAsFileLine) {
    const struct {
        const char* name;
        const char* text;
        const char* expected;
    } cases[] = {
        {"banner.mtx", "%%MatrixMarket matrix coordinate real gen\n1 1 1\n1 1 1\n", "banner.mtx:1: bad banner"},
        {"short.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n",
         "short.mtx:3: entry list is short"},
        {"long.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n",
         "long.mtx:4: entry list is long"},
        {"range.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 9 1\n",
         "range.mtx:3: column index 9 is out of range"},
        {"token.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 one\n",
         "token.mtx:3: value 'one' is not a number"},
        {"overflow.mtx", "%%MatrixMarket matrix coordinate real general\n99999999999 2 1\n",
         "overflow.mtx:2: size overflow"},
        {"complex.mtx", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 1\n",
         "complex.mtx:1: complex matrices are not supported"},
    };
    for (const auto& c : cases) {
        const std::string path = write_temp(c.name, c.text);

        const Outcome o = spmv_kit("info " + path);

        EXPECT_EQ(o.status, 2) << c.name << ": " << o.output;
        EXPECT_NE(o.output.find(c.expected), std::string::npos) << c.name << ": " << o.output;
    }
}

TEST(Cli, InfoSumsDuplicatesAndSaysSo) {
    const std::string path =
        write_temp("dup.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n1 1 2\n2 2 1\n");

    const Outcome o = spmv_kit("info " + path);

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("nonzeros        2 (file lists 3; duplicates summed: 1)"), std::string::npos) << o.output;
}

TEST(Cli, RunPrintsTheExercisesAnswerOnTheCpu) {
    const Outcome o = spmv_kit(std::string("run ") + KIT_MATRICES_DIR +
                               "/example4x4.mtx --format csr --backend cpu --precision float");

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("y          [16, 30, 53, 32]"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("within the bound-derived tolerance"), std::string::npos) << o.output;
}

TEST(Cli, RunRefusesAnUnknownFormat) {
    const Outcome o = spmv_kit(std::string("run ") + KIT_MATRICES_DIR + "/example4x4.mtx --format nosuch");

    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.output.find("no variant named 'nosuch'"), std::string::npos) << o.output;
}

TEST(Cli, GenWritesRdb450ByName) {
    const Outcome o = spmv_kit("gen rdb --name rdb450");

    EXPECT_EQ(o.status, 0);
    EXPECT_NE(o.output.find("\n450 450 2580\n1 1 -11.934\n"), std::string::npos) << o.output.substr(0, 400);
}

TEST(Cli, GenWritesABandWithItsCommandInTheComment) {
    const Outcome o = spmv_kit("gen band --n 5 --diagonals 2 --spacing 3");

    EXPECT_EQ(o.status, 0);
    EXPECT_NE(o.output.find("gen band --n 5 --diagonals 2 --spacing 3"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("\n5 5 7\n1 1 2\n2 2 2\n3 3 2\n4 1 -1\n4 4 2\n5 2 -1\n5 5 2\n"), std::string::npos)
        << o.output;
}

TEST(Cli, UnknownFormatSuggestsTheClosestName) {
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/example4x4.mtx";

    const Outcome upper = spmv_kit("run " + mtx + " --format CSR --repeats 0");
    const Outcome missing = spmv_kit("run " + mtx + " --repeats 0");

    EXPECT_EQ(upper.status, 2) << upper.output;
    EXPECT_NE(upper.output.find("did you mean 'csr'?"), std::string::npos) << upper.output;
    EXPECT_EQ(missing.status, 2) << missing.output;
    EXPECT_NE(missing.output.find("missing --format"), std::string::npos) << missing.output;
}

TEST(Cli, RunSaysAMissingFileBeforeAMissingGpu) {
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/no-such-matrix.mtx";

    const Outcome cuda = spmv_kit("run " + mtx + " --format csr-vector --backend cuda --repeats 0");
    const Outcome cpu = spmv_kit("run " + mtx + " --format csr --backend cpu --repeats 0");

    for (const Outcome& o : {cuda, cpu}) {
        EXPECT_EQ(o.status, 2) << o.output;
        EXPECT_NE(o.output.find("no-such-matrix.mtx: cannot open file"), std::string::npos) << o.output;
        EXPECT_EQ(o.output.find("SKIPPED"), std::string::npos) << o.output;
    }
}

TEST(Cli, RunReportsBothTimingModes) {
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/rdb450.mtx";

    const Outcome o = spmv_kit("run " + mtx + " --format csr --backend cpu --repeats 3 --steady 5");

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("cold       median"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("steady     "), std::string::npos) << o.output;
}

// Lab 08's model reaches the CLI through its hook: `info` prints every covered kernel's
// prediction and the pick, and `run --format auto` runs that pick (on a GPU) or says why not.
TEST(Cli, AVariantOnAnotherBackendSaysWhereItRuns) {
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/example4x4.mtx";

    const Outcome other = spmv_kit("run " + mtx + " --format coo-atomic --backend cpu --repeats 0");
    const Outcome automatic = spmv_kit("run " + mtx + " --format auto --backend cpu --repeats 0");

    EXPECT_EQ(other.status, 2) << other.output;
    // A build without CUDA knows it too, from the catalogue (cli/cuda_catalogue.hpp).
    EXPECT_NE(other.output.find("'coo-atomic' runs on cuda only"), std::string::npos) << other.output;
    EXPECT_EQ(other.output.find("did you mean 'coo-atomic'"), std::string::npos) << other.output;
    // --format auto on the CPU picks among the CPU's kernels by a simple rule and says so
    EXPECT_EQ(automatic.status, 0) << automatic.output;
    EXPECT_NE(automatic.output.find(" chosen for cpu by a simple rule: the fewest bytes"), std::string::npos)
        << automatic.output;
    EXPECT_NE(automatic.output.find(" on cpu, double"), std::string::npos) << automatic.output;
}

TEST(Cli, InfoPrintsTheFormatModelAndAutoRunsItsPick) {
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/rdb450.mtx";

    const Outcome info = spmv_kit("info " + mtx + " --precision float");
    const Outcome run = spmv_kit("run " + mtx + " --format auto --repeats 2 --steady 2");

    EXPECT_EQ(info.status, 0) << info.output;
    EXPECT_NE(info.output.find("format model    lab 08"), std::string::npos) << info.output;
    for (const char* kernel : {"coo-atomic", "csr-scalar", "csr-vector", "ell", "hyb", "dia-naive"})
        EXPECT_NE(info.output.find("\n                " + std::string(kernel) + " "), std::string::npos) << kernel;
    const std::size_t pick = info.output.find("pick            ");
    ASSERT_NE(pick, std::string::npos) << info.output;
    EXPECT_NE(info.output.compare(pick + 16, 4, "none"), 0) << info.output;
    EXPECT_NE(run.output.find(" chosen by the lab 08 model: predicted "), std::string::npos) << run.output;
    if (run.status == 0)
        EXPECT_NE(run.output.find("within the bound-derived tolerance"), std::string::npos) << run.output;
    else {
        EXPECT_EQ(run.status, 2) << run.output;
        // no GPU here, or no CUDA in this build (the sanitizer build): said, never run elsewhere
        EXPECT_TRUE(run.output.find("SKIPPED: no CUDA device found") != std::string::npos ||
                    run.output.find("SKIPPED: kit built without CUDA") != std::string::npos)
            << run.output;
    }
}

// Lab 05's tuner prints, under its table, the time model behind the pick: a profile with a
// launch cost of 1 us (dense runs of 1000 and 3000 entries in 2 and 4 us) and a chain of 100
// blocks taking 20 us past t0, so the 4x4 example's longest row (3 entries) costs 0.6 us.
TEST(Cli, BlockAutoPrintsTheTimeModelOfThePick) {
    const std::string profile = write_temp("bcsr_profile.txt",
                                           "device test\n"
                                           "dense bcsr double 1 1 1000 1\n"
                                           "dense bcsr double 1 1 3000 1.5\n"
                                           "panel bcsr double 1 1 4000 2 band 2.6666666666667\n"
                                           "chain bcsr double 1 1 300 100 0.028571428571429\n");
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/example4x4.mtx";

    const Outcome o = kit::testing::run_shell("KIT_BCSR_PROFILE=" + profile + " " + KIT_SPMV_KIT_BIN + " run " + mtx +
                                              " --format bcsr --block auto --repeats 2 --steady 2");

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("tuner      time model of bcsr 1x1: t0 1.000 us + max(block rows "), std::string::npos)
        << o.output;
    EXPECT_NE(o.output.find("longest block row of 3 blocks 0.600 us) = 1.600 us"), std::string::npos) << o.output;
}

TEST(Cli, LabToolsAreSubcommandsNamedInTheHelp) {
    const Outcome o = spmv_kit("--help");

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("  tune-profile --out FILE"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("(lab 05-bcsr)"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("  calibrate [--out FILE]"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("(lab 08-format-choice)"), std::string::npos) << o.output;
}

TEST(Cli, ListShowsTheTunablesEachVariantDeclares) {
    const Outcome o = spmv_kit("list");

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("tunable block_r in 1..4: "), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("tunable csr5_sigma in 1..32: "), std::string::npos) << o.output;
}

TEST(Cli, TunablesAreCheckedAgainstTheVariantsDeclaration) {
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/example4x4.mtx";

    const Outcome too_large = spmv_kit("run " + mtx + " --format bcsr --block 5x2");
    const Outcome not_read = spmv_kit("run " + mtx + " --format csr --backend cpu --set block_r=2");
    const Outcome malformed = spmv_kit("run " + mtx + " --format bcsr --set block_r");
    const Outcome given = spmv_kit("run " + mtx + " --format bcsr --set block_r=2,block_c=1 --repeats 0 --steady 0");

    EXPECT_EQ(too_large.status, 2) << too_large.output;
    EXPECT_NE(too_large.output.find("bcsr: block_r must be in 1..4"), std::string::npos) << too_large.output;
    EXPECT_EQ(not_read.status, 2) << not_read.output;
    EXPECT_NE(not_read.output.find("csr reads no tunable 'block_r' (it reads none)"), std::string::npos)
        << not_read.output;
    EXPECT_EQ(malformed.status, 2) << malformed.output;
    EXPECT_NE(malformed.output.find("--set takes NAME=INTEGER pairs"), std::string::npos) << malformed.output;
    EXPECT_EQ(given.status, 0) << given.output;
    EXPECT_NE(given.output.find("block 2x1 (given)"), std::string::npos) << given.output;
}

TEST(Cli, AnOpenClPlatformThatMatchesNothingSkipsWithTheReason) {
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/example4x4.mtx";

    const Outcome o = spmv_kit("run " + mtx + " --format csr-scalar --backend opencl --cl-platform no-such-platform");

    EXPECT_EQ(o.status, 2) << o.output;
    EXPECT_NE(o.output.find("SKIPPED"), std::string::npos) << o.output;
    // the platform named in the reason, unless this build has no OpenCL at all
    EXPECT_TRUE(o.output.find("no-such-platform") != std::string::npos ||
                o.output.find("built without OpenCL") != std::string::npos)
        << o.output;
}

// A misspelt kernel name is a typo on every machine: with --backend cuda and no GPU, it is
// named as such (with the near name), not reported as the GPU's absence.
TEST(Cli, MisspeltNameWithABackendIsATypoEvenWithoutThatBackend) {
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/example4x4.mtx";

    const Outcome typo = spmv_kit("run " + mtx + " --format csr-vecter --backend cuda --repeats 0");

    EXPECT_EQ(typo.status, 2) << typo.output;
    EXPECT_NE(typo.output.find("no variant named 'csr-vecter'; did you mean 'csr-vector'?"), std::string::npos)
        << typo.output;
}

// dia-naive is lab 03's CUDA kernel and lab 07's OpenCL kernel: without --backend the name
// means lab 03's, and where CUDA cannot run it is SKIPPED, never replaced by lab 07's work.
// A build without nvcc knows lab 03's kernel from the catalogue (cli/cuda_catalogue.hpp): the same holds there.
TEST(Cli, AnotherLabsKernelOfTheSameNameRunsOnlyWhenAskedFor) {
    const std::string mtx = std::string(KIT_MATRICES_DIR) + "/example4x4.mtx";
    const bool cuda_here = !kit::backend_unavailable(kit::Backend::cuda).has_value();

    const Outcome plain = spmv_kit("run " + mtx + " --format dia-naive --repeats 0");
    const Outcome asked = spmv_kit("run " + mtx + " --format dia-naive --backend opencl --repeats 0");

    if (cuda_here) {
        EXPECT_EQ(plain.status, 0) << plain.output;
        EXPECT_NE(plain.output.find("03-dia step"), std::string::npos) << plain.output;
    } else {
        EXPECT_EQ(plain.status, 2) << plain.output;
        EXPECT_NE(plain.output.find("SKIPPED"), std::string::npos) << plain.output;
        EXPECT_EQ(plain.output.find("07-dia-opencl step"), std::string::npos) << plain.output;
#if KIT_HAVE_OPENCL
        EXPECT_NE(plain.output.find("07-dia-opencl's kernel of that name runs with --backend opencl"),
                  std::string::npos)
            << plain.output;
#endif
    }
#if KIT_HAVE_OPENCL
    EXPECT_EQ(asked.status, 0) << asked.output;
    EXPECT_NE(asked.output.find("07-dia-opencl step"), std::string::npos) << asked.output;
#else
    EXPECT_EQ(asked.status, 2) << asked.output;
#endif
}

namespace {

/// The rows of `spmv-kit info FILE --predict-csv`: kernel -> column -> value.
std::map<std::string, std::map<std::string, std::string>> predicted_rows(const std::string& file) {
    const std::string csv = write_temp("predict.csv", "");
    const Outcome o = spmv_kit("info " + file + " --predict-csv " + csv);
    EXPECT_EQ(o.status, 0) << o.output;
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header;
    std::stringstream hs(line);
    for (std::string h; std::getline(hs, h, ',');) header.push_back(h);
    std::map<std::string, std::map<std::string, std::string>> rows;
    while (std::getline(in, line)) {
        std::stringstream ls(line);
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < header.size() && std::getline(ls, row[header[i]], ','); ++i) {
        }
        rows[row["kernel"]] = row;
    }
    return rows;
}

}  // namespace

TEST(Cli, InfoPredictsEveryCudaKernelOfTheKit) {
    // --format auto can pick any kernel the kit's model predicts, so it predicts every
    // registered CUDA SpMV kernel but lab 10's, which runs across ranks (its own model is lab 10's).
    const auto rows = predicted_rows(std::string(KIT_MATRICES_DIR) + "/rdb450.mtx");
    const Outcome list = spmv_kit("list");
    ASSERT_EQ(list.status, 0) << list.output;
    std::stringstream lines(list.output);
    int cuda = 0;
    for (std::string line; std::getline(lines, line);) {
        std::stringstream fields(line);
        std::string name, backend;
        fields >> name >> backend;
        if (backend != "cuda" || name == "dist-nccl") continue;
        ++cuda;
        EXPECT_EQ(rows.count(name), 1u) << name << " has no prediction";
    }
    if (cuda == 0) GTEST_SKIP() << "built without CUDA: no CUDA kernel registered";
}

TEST(Cli, InfoCountsEachKernelsLaunchesAndRounds) {
    // The 4x4 example: 9 entries, rows of at most 3, 3 diagonals.
    const auto rows = predicted_rows(std::string(KIT_MATRICES_DIR) + "/example4x4.mtx");
    const auto field = [&](const std::string& k, const std::string& col) { return rows.at(k).at(col); };
    // csr5: 9 entries fill no tile of 32 lanes x 4, so only the tail runs: one launch, 3 rounds.
    EXPECT_EQ(field("csr5", "launches"), "1");
    EXPECT_EQ(field("csr5", "rounds"), "3");
    // coo-segmented: one chunk of 32 entries per warp: an entry, then x.
    EXPECT_EQ(field("coo-segmented", "rounds"), "2");
    // csr-vector: a row offset, a column index and value, x, then y read for y += sum.
    EXPECT_EQ(field("csr-vector", "rounds"), "4");
    EXPECT_EQ(field("bcsr-2kernel", "launches"), "2");
    // dia-naive: an offset, x and y around its first diagonal (3 rounds); the loop, unrolled by
    // 4, runs 3 diagonals left over one round each, the first of them counted already: 3 + 2.
    EXPECT_EQ(field("dia-naive", "rounds"), "5");
}
