// Matrix Market input a user can trust (issue #15): memory bounded by the file, files the
// peers read that the kit used to refuse, compressed input, input kinds, and the rules on
// duplicates and symmetric triangles with their warnings.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <new>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#if KIT_HAVE_ZLIB
#include <zlib.h>
#endif
#if KIT_HAVE_BZIP2
#include <bzlib.h>
#endif

#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"
#include "mtx_text.hpp"
#include "model/matrix_stats.hpp"
#include "shell.hpp"

using kit::CooMatrix;
using kit::count_t;
using kit::InputError;
using kit::testing::parse_text;
using kit::testing::read_budget;
using kit::testing::read_error_of;

namespace {

std::string error_of_path(const std::string& path) {
    try {
        kit::read_matrix_market(path, nullptr, read_budget());
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string temp_dir() {
    static const std::string dir = [] {
        char tmpl[] = "/tmp/kit-mm-XXXXXX";
        return std::string(mkdtemp(tmpl));
    }();
    return dir;
}

using kit::testing::kAddressSanitizer;

/// Runs `work` in a child process limited to `bytes` of address space and returns the
/// child's exit status: work's return value, 100 for kit::Error, 101 for std::bad_alloc,
/// 102 for any other exception. An allocation beyond the limit fails in the child, never
/// in the test runner.
int exit_status_within(count_t bytes, const std::function<int()>& work) {
    const pid_t pid = fork();
    if (pid == 0) {
        rlimit lim{static_cast<rlim_t>(bytes), static_cast<rlim_t>(bytes)};
        setrlimit(RLIMIT_AS, &lim);
        int code = 0;
        try {
            code = work();
        } catch (const kit::Error&) {
            code = 100;
        } catch (const std::bad_alloc&) {
            code = 101;
        } catch (...) {
            code = 102;
        }
        _exit(code);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

const char* kExample =
    "%%MatrixMarket matrix coordinate real general\n"
    "4 4 9\n1 1 1\n1 2 7\n2 2 2\n2 3 8\n3 1 5\n3 3 3\n3 4 9\n4 2 6\n4 4 4\n";

}  // namespace

// ---------------------------------------------------------------- duplicates and the size check

TEST(MatrixMarketRules, DeclaredCountAboveRowsTimesColsIsReadAndSummed) {
    // a 3 x 1 matrix listing 4 entries, (3,1) twice: legal, the duplicate is summed
    const std::string text = "%%MatrixMarket matrix coordinate real general\n3 1 4\n1 1 1\n3 1 2.5\n2 1 2\n3 1 0.5\n";
    kit::MatrixMarketInfo info;

    const CooMatrix A = parse_text(text, &info);

    ASSERT_EQ(A.nnz(), 3);
    EXPECT_EQ(A.vals[2], 3.0);
    EXPECT_EQ(info.entries_in_file, 4);
    EXPECT_EQ(info.duplicates_summed, 1);
    EXPECT_TRUE(info.warnings.empty());
}

// ---------------------------------------------------------------- symmetric triangles and pattern skew

TEST(MatrixMarketRules, LowerTriangleSymmetricHasNoWarning) {
    kit::MatrixMarketInfo info;

    parse_text("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n3 3 1\n", &info);

    EXPECT_TRUE(info.warnings.empty());
}

TEST(MatrixMarketRules, UpperTriangleSymmetricIsMirroredWithAWarning) {
    kit::MatrixMarketInfo info;

    const CooMatrix A = parse_text("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n3 3 1\n1 2 5\n", &info);

    ASSERT_EQ(A.nnz(), 3);
    EXPECT_EQ(A.vals[0], 5);  // (0,1)
    EXPECT_EQ(A.vals[1], 5);  // (1,0)
    ASSERT_EQ(info.warnings.size(), 1u);
    EXPECT_NE(info.warnings[0].find("test.mtx:4: warning: 1 entry lies above the diagonal"), std::string::npos)
        << info.warnings[0];
}

TEST(MatrixMarketRules, BothTrianglesListedWarnsThatPairsAreSummedTwice) {
    kit::MatrixMarketInfo info;

    const CooMatrix A =
        parse_text("%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 4\n2 1 3\n1 2 3\n", &info);

    ASSERT_EQ(A.nnz(), 3);
    EXPECT_EQ(A.vals[1], 6);  // (0,1): 3 mirrored from (2,1) plus 3 listed, as documented
    ASSERT_EQ(info.warnings.size(), 1u);
    EXPECT_NE(info.warnings[0].find("test.mtx:5: warning:"), std::string::npos) << info.warnings[0];
    EXPECT_NE(info.warnings[0].find("summed twice"), std::string::npos) << info.warnings[0];
    EXPECT_NE(info.warnings[0].find("declare it 'general'"), std::string::npos) << info.warnings[0];
}

TEST(MatrixMarketRules, PatternSkewSymmetricIsRefused) {
    const std::string message = read_error_of("%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 1\n2 1\n");

    EXPECT_NE(message.find("test.mtx:1: bad banner: 'pattern skew-symmetric' is not a valid combination"),
              std::string::npos)
        << message;
}

// ---------------------------------------------------------------- lines, comments, numbers

TEST(MatrixMarketRules, IndentedCommentIsAComment) {
    const CooMatrix A = parse_text(
        "  %%MatrixMarket matrix coordinate real general\n   % indented comment\n\t%tab\n2 2 1\n  % between\n1 1 3\n");

    ASSERT_EQ(A.nnz(), 1);
    EXPECT_EQ(A.vals[0], 3);
}

TEST(MatrixMarketRules, PlusSignsAndSubnormalsAreRead) {
    const CooMatrix A =
        parse_text("%%MatrixMarket matrix coordinate real general\n+2 2 3\n1 1 +1.5E+00\n1 2 1e-400\n2 2 -4.9e-324\n");

    ASSERT_EQ(A.nnz(), 3);
    EXPECT_EQ(A.rows, 2);
    EXPECT_EQ(A.vals[0], 1.5);
    EXPECT_EQ(A.vals[1], 0.0);
    EXPECT_LT(A.vals[2], 0.0);
}

TEST(MatrixMarketRules, OverflowingValueIsRefused) {
    const std::string message = read_error_of("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1e400\n");

    EXPECT_NE(message.find("test.mtx:3: value '1e400' is beyond the range of double"), std::string::npos) << message;
}

TEST(MatrixMarketRules, OverlongLineIsRefusedWithItsNumber) {
    kit::ReadOptions opt = read_budget();
    opt.max_line = 64;
    const std::string text = "%%MatrixMarket matrix coordinate real general\n% " + std::string(100, 'x') + "\n1 1 0\n";

    const std::string message = read_error_of(text, opt);
    const std::string no_newline = read_error_of(std::string(5000000, '\0'));

    EXPECT_NE(message.find("test.mtx:2: line is longer than 64 bytes"), std::string::npos) << message;
    EXPECT_NE(no_newline.find("test.mtx:1: line is longer than 1048576 bytes"), std::string::npos) << no_newline;
}

// ---------------------------------------------------------------- memory bounded by the file

TEST(MatrixMarketLimits, SizeLineWhoseVectorsCannotFitIsRefusedUpFront) {
    const std::string text = "%%MatrixMarket matrix coordinate real general\n1000000000 1 1\n1 1 1\n";

    const std::string message = read_error_of(text, read_budget(count_t{1} << 30));

    EXPECT_NE(message.find("test.mtx:2: a 1000000000 x 1 matrix needs 7.5 GiB for its vectors x and y alone"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("more than the 1.0 GiB this process may use"), std::string::npos) << message;
}

TEST(MatrixMarketLimits, EntriesBeyondTheBudgetAreRefusedWhileReading) {
    std::string text = "%%MatrixMarket matrix coordinate real general\n2 2 20\n";
    for (int k = 0; k < 20; ++k) text += "1 1 1\n";

    // room for the vectors and 10 entries
    const std::string message = read_error_of(text, read_budget(10 * kit::kBytesPerEntryPeak));

    EXPECT_NE(message.find("test.mtx:13: the entries read so far (10) need"), std::string::npos) << message;
}

TEST(MatrixMarketLimits, HugeDeclaredSizeWithFewEntriesCostsMemoryOfTheEntries) {
    if (kAddressSanitizer) GTEST_SKIP() << "an address-space limit cannot be combined with AddressSanitizer";
    const std::string text =
        "%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 2\n1 1 1\n2147483647 2147483647 2\n";

    // the vectors alone would be 32 GiB; reading and the statistics must not come near that
    const int status = exit_status_within(count_t{1} << 30, [&] {
        const CooMatrix A = parse_text(text);
        const kit::MatrixStats s = kit::compute_stats(A);
        if (s.diagonals != 1 || s.empty_rows != 2147483645 || s.max_row != 1 || s.min_row != 0) return 1;
        return kit::bcsr_fill_ratio(A, 4, 4) == 16.0 ? 0 : 2;
    });

    EXPECT_EQ(status, 0) << "1, 2: wrong figures; 100: kit::Error; 101: out of memory under a 1 GiB limit";
}

TEST(MatrixMarketLimits, StatisticsMatchTheDenseCountsOnARectangle) {
    // 3 x 5 with an empty row: row lengths 2, 0, 3; diagonals -0,+3, -2+0,-2+2,-2+4 -> {0,3,-2,2}
    CooMatrix A;
    A.rows = 3;
    A.cols = 5;
    A.add(0, 0, 1);
    A.add(0, 3, 1);
    A.add(2, 0, 1);
    A.add(2, 2, 1);
    A.add(2, 4, 1);

    const kit::MatrixStats s = kit::compute_stats(A);

    EXPECT_EQ(s.min_row, 0);
    EXPECT_EQ(s.max_row, 3);
    EXPECT_EQ(s.empty_rows, 1);
    EXPECT_DOUBLE_EQ(s.mean_row, 5.0 / 3);
    EXPECT_DOUBLE_EQ(
        s.stddev_row,
        std::sqrt(((2 - 5.0 / 3) * (2 - 5.0 / 3) + (5.0 / 3) * (5.0 / 3) + (3 - 5.0 / 3) * (3 - 5.0 / 3)) / 3));
    EXPECT_EQ(s.diagonals, 4);
    // 2 x 2 blocks: rows 0-1 -> block cols 0, 1; rows 2-3 -> block cols 0, 1, 2: 5 blocks of 4 slots
    EXPECT_DOUBLE_EQ(s.bcsr_fill[1][1], 5.0 * 4 / 5);
}

TEST(MatrixMarketLimits, GeneratorsRefuseBeforeAllocating) {
    if (kAddressSanitizer) GTEST_SKIP() << "an address-space limit cannot be combined with AddressSanitizer";
    std::string message;

    // 2^30 rows of 10^6 entries: refused with the generator's message, not by bad_alloc
    const int status = exit_status_within(count_t{1} << 30, [] {
        try {
            kit::generate_random(1 << 30, 1 << 30, 1000000, 1);
        } catch (const kit::Error& e) {
            return std::string(e.what()).find("generator: random 1073741824 x 1073741824") == 0 ? 7 : 1;
        }
        return 0;
    });
    try {
        kit::generate_stencil2d(1 << 15, 1 << 15);
    } catch (const kit::Error& e) {
        message = e.what();
    }

    EXPECT_EQ(status, 7) << "0: generated; 1: another message; 101: out of memory";
    EXPECT_NE(message.find(
                  "generator: stencil2d 32768 x 32768 would have 5.37e+09 entries, more than the kit's 32-bit limit"),
              std::string::npos)
        << message;
}

// ---------------------------------------------------------------- input kinds

TEST(MatrixMarketInputs, DirectoryAndDeviceAreRefusedForWhatTheyAre) {
    const std::string dir = error_of_path(temp_dir());
    const std::string dev = error_of_path("/dev/zero");

    EXPECT_NE(dir.find(temp_dir() + ":0: is a directory, not a Matrix Market file"), std::string::npos) << dir;
    EXPECT_NE(dev.find("/dev/zero:0: is a character device"), std::string::npos) << dev;
}

TEST(MatrixMarketInputs, PipeIsRead) {
    const std::string fifo = temp_dir() + "/pipe.mtx";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::thread writer([&] { std::ofstream(fifo) << kExample; });

    CooMatrix A;
    std::string error;
    try {
        A = kit::read_matrix_market(fifo, nullptr, read_budget());
    } catch (const std::exception& e) {
        error = e.what();
    }
    writer.join();

    EXPECT_EQ(error, "");
    EXPECT_EQ(A.nnz(), 9);
}

TEST(MatrixMarketInputs, MissingFileSaysWhy) {
    const std::string message = error_of_path("no/such/dir/m.mtx");

    EXPECT_NE(message.find("no/such/dir/m.mtx:0: cannot open file: No such file or directory"), std::string::npos)
        << message;
}

// ---------------------------------------------------------------- compressed input, recognised by content

#if KIT_HAVE_ZLIB
namespace {
std::string gzip(const std::string& text) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, text.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(&out[0]);
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}
}  // namespace

TEST(MatrixMarketInputs, GzipIsReadWhateverTheName) {
    const std::string path = temp_dir() + "/plain-name.mtx";
    std::ofstream(path, std::ios::binary) << gzip(kExample);
    kit::MatrixMarketInfo info;

    const CooMatrix A = kit::read_matrix_market(path, &info, read_budget());

    EXPECT_EQ(info.compression, "gzip");
    ASSERT_EQ(A.nnz(), 9);
    EXPECT_EQ(A.vals[8], 4);
}

TEST(MatrixMarketInputs, ConcatenatedGzipMembersReadAsOneFile) {
    const std::string text(kExample);
    const std::size_t cut = text.find("3 1 5");

    const CooMatrix A = parse_text(gzip(text.substr(0, cut)) + gzip(text.substr(cut)));

    EXPECT_EQ(A.nnz(), 9);
}

TEST(MatrixMarketInputs, TruncatedOrCorruptGzipNamesTheLine) {
    const std::string gz = gzip(kExample);
    std::string corrupt = gz;
    corrupt[gz.size() / 2] ^= 0x55;

    const std::string truncated = read_error_of(gz.substr(0, gz.size() - 10));
    const std::string damaged = read_error_of(corrupt);

    EXPECT_NE(truncated.find("test.mtx:"), std::string::npos) << truncated;
    EXPECT_NE(truncated.find("gzip data ends early"), std::string::npos) << truncated;
    EXPECT_NE(damaged.find("gzip data is corrupt"), std::string::npos) << damaged;
}
#else
TEST(MatrixMarketInputs, GzipWithoutZlibSaysWhatToInstall) {
    const std::string message = read_error_of(std::string("\x1f\x8b\x08\x00", 4) + "rest");

    EXPECT_NE(message.find("test.mtx:1: gzip-compressed input, but this build has no zlib: install zlib1g-dev"),
              std::string::npos)
        << message;
}
#endif

#if KIT_HAVE_BZIP2
TEST(MatrixMarketInputs, Bzip2IsRead) {
    std::string text(kExample), out(text.size() * 2 + 600, '\0');
    unsigned out_len = static_cast<unsigned>(out.size());
    ASSERT_EQ(BZ2_bzBuffToBuffCompress(&out[0], &out_len, &text[0], static_cast<unsigned>(text.size()), 9, 0, 0),
              BZ_OK);
    out.resize(out_len);
    kit::MatrixMarketInfo info;

    const CooMatrix A = parse_text(out, &info);

    EXPECT_EQ(info.compression, "bzip2");
    EXPECT_EQ(A.nnz(), 9);
}
#endif

TEST(MatrixMarketInputs, OtherCompressionsSayHowToDecompress) {
    const std::string xz =
        read_error_of(std::string("\xfd"
                                  "7zXZ\0rest",
                                  10));

    EXPECT_NE(xz.find("test.mtx:1: xz-compressed input: decompress it first"), std::string::npos) << xz;
}

// ---------------------------------------------------------------- the writer reads back

TEST(MatrixMarketRules, WrittenRandomMatrixReadsBackExactly) {
    const CooMatrix A = kit::generate_random(300, 200, 7, 42);
    std::ostringstream out;
    kit::write_matrix_market(out, A);

    const CooMatrix B = parse_text(out.str());

    EXPECT_EQ(B.row_idx, A.row_idx);
    EXPECT_EQ(B.col_idx, A.col_idx);
    EXPECT_EQ(B.vals, A.vals);
}

TEST(MatrixMarketRules, NormalizeSortsShuffledEntriesAndSumsInFileOrder) {
    CooMatrix A;
    A.rows = 5000;
    A.cols = 70000;
    // reverse order, with each position listed twice: the radix path, not the sorted fast path
    for (int k = 999; k >= 0; --k) A.add(k % 5000, (k * 7919) % 70000, k + 0.25);
    for (int k = 999; k >= 0; --k) A.add(k % 5000, (k * 7919) % 70000, 1e-17);

    const count_t merged = A.normalize();

    EXPECT_EQ(merged, 1000);
    EXPECT_TRUE(A.is_normalized());
    ASSERT_EQ(A.nnz(), 1000);
    EXPECT_EQ(A.vals[0], 0.25 + 1e-17);  // file order: 0.25 first, then the tiny one
}

TEST(MatrixMarketRules, LongDigitStringsInIndicesAreReportedNotOverflowed) {
    // found by the fuzz target: a 19-digit index overflowed the fast path's accumulator
    const std::string nineteen =
        read_error_of("%%MatrixMarket matrix coordinate real general\n2 2 1\n1511111111111111111 1 1\n");
    const std::string twenty =
        read_error_of("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 15111111111111111111 1\n");

    EXPECT_NE(nineteen.find("test.mtx:3: row index 1511111111111111111 is out of range 1..2"), std::string::npos)
        << nineteen;
    EXPECT_NE(twenty.find("test.mtx:3: column index '15111111111111111111' is too large"), std::string::npos) << twenty;
}
