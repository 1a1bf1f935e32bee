// Matrix Market reader and writer: every accepted form, and every malformed input reported as FILE:LINE: reason.
#include <gtest/gtest.h>

#include <sstream>

#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"

using kit::CooMatrix;
using kit::InputError;
using kit::read_matrix_market;

namespace {

CooMatrix parse(const std::string& text, kit::MatrixMarketInfo* info = nullptr) {
    std::istringstream in(text);
    // A fixed memory budget (1 TiB), so that no outcome here depends on the machine's memory;
    // the budget's own refusals are tested in test_matrix_market_limits.cpp.
    kit::ReadOptions opt;
    opt.memory_budget = kit::count_t{1} << 40;
    return read_matrix_market(in, "test.mtx", info, opt);
}

/// The message of the InputError that parsing `text` raises ("" if none).
std::string error_of(const std::string& text) {
    try {
        parse(text);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(MatrixMarket, ReadsCoordinateRealGeneral) {
    const std::string text = "%%MatrixMarket matrix coordinate real general\n% comment\n2 3 2\n1 3 2.5\n2 1 -1e-3\n";

    const CooMatrix A = parse(text);

    EXPECT_EQ(A.rows, 2);
    EXPECT_EQ(A.cols, 3);
    ASSERT_EQ(A.nnz(), 2);
    EXPECT_EQ(A.row_idx[0], 0);
    EXPECT_EQ(A.col_idx[0], 2);
    EXPECT_EQ(A.vals[0], 2.5);
    EXPECT_EQ(A.vals[1], -1e-3);
}

TEST(MatrixMarket, ExpandsSymmetricAndSkewSymmetric) {
    const CooMatrix S = parse("%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 4\n3 1 2\n");
    const CooMatrix K = parse("%%MatrixMarket matrix coordinate integer skew-symmetric\n3 3 1\n3 1 2\n");

    ASSERT_EQ(S.nnz(), 3);  // (0,0), (0,2) mirrored, (2,0)
    EXPECT_EQ(S.row_idx[1], 0);
    EXPECT_EQ(S.col_idx[1], 2);
    EXPECT_EQ(S.vals[1], 2);
    ASSERT_EQ(K.nnz(), 2);
    EXPECT_EQ(K.vals[0], -2);  // (0,2) = -a(2,0)
    EXPECT_EQ(K.vals[1], 2);
}

TEST(MatrixMarket, ReadsPatternAndArray) {
    const CooMatrix P = parse("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 1\n2 2\n");
    const CooMatrix D = parse("%%MatrixMarket matrix array real general\n2 2\n1\n0\n3\n4\n");

    EXPECT_EQ(P.vals, (std::vector<double>{1.0, 1.0}));
    ASSERT_EQ(D.nnz(), 3);  // the zero is not stored
    EXPECT_EQ(D.row_idx, (std::vector<kit::index_t>{0, 0, 1}));
    EXPECT_EQ(D.col_idx, (std::vector<kit::index_t>{0, 1, 1}));
    EXPECT_EQ(D.vals, (std::vector<double>{1, 3, 4}));
}

TEST(MatrixMarket, SumsDuplicatesAndReportsThem) {
    kit::MatrixMarketInfo info;

    const CooMatrix A = parse("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.5\n2 2 1\n1 1 2\n", &info);

    ASSERT_EQ(A.nnz(), 2);
    EXPECT_EQ(A.vals[0], 3.5);
    EXPECT_EQ(info.duplicates_summed, 1);
}

TEST(MatrixMarket, RefusesComplexAndHermitian) {
    EXPECT_NE(
        error_of("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n").find("test.mtx:1: complex"),
        std::string::npos);
    EXPECT_NE(error_of("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n").find("test.mtx:1: hermitian"),
              std::string::npos);
}

struct Malformed {
    const char* what;
    const char* text;
    const char* expected;  // prefix FILE:LINE: and a word of the reason
};

class MalformedInput : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedInput, ReportsFileLineAndReason) {
    const Malformed& m = GetParam();

    const std::string message = error_of(m.text);

    EXPECT_NE(message.find(m.expected), std::string::npos) << m.what << ": got '" << message << "'";
}

INSTANTIATE_TEST_SUITE_P(
    MatrixMarket, MalformedInput,
    ::testing::Values(
        Malformed{"empty file", "", "test.mtx:0: empty file"},
        Malformed{"bad banner", "%%MatrixMarkt matrix coordinate real general\n1 1 1\n1 1 1\n",
                  "test.mtx:1: bad banner"},
        Malformed{"banner word count", "%%MatrixMarket matrix coordinate real\n", "test.mtx:1: bad banner"},
        Malformed{"vector object", "%%MatrixMarket vector coordinate real general\n", "test.mtx:1: bad banner"},
        Malformed{"missing size", "%%MatrixMarket matrix coordinate real general\n% only a comment\n",
                  "test.mtx:2: missing size line"},
        Malformed{"size fields", "%%MatrixMarket matrix coordinate real general\n2 2\n", "test.mtx:2: size line"},
        Malformed{"short list", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n",
                  "test.mtx:4: entry list is short"},
        Malformed{"long list", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n",
                  "test.mtx:4: entry list is long"},
        Malformed{"row out of range", "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n",
                  "test.mtx:3: row index 3 is out of range"},
        Malformed{"zero index", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 0 1\n",
                  "test.mtx:3: column index 0 is out of range"},
        Malformed{"non-numeric value", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 abc\n",
                  "test.mtx:3: value 'abc' is not a number"},
        Malformed{"non-numeric index", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1x 1 1\n",
                  "test.mtx:3: row index '1x' is not an integer"},
        Malformed{"non-finite value", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 nan\n",
                  "test.mtx:3: value 'nan' is not finite"},
        Malformed{"too many fields", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1 1\n",
                  "test.mtx:3: expected 3 fields"},
        Malformed{"integer field with fraction", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n",
                  "test.mtx:3: integer value '1.5'"},
        Malformed{"size overflow rows", "%%MatrixMarket matrix coordinate real general\n3000000000 2 1\n1 1 1\n",
                  "test.mtx:2: size overflow"},
        Malformed{"size overflow digits", "%%MatrixMarket matrix coordinate real general\n99999999999999999999 2 1\n",
                  "test.mtx:2: row count '99999999999999999999' is too large"},
        // More entries than rows x cols is legal since #15 (duplicates are summed first, see
        // DeclaredCountAboveRowsTimesColsIsReadAndSummed); what remains wrong here is the missing list.
        Malformed{"nnz beyond rows*cols, no entries", "%%MatrixMarket matrix coordinate real general\n2 2 5\n",
                  "test.mtx:2: entry list is short"},
        Malformed{"absurd nnz, short file",
                  "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1000000000000000\n1 1 1\n",
                  "test.mtx:3: entry list is short"},
        Malformed{"negative size", "%%MatrixMarket matrix coordinate real general\n-2 2 1\n",
                  "test.mtx:2: sizes must not be negative"},
        Malformed{"symmetric not square", "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n",
                  "test.mtx:2: symmetric matrix must be square"},
        Malformed{"skew diagonal", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n",
                  "test.mtx:3: skew-symmetric matrix has an entry on the diagonal"},
        Malformed{"array short", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n",
                  "test.mtx:4: entry list is short"}));

TEST(MatrixMarket, MissingFileSaysSo) {
    try {
        read_matrix_market("no/such/file.mtx");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("no/such/file.mtx:0: cannot open file"), std::string::npos);
    }
}

TEST(MatrixMarket, WriterRoundTripsWithShortDecimals) {
    CooMatrix A;
    A.rows = 2;
    A.cols = 2;
    A.add(0, 0, 4.096);
    A.add(1, 0, -11.934);
    A.add(1, 1, 0.1);
    std::ostringstream out;

    kit::write_matrix_market(out, A, "two\nlines");
    const CooMatrix B = parse(out.str());

    EXPECT_NE(out.str().find("\n1 1 4.096\n"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("% two\n% lines\n"), std::string::npos);
    EXPECT_EQ(B.row_idx, A.row_idx);
    EXPECT_EQ(B.col_idx, A.col_idx);
    EXPECT_EQ(B.vals, A.vals);
}
