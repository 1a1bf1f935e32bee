// The DIA container: layout of the 4x4 example, pitch alignment, padding, round trip,
// and the refusals that keep a conversion from exhausting memory.
#include <gtest/gtest.h>

#include <string>

#include "formats/dia.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "model/matrix_stats.hpp"

using kit::CooMatrix;
using kit::Dia;
using kit::index_t;

namespace {

CooMatrix normalized(CooMatrix A) {
    A.normalize();
    return A;
}

// First row, first column and diagonal of an n x n matrix: every diagonal is occupied.
CooMatrix arrowhead(index_t n) {
    CooMatrix A;
    A.rows = A.cols = n;
    for (index_t i = 0; i < n; ++i) {
        A.add(i, i, 4.0);
        if (i > 0) {
            A.add(0, i, 1.0);
            A.add(i, 0, 1.0);
        }
    }
    return normalized(A);
}

// The message of the refusal that converting A throws ("" if it does not refuse).
std::string refusal(const CooMatrix& A, const kit::DiaLimits& limits = {}) {
    try {
        Dia<double>::from_coo(A, limits);
    } catch (const kit::ConversionRefused& e) {
        return e.what();
    }
    return "";
}

// A refusal must state what the conversion would need and the limit it exceeds.
void expect_states_the_figures(const CooMatrix& A, const std::string& msg) {
    const auto diagonals = kit::compute_stats(A).diagonals;
    const long long pitch = (A.rows + 31) / 32 * 32;
    for (const std::string& figure :
         {std::to_string(diagonals) + " diagonals", "pitch " + std::to_string(pitch),
          std::to_string(diagonals * pitch) + " slots", std::to_string(A.nnz()) + " nonzeros",
          "3 x nnz + 65536 = " + std::to_string(3 * A.nnz() + 65536)})
        EXPECT_NE(msg.find(figure), std::string::npos) << "missing '" << figure << "' in: " << msg;
}

}  // namespace

TEST(Dia, Example4x4HasOffsetsMinus2Zero1) {
    const CooMatrix A = normalized(kit::example4x4());

    const auto dia = Dia<float>::from_coo(A);

    EXPECT_EQ(dia.offsets, (std::vector<index_t>{-2, 0, 1}));
    EXPECT_EQ(dia.pitch, 32);
    ASSERT_EQ(dia.vals.size(), 3u * 32u);
    const float* d = dia.vals.data();
    EXPECT_EQ((std::vector<float>{d[2], d[3]}), (std::vector<float>{5, 6}));            // offset -2
    EXPECT_EQ((std::vector<float>(d + 32, d + 36)), (std::vector<float>{1, 2, 3, 4}));  // offset 0
    EXPECT_EQ((std::vector<float>(d + 64, d + 67)), (std::vector<float>{7, 8, 9}));     // offset 1
    EXPECT_DOUBLE_EQ(dia.fill(), 96.0 / 9.0);
}

TEST(Dia, PaddingIsMarkedAndHoldsZeros) {
    const auto dia = Dia<double>::from_coo(normalized(kit::example4x4()));

    // Column outside the matrix: rows 0 and 1 of offset -2, row 3 of offset 1.
    EXPECT_TRUE(dia.is_padding(0, 0));
    EXPECT_TRUE(dia.is_padding(0, 1));
    EXPECT_FALSE(dia.is_padding(0, 2));
    EXPECT_TRUE(dia.is_padding(2, 3));
    EXPECT_FALSE(dia.is_padding(2, 2));
    int padding = 0;
    for (index_t d = 0; d < dia.diagonals(); ++d)
        for (index_t r = 0; r < dia.pitch; ++r)
            if (dia.is_padding(d, r)) {
                ++padding;
                EXPECT_EQ(dia.vals[static_cast<std::size_t>(d) * dia.pitch + r], 0.0) << "slot " << d << "," << r;
            }
    EXPECT_EQ(padding, 3 * 32 - 9);  // rows 4..31 of every diagonal, plus the three above
}

TEST(Dia, PitchIsAMultipleOf32) {
    const auto rdb = Dia<double>::from_coo(kit::generate_rdb({}));  // rdb450
    const auto odd = Dia<double>::from_coo(normalized(kit::generate_stencil2d(33, 1)));
    kit::DiaLimits unaligned;
    unaligned.pitch_multiple = 1;

    EXPECT_EQ(rdb.diagonals(), 7);
    EXPECT_EQ(rdb.pitch, 480);
    EXPECT_EQ(odd.pitch, 64);
    EXPECT_EQ(Dia<double>::from_coo(normalized(kit::generate_stencil2d(33, 1)), unaligned).pitch, 33);
}

TEST(Dia, RoundTripThroughCooKeepsEveryEntry) {
    CooMatrix A = normalized(kit::generate_radius_grid(23, 19, 3));
    kit::randomize_values(A, 5);  // never exactly 0, so nothing is dropped as fill

    const CooMatrix B = Dia<double>::from_coo(A).to_coo();

    EXPECT_EQ(B.rows, A.rows);
    EXPECT_EQ(B.cols, A.cols);
    EXPECT_EQ(B.row_idx, A.row_idx);
    EXPECT_EQ(B.col_idx, A.col_idx);
    EXPECT_EQ(B.vals, A.vals);
}

TEST(Dia, RectangularMatricesKeepTheirDiagonals) {
    CooMatrix A;
    A.rows = 3;
    A.cols = 6;
    A.add(0, 5, 1.0);
    A.add(2, 0, 2.0);
    A.add(1, 1, 3.0);
    A.normalize();

    const auto dia = Dia<double>::from_coo(A);

    EXPECT_EQ(dia.offsets, (std::vector<index_t>{-2, 0, 5}));
    EXPECT_EQ(dia.to_coo().vals, A.vals);
}

TEST(Dia, RefusesOneDenseRowStatingTheFigures) {
    const CooMatrix A = kit::generate_dense_rows(5000, 5, 1, 1);

    const std::string msg = refusal(A);

    ASSERT_NE(msg, "") << "a dense row occupies every diagonal: DIA must refuse";
    EXPECT_NE(msg.find("DIA conversion refused"), std::string::npos) << msg;
    expect_states_the_figures(A, msg);
}

TEST(Dia, RefusesAnArrowheadStatingTheFigures) {
    const CooMatrix A = arrowhead(3000);

    const std::string msg = refusal(A);

    ASSERT_NE(msg, "") << "an arrowhead occupies all 5999 diagonals: DIA must refuse";
    expect_states_the_figures(A, msg);
    EXPECT_NE(msg.find("5999 diagonals"), std::string::npos) << msg;
}

TEST(Dia, FloorKeepsSmallMatricesInAndTheLimitIsConfigurable) {
    const CooMatrix A = arrowhead(100);  // 199 diagonals x pitch 128 = 25472 slots, 298 nonzeros
    kit::DiaLimits strict;
    strict.floor_slots = 0;

    EXPECT_EQ(refusal(A), "") << "below the floor of 65536 slots, DIA accepts anything";
    EXPECT_NE(refusal(A, strict).find("25472 slots"), std::string::npos) << refusal(A, strict);
}

TEST(Dia, EmptyMatricesHaveNoDiagonals) {
    CooMatrix empty;
    CooMatrix no_entries;
    no_entries.rows = no_entries.cols = 5;

    const auto a = Dia<float>::from_coo(empty);
    const auto b = Dia<float>::from_coo(no_entries);

    EXPECT_EQ(a.diagonals(), 0);
    EXPECT_EQ(b.diagonals(), 0);
    EXPECT_EQ(b.pitch, 32);
    EXPECT_TRUE(b.vals.empty());
}
