// Issue 42: what a file declares is checked against the memory budget before anything is
// allocated (per row and column as the command needs, --max-memory), blank and comment lines
// skipped in bulk with the right line numbers, and block and diagonal counts without a hash set.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <utility>

#include "check/checked_run.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"
#include "io/memory_budget.hpp"
#include "mtx_text.hpp"
#include "model/matrix_stats.hpp"

using kit::CooMatrix;
using kit::count_t;
using kit::testing::parse_text;
using kit::testing::read_budget;
using kit::testing::read_error_of;

namespace {

constexpr count_t kGiB = count_t{1} << 30;

/// The options `spmv-kit run` reads with (x, y, the oracle's rows and the kernel's copies),
/// under the given budget.
kit::ReadOptions as_run(count_t budget) {
    kit::ReadOptions opt = kit::checked_run_read_options();
    opt.memory_budget = budget;
    return opt;
}

const std::string kBanner = "%%MatrixMarket matrix coordinate real general\n";

/// Restores the process-wide --max-memory cap when a test ends.
struct LimitGuard {
    count_t saved = kit::memory_limit();
    ~LimitGuard() { kit::set_memory_limit(saved); }
};

}  // namespace

TEST(MemoryBudget, TinyFileDeclaringHugeSquareIsRefusedOnItsSizeLineWithTheFigures) {
    const std::string text = kBanner + "30000000 30000000 2\n1 1 1\n30000000 30000000 2\n";

    const std::string message = read_error_of(text, as_run(kGiB));

    EXPECT_EQ(message.rfind("test.mtx:2: a 30000000 x 30000000 matrix needs 2.9 GiB for its vectors, the oracle's "
                            "answer and tolerances, and the kernel's copies alone (88 bytes per row and 16 per "
                            "column), more than the 1.0 GiB this process may use",
                            0),
              0u)
        << message;
    EXPECT_NE(message.find("--max-memory"), std::string::npos) << message;
}

TEST(MemoryBudget, WideRowIsRefusedByItsColumnsAndAcceptedWhenTheyFit) {
    const std::string text = kBanner + "1 120000000 2\n1 1 1\n1 120000000 2\n";

    const std::string refused = read_error_of(text, as_run(kGiB));
    const CooMatrix A = parse_text(text, nullptr, as_run(4 * kGiB));

    EXPECT_EQ(refused.rfind("test.mtx:2: a 1 x 120000000 matrix needs 1.8 GiB for its vectors, the oracle's answer", 0),
              0u)
        << refused;
    EXPECT_EQ(A.cols, 120000000);
    EXPECT_EQ(A.nnz(), 2);
}

TEST(MemoryBudget, ReaderThatNeedsNoVectorsAcceptsAnyDeclaredSize) {
    kit::ReadOptions opt;
    opt.memory_budget = count_t{1} << 20;  // 1 MiB: room for the entries, none for 10^9 rows
    opt.row_bytes = 0;
    opt.col_bytes = 0;

    const CooMatrix A = parse_text(kBanner + "1000000000 1 3\n1 1 1\n500000000 1 2\n1000000000 1 3\n", nullptr, opt);
    const kit::MatrixStats s = kit::compute_stats(A);

    EXPECT_EQ(A.rows, 1000000000);
    EXPECT_EQ(s.nnz, 3);
    EXPECT_EQ(s.empty_rows, 999999997);
    EXPECT_EQ(s.diagonals, 3);
}

TEST(MemoryBudget, MaxMemoryCapsTheBudgetAndSizesParse) {
    const LimitGuard guard;

    kit::set_memory_limit(64 << 20);
    const count_t capped = kit::memory_budget();
    const std::string source = kit::budget_source();
    kit::set_memory_limit(0);

    EXPECT_EQ(capped, 64 << 20);
    EXPECT_EQ(source, "(--max-memory)");
    EXPECT_GT(kit::memory_budget(), capped);
    EXPECT_EQ(kit::parse_memory_size("512M"), count_t{512} << 20);
    EXPECT_EQ(kit::parse_memory_size("1.5GiB"), count_t{3} << 29);
    EXPECT_EQ(kit::parse_memory_size("4096"), 4096);
    EXPECT_EQ(kit::parse_memory_size("2t"), count_t{2} << 40);
    EXPECT_THROW(kit::parse_memory_size("lots"), kit::Error);
    EXPECT_THROW(kit::parse_memory_size("4Q"), kit::Error);
    EXPECT_THROW(kit::parse_memory_size("-1G"), kit::Error);
    EXPECT_THROW(kit::parse_memory_size(""), kit::Error);
}

TEST(MemoryBudget, BytesAreFormattedInGibOrMib) {
    EXPECT_EQ(kit::format_bytes(3.0 * kGiB), "3.0 GiB");
    EXPECT_EQ(kit::format_bytes(12.5 * 1024 * 1024), "12.5 MiB");
}

// ---------------------------------------------------------------- blank and comment lines

TEST(BlankLines, RunsOfBlankAndCommentLinesAreSkippedWithTheRightLineNumbers) {
    std::string text = kBanner + "% a comment\n\n   \n\t% indented comment\r\n2 2 2\n";
    text += std::string(100000, '\n') + "%\n% x\n  \r\n";  // lines 7 .. 100009
    text += "1 1 1.5\n" + std::string(5000, '\n') + "2 2 x\n";

    const std::string message = read_error_of(text, as_run(kGiB));

    EXPECT_EQ(message, "test.mtx:105011: value 'x' is not a number") << message;
}

TEST(BlankLines, BlankAndCommentLinesBetweenEntriesReadTheSameMatrix) {
    const std::string plain = kBanner + "3 3 3\n1 1 1\n2 3 -2.5\n3 1 4\n";
    std::string padded = kBanner + "\n% c\n3 3 3\n";
    for (const char* entry : {"1 1 1\n", "2 3 -2.5\n", "3 1 4\n"})
        padded += std::string(70000, '\n') + "  % between\r\n\n" + std::string(300, ' ') + "\n" + entry;
    padded += std::string(1000, '\n');

    const CooMatrix a = parse_text(plain, nullptr, as_run(kGiB));
    const CooMatrix b = parse_text(padded, nullptr, as_run(kGiB));

    EXPECT_EQ(b.row_idx, a.row_idx);
    EXPECT_EQ(b.col_idx, a.col_idx);
    EXPECT_EQ(b.vals, a.vals);
    EXPECT_EQ(b.vals, (std::vector<double>{1, -2.5, 4}));
}

TEST(BlankLines, OverlongBlankOrCommentLineIsStillRefusedWithItsNumber) {
    kit::ReadOptions opt = as_run(kGiB);
    opt.max_line = 64;

    const std::string blanks = read_error_of(kBanner + "\n\n" + std::string(100, ' ') + "\n1 1 1\n1 1 1\n", opt);
    const std::string comment = read_error_of(kBanner + "1 1 1\n\n% " + std::string(100, 'c') + "\n1 1 1\n", opt);

    EXPECT_EQ(blanks.rfind("test.mtx:4: line is longer than 64 bytes", 0), 0u) << blanks;
    EXPECT_EQ(comment.rfind("test.mtx:4: line is longer than 64 bytes", 0), 0u) << comment;
}

// ---------------------------------------------------------------- blocks and diagonals

TEST(BlockCounts, MatchTheDistinctBlockCoordinatesForEveryShape) {
    std::mt19937 rng(42);
    CooMatrix A;
    A.rows = 97;
    A.cols = 89;
    for (int k = 0; k < 900; ++k)
        A.add(static_cast<kit::index_t>(rng() % 97), static_cast<kit::index_t>(rng() % 89), 1.0);
    A.normalize();

    for (int r = 1; r <= 12; ++r)
        for (int c = 1; c <= 12; ++c) {
            std::set<std::pair<int, int>> blocks;
            for (std::size_t k = 0; k < A.vals.size(); ++k) blocks.emplace(A.row_idx[k] / r, A.col_idx[k] / c);

            EXPECT_EQ(kit::nonempty_blocks(A, r, c), static_cast<count_t>(blocks.size())) << r << " x " << c;
        }
    EXPECT_THROW(kit::nonempty_blocks(A, 0, 2), kit::Error);
}

TEST(BlockCounts, DiagonalsOfAHugeSparseMatrixCostOnlyItsEntries) {
    CooMatrix A;
    A.rows = 2000000000;
    A.cols = 2000000000;
    A.add(0, 0, 1);
    A.add(5, 0, 1);
    A.add(1999999999, 1999999999, 1);
    A.add(7, 12, 1);
    A.normalize();

    EXPECT_EQ(kit::occupied_diagonals(A), 3);  // offsets 0, -5, +5
    // 4 x 4 blocks: (0,0), (1,0) for row 5, (1,3) for (7,12), (499999999,499999999)
    EXPECT_EQ(kit::nonempty_blocks(A, 4, 4), 4);
}
