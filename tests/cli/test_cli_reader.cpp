// `spmv-kit info` and `gen` on hostile input (issue #15), as a user runs them: tiny files
// that declare huge matrices, devices, directories and runaway generator sizes are refused
// with FILE:LINE (or the generator's figures) and exit 2 under a 1 GiB `ulimit -v`, never
// by running out of memory; compressed files and pipes are read.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "shell.hpp"

#ifndef KIT_SPMV_KIT_BIN
#error "KIT_SPMV_KIT_BIN must point at the reference spmv-kit binary"
#endif

namespace {

using Outcome = kit::testing::ShellOutcome;
using kit::testing::kAddressSanitizer;

/// Runs a shell command line (stdout and stderr together).
Outcome shell(const std::string& cmd) { return kit::testing::run_shell(cmd); }

/// spmv-kit under a 1 GiB address-space limit, as the "small memory bound".
Outcome spmv_kit_1gib(const std::string& args) {
    return shell("ulimit -v 1048576 && exec " + std::string(KIT_SPMV_KIT_BIN) + " " + args);
}

Outcome spmv_kit(const std::string& args) { return shell(std::string(KIT_SPMV_KIT_BIN) + " " + args); }

std::string temp_dir() {
    static const std::string dir = [] {
        char tmpl[] = "/tmp/kit-cli-reader-XXXXXX";
        return std::string(mkdtemp(tmpl));
    }();
    return dir;
}

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = temp_dir() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

const char* kExample =
    "%%MatrixMarket matrix coordinate real general\n"
    "4 4 9\n1 1 1\n1 2 7\n2 2 2\n2 3 8\n3 1 5\n3 3 3\n3 4 9\n4 2 6\n4 4 4\n";

}  // namespace

TEST(CliReader, TinyFilesDeclaringHugeMatricesAreRefusedWithinOneGiB) {
    if (kAddressSanitizer) GTEST_SKIP() << "ulimit -v cannot be combined with AddressSanitizer's shadow memory";
    // run needs x, y and the oracle's rows (info needs none of them: InfoOnHugeDeclaredSizes...)
    const struct {
        const char* name;
        const char* text;
        const char* expected;
    } cases[] = {
        {"tall.mtx", "%%MatrixMarket matrix coordinate real general\n1000000000 1 1\n1000000000 1 1\n",
         "tall.mtx:2: a 1000000000 x 1 matrix needs 82.0 GiB for its vectors"},
        {"square.mtx", "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 1\n1 1 1\n",
         "square.mtx:2: a 2147483647 x 2147483647 matrix needs 208.0 GiB for its vectors"},
        // issue 42: 92 bytes; they ended in "out of memory" and in a lab step's std::bad_alloc
        {"square30m.mtx",
         "%%MatrixMarket matrix coordinate real general\n30000000 30000000 2\n1 1 1\n30000000 30000000 2\n",
         "square30m.mtx:2: a 30000000 x 30000000 matrix needs 2.9 GiB for its vectors"},
        {"wide.mtx", "%%MatrixMarket matrix coordinate real general\n1 120000000 2\n1 1 1\n1 120000000 2\n",
         "wide.mtx:2: a 1 x 120000000 matrix needs 1.8 GiB for its vectors"},
    };
    for (const auto& c : cases) {
        const std::string path = write_temp(c.name, c.text);

        const Outcome o = spmv_kit_1gib("run " + path + " --format csr --backend cpu");

        EXPECT_EQ(o.status, 2) << c.name << ": " << o.output;
        EXPECT_NE(o.output.find(c.expected), std::string::npos) << c.name << ": " << o.output;
        EXPECT_NE(o.output.find("more than the 1.0 GiB this process may use"), std::string::npos) << o.output;
        EXPECT_LT(o.seconds, 10.0) << c.name;
        EXPECT_EQ(o.output.find("bad_alloc"), std::string::npos) << o.output;
        EXPECT_EQ(o.output.find("step"), std::string::npos) << o.output;  // never blamed on a lab step
    }
}

TEST(CliReader, InfoOnHugeDeclaredSizesCostsMemoryByEntriesNotRows) {
    if (kAddressSanitizer) GTEST_SKIP() << "ulimit -v cannot be combined with AddressSanitizer's shadow memory";
    // issue 42: info took 3.9 GB and 14.6 s on the first, and refused both for vectors it never allocates
    const std::string tall = write_temp("tall-info.mtx",
                                        "%%MatrixMarket matrix coordinate real general\n"
                                        "1000000000 1 3\n1 1 1\n500000000 1 2\n1000000000 1 3\n");
    const std::string wide = write_temp("wide-info.mtx",
                                        "%%MatrixMarket matrix coordinate real general\n"
                                        "1 1000000000 2\n1 1 1\n1 1000000000 2\n");

    const Outcome t = spmv_kit_1gib("info " + tall);
    const Outcome w = spmv_kit_1gib("info " + wide);

    EXPECT_EQ(t.status, 0) << t.output;
    EXPECT_NE(t.output.find("row length      min 0, max 1, mean 0.00, stddev 0.00, empty rows 999999997"),
              std::string::npos)
        << t.output;
    EXPECT_NE(t.output.find("diagonals       3 occupied"), std::string::npos) << t.output;
    EXPECT_LT(t.seconds, 10.0);
    EXPECT_EQ(w.status, 0) << w.output;
    EXPECT_NE(w.output.find("size            1 x 1000000000"), std::string::npos) << w.output;
}

TEST(CliReader, MaxMemoryCapsWhatAnyCommandMayAllocate) {
    const std::string path = write_temp("mid.mtx",
                                        "%%MatrixMarket matrix coordinate real general\n"
                                        "100000 100000 1\n1 1 1\n");

    const Outcome capped = spmv_kit("run " + path + " --format csr --backend cpu --max-memory 8M");
    const Outcome before = spmv_kit("--max-memory=8M run " + path + " --format csr --backend cpu");
    const Outcome roomy =
        spmv_kit("run " + path + " --format csr --backend cpu --repeats 0 --steady 0 --max-memory 1G");
    const Outcome bad = spmv_kit("info " + path + " --max-memory lots");

    EXPECT_EQ(capped.status, 2) << capped.output;
    EXPECT_NE(capped.output.find("mid.mtx:2: a 100000 x 100000 matrix needs 9.9 MiB for its vectors"),
              std::string::npos)
        << capped.output;
    EXPECT_NE(capped.output.find("more than the 8.0 MiB this process may use (--max-memory)"), std::string::npos)
        << capped.output;
    EXPECT_EQ(before.status, 2) << before.output;
    EXPECT_EQ(roomy.status, 0) << roomy.output;
    EXPECT_EQ(bad.status, 2) << bad.output;
    EXPECT_NE(bad.output.find("--max-memory 'lots': give a size such as 512M"), std::string::npos) << bad.output;
}

TEST(CliReader, LargeDeclaredSizeThatFitsCostsOnlyItsEntries) {
    if (kAddressSanitizer) GTEST_SKIP() << "ulimit -v cannot be combined with AddressSanitizer's shadow memory";
    // the vectors (0.6 GiB) fit the limit; the statistics must not add rows-sized arrays on top
    const std::string path = write_temp(
        "tall-fits.mtx", "%%MatrixMarket matrix coordinate real general\n80000000 1 2\n1 1 1\n80000000 1 2\n");

    const Outcome o = spmv_kit_1gib("info " + path);

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("size            80000000 x 1"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("empty rows 79999998"), std::string::npos) << o.output;
}

TEST(CliReader, DevicesDirectoriesAndRunawayGeneratorsAreRefusedWithinOneGiB) {
    // These refusals do not depend on the limit, so under AddressSanitizer (where ulimit -v
    // cannot be used) they still run, without it.
    const auto run = [](const std::string& args) { return kAddressSanitizer ? spmv_kit(args) : spmv_kit_1gib(args); };

    const Outcome zero = run("info /dev/zero");
    const Outcome dir = run("info " + temp_dir());
    const Outcome gen = run("gen random --rows 1073741824 --cols 1073741824 --per-row 1000000");

    EXPECT_EQ(zero.status, 2) << zero.output;
    EXPECT_NE(zero.output.find("/dev/zero:0: is a character device, not a Matrix Market file"), std::string::npos)
        << zero.output;
    EXPECT_EQ(dir.status, 2) << dir.output;
    EXPECT_NE(dir.output.find(temp_dir() + ":0: is a directory, not a Matrix Market file"), std::string::npos)
        << dir.output;
    EXPECT_EQ(gen.status, 2) << gen.output;
    EXPECT_NE(
        gen.output.find("generator: random 1073741824 x 1073741824 with 1000000 per row would have 1.07e+15 entries"),
        std::string::npos)
        << gen.output;
}

TEST(CliReader, MoreEntriesThanRowsTimesColumnsAreSummed) {
    const std::string path =
        write_temp("dup.mtx", "%%MatrixMarket matrix coordinate real general\n3 1 4\n1 1 1\n3 1 2\n2 1 1\n3 1 2\n");

    const Outcome o = spmv_kit("info " + path);

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("nonzeros        3 (file lists 4; duplicates summed: 1)"), std::string::npos) << o.output;
}

TEST(CliReader, GzipFileIsReadByContentNotName) {
    const std::string plain = write_temp("gz-source.mtx", kExample);
    const Outcome zipped = shell("gzip -c " + plain + " > " + temp_dir() + "/compressed.mtx");
    ASSERT_EQ(zipped.status, 0) << "gzip is needed to make the test file: " << zipped.output;

    const Outcome o = spmv_kit("info " + temp_dir() + "/compressed.mtx");

#if KIT_HAVE_ZLIB
    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("(coordinate real general, gzip)"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("nonzeros        9"), std::string::npos) << o.output;
#else
    EXPECT_EQ(o.status, 2) << o.output;
    EXPECT_NE(o.output.find("compressed.mtx:1: gzip-compressed input, but this build has no zlib"), std::string::npos)
        << o.output;
#endif
}

TEST(CliReader, PipeIsRead) {
    const std::string plain = write_temp("pipe-source.mtx", kExample);

    const Outcome o = shell("cat " + plain + " | " + std::string(KIT_SPMV_KIT_BIN) + " info /dev/stdin");

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("nonzeros        9"), std::string::npos) << o.output;
}

TEST(CliReader, SymmetricFileListingBothTrianglesWarnsOnStderr) {
    const std::string path =
        write_temp("both.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 3\n1 2 3\n");

    const Outcome o = spmv_kit("info " + path);

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("both.mtx:4: warning: 1 entry lies above the diagonal"), std::string::npos) << o.output;
    EXPECT_NE(o.output.find("summed twice"), std::string::npos) << o.output;
}

TEST(CliReader, IndentedCommentBeforeTheSizeLineIsAComment) {
    const std::string path =
        write_temp("indent.mtx", "%%MatrixMarket matrix coordinate real general\n   % note\n1 1 1\n1 1 5\n");

    const Outcome o = spmv_kit("info " + path);

    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("size            1 x 1"), std::string::npos) << o.output;
}
