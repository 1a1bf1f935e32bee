// The CSR5 conversion: sigma, tile_ptr, tile_desc and the transposed layout, checked by hand
// on the 4x4 example (the header's drawing) and on lab 06's 8x8 example of the TU Delft handout.
// Not graded (test_06-csr5_kit): the container is given code; it sits beside the lab that draws its example.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "csr5_example.hpp"
#include "formats/csr5.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"

using kit::CooMatrix;
using kit::Csr5;
using kit::index_t;

namespace {

Csr5<double> convert(CooMatrix A, int omega, int sigma) {
    A.normalize();
    return Csr5<double>::from_coo(A, {omega, sigma});
}

std::vector<std::uint32_t> bit_flags(const Csr5<double>& m, index_t tile) {
    std::vector<std::uint32_t> out;
    for (int lane = 0; lane < m.omega; ++lane) out.push_back(kit::csr5_bit_flag(m.tile_desc[tile * m.omega + lane]));
    return out;
}

std::vector<int> y_offsets(const Csr5<double>& m, index_t tile) {
    std::vector<int> out;
    for (int lane = 0; lane < m.omega; ++lane) out.push_back(kit::csr5_y_offset(m.tile_desc[tile * m.omega + lane]));
    return out;
}

std::vector<int> seg_offsets(const Csr5<double>& m, index_t tile) {
    std::vector<int> out;
    for (int lane = 0; lane < m.omega; ++lane) out.push_back(kit::csr5_seg_offset(m.tile_desc[tile * m.omega + lane]));
    return out;
}

}  // namespace

TEST(Csr5, SigmaFollowsTheBoundsOfNvidiaGpus) {
    EXPECT_EQ(kit::csr5_sigma(0, 0), 4);         // empty matrix: r
    EXPECT_EQ(kit::csr5_sigma(9, 4), 4);         // 4x4 example: 2 per row <= r
    EXPECT_EQ(kit::csr5_sigma(2580, 450), 5);    // rdb450: 5 per row, between r and s
    EXPECT_EQ(kit::csr5_sigma(3200, 100), 32);   // 32 per row = s
    EXPECT_EQ(kit::csr5_sigma(25600, 100), 32);  // 256 per row = t: still s
    EXPECT_EQ(kit::csr5_sigma(25700, 100), 4);   // 257 per row > t: u
}

TEST(Csr5, Example4x4MatchesTheHeaderDrawing) {
    const auto m = convert(kit::example4x4(), 2, 2);

    EXPECT_EQ(m.tiles(), 3);
    EXPECT_EQ(m.full_tiles(), 2);
    EXPECT_EQ(m.row_ptr, (std::vector<index_t>{0, 2, 4, 7, 9}));
    EXPECT_EQ(m.tile_ptr, (std::vector<std::uint32_t>{0, 2, 3, 4}));
    EXPECT_EQ(m.col_idx, (std::vector<index_t>{0, 1, 1, 2, 0, 3, 2, 1, 3}));
    EXPECT_EQ(m.vals, (std::vector<double>{1, 2, 7, 8, 5, 9, 3, 6, 4}));
    EXPECT_EQ(m.tile_desc, (std::vector<std::uint64_t>{0x1, 0x0000000100000001ull, 0x1, 0x0000000100000002ull}));
    EXPECT_EQ(m.tail_row_begin, 3);
    EXPECT_EQ(m.tail_row_end, 4);
}

// The 8x8 matrix is built to match the facts the handout states (34 entries; with omega =
// sigma = 4, two complete tiles of 16 and a tail of 2; tile 1 starts in row 4).
TEST(Csr5, Example8x8HasTheTilePointersOfTheHandout) {
    const auto m = convert(kit::csr5_example8x8(), 4, 4);

    EXPECT_EQ(m.nnz(), 34);
    EXPECT_EQ(m.tiles(), 3);  // p = ceil(34 / 16)
    EXPECT_EQ(m.full_tiles(), 2);
    EXPECT_EQ(m.tile_ptr, (std::vector<std::uint32_t>{0, 4, 7, 8}));  // rows of entries 0, 16, 32; then rows
    EXPECT_EQ(m.tail_row_begin, 7);
    EXPECT_EQ(m.tail_row_end, 8);
}

TEST(Csr5, Example8x8DescriptorsByHand) {
    const auto m = convert(kit::csr5_example8x8(), 4, 4);

    // Tile 0 = entries 0..15. Lane i holds entries 4i..4i+3, bit j = entry 4i+j starts a segment.
    // lane 0: rows 0 0 0 1 -> j0 (tile start, row 0), j3 (row 1)   lane 1: rows 1 1 1 1 -> none
    // lane 2: rows 2 2 3 3 -> j0, j2                                lane 3: rows 3 3 4 4 -> j2
    EXPECT_EQ(bit_flags(m, 0), (std::vector<std::uint32_t>{0b1001, 0b0000, 0b0101, 0b0100}));
    EXPECT_EQ(y_offsets(m, 0), (std::vector<int>{0, 2, 2, 4}));    // segments started in earlier lanes
    EXPECT_EQ(seg_offsets(m, 0), (std::vector<int>{1, 0, 0, 0}));  // lane 1 starts nothing
    // Tile 1 = entries 16..31. lane 0: row 4 continues (j0 is set as the tile start: the carry)
    // lane 1: rows 5 5 6 6 -> j0, j2   lane 2: row 6 -> none   lane 3: rows 6 6 7 7 -> j2
    EXPECT_EQ(bit_flags(m, 1), (std::vector<std::uint32_t>{0b0001, 0b0101, 0b0000, 0b0100}));
    EXPECT_EQ(y_offsets(m, 1), (std::vector<int>{0, 1, 3, 3}));
    EXPECT_EQ(seg_offsets(m, 1), (std::vector<int>{0, 1, 0, 0}));
    EXPECT_EQ(m.empty_offset_ptr, (std::vector<index_t>{0, 0, 0}));  // rows are consecutive: no lists
}

TEST(Csr5, Example8x8TransposesCompleteTilesOnly) {
    const auto m = convert(kit::csr5_example8x8(), 4, 4);

    // Values are 1..34 in CSR order, so the stored order shows the transposition.
    const std::vector<double> expected{1,  5,  9,  13, 2,  6,  10, 14, 3,  7,  11, 15, 4,  8,  12, 16, 17,
                                       21, 25, 29, 18, 22, 26, 30, 19, 23, 27, 31, 20, 24, 28, 32, 33, 34};
    EXPECT_EQ(m.vals, expected);
    EXPECT_EQ(std::vector<index_t>(m.col_idx.begin(), m.col_idx.begin() + 16),
              (std::vector<index_t>{0, 1, 2, 4, 3, 2, 5, 6, 6, 4, 1, 0, 0, 7, 3, 2}));
}

TEST(Csr5, EmptyRowsInsideAndAcrossTilesSetTheFlagAndEmptyOffset) {
    // Rows 0 (3 entries), 2 (2) and 5 (3); rows 1, 3, 4 are empty. omega = sigma = 2.
    CooMatrix A;
    A.rows = A.cols = 6;
    for (index_t c : {0, 1, 2}) A.add(0, c, 1.0);
    for (index_t c : {3, 4}) A.add(2, c, 1.0);
    for (index_t c : {0, 3, 5}) A.add(5, c, 1.0);

    const auto m = convert(A, 2, 2);

    // Tile 0: entries 0..3, rows 0 0 | 0 2; segments rows 0 and 2; row 1 is empty.
    // Tile 1: entries 4..7, rows 2 5 | 5 5; segments rows 2 (carry) and 5; rows 3, 4 are empty.
    EXPECT_EQ(m.tile_ptr, (std::vector<std::uint32_t>{0 | kit::kCsr5EmptyRowsFlag, 2 | kit::kCsr5EmptyRowsFlag, 6}));
    EXPECT_EQ(kit::csr5_tile_row(m.tile_ptr[1]), 2);
    EXPECT_TRUE(kit::csr5_tile_has_empty_rows(m.tile_ptr[0]));
    EXPECT_EQ(m.empty_offset_ptr, (std::vector<index_t>{0, 2, 4}));
    EXPECT_EQ(m.empty_offset, (std::vector<index_t>{0, 2, 0, 3}));
    EXPECT_EQ(bit_flags(m, 1), (std::vector<std::uint32_t>{0b11, 0b00}));
    EXPECT_EQ(m.tail_row_begin, m.tail_row_end);  // nnz = 8 is a multiple of the tile: no tail
}

TEST(Csr5, ConversionKeepsTheCallersCsrAndInvertsExactly) {
    CooMatrix A = kit::generate_power_law(300, 200, 1.0, 5);
    A.normalize();
    const auto csr = kit::Csr<double>::from_coo(A);
    const auto before = csr.vals;

    for (int omega : {1, 3, 4, 32})
        for (int sigma : {1, 4, 7, 32}) {
            const auto m = Csr5<double>::from_csr(csr, {omega, sigma});
            const auto back = m.to_csr();

            EXPECT_EQ(back.col_idx, csr.col_idx) << "omega " << omega << " sigma " << sigma;
            EXPECT_EQ(back.vals, csr.vals) << "omega " << omega << " sigma " << sigma;
            EXPECT_EQ(m.to_coo().row_idx, A.row_idx);
        }
    EXPECT_EQ(csr.vals, before);
}

TEST(Csr5, EmptyMatrixHasOnlyTheEndPointer) {
    CooMatrix A;
    A.rows = 3;
    A.cols = 2;

    const auto m = convert(A, 32, 0);

    EXPECT_EQ(m.tiles(), 0);
    EXPECT_EQ(m.full_tiles(), 0);
    EXPECT_EQ(m.tile_ptr, (std::vector<std::uint32_t>{3}));
    EXPECT_EQ(m.tail_row_begin, m.tail_row_end);
}

TEST(Csr5, RefusesTileShapesTheDescriptorCannotHold) {
    const CooMatrix A = kit::example4x4();

    EXPECT_THROW(convert(A, 2, 33), kit::Error);    // bit_flag has 32 bits
    EXPECT_THROW(convert(A, 2048, 4), kit::Error);  // y_offset and seg_offset have 16 bits
    EXPECT_THROW(convert(A, -1, 4), kit::Error);
}

// The GPU kernel loads only the bit_flags. It recomputes seg_offset with csr5_seg_offset_of
// from the lanes that start a segment (a ballot), y_offset as the running count of flags in
// the lanes before (a scan), and gives a tile that begins in the next tile's first row the
// carry's flag alone. All three must agree with what the conversion stores.
TEST(Csr5, DescriptorOffsetsFollowFromTheBitFlagsAsTheGpuDerivesThem) {
    CooMatrix holes;  // every third row empty, and the run of rows 100..139
    holes.rows = holes.cols = 300;
    for (index_t i = 0; i < holes.rows; ++i) {
        if (i % 3 == 0 || (i >= 100 && i < 140)) continue;
        for (index_t k = 0; k <= (i * 7) % 5; ++k) holes.add(i, (i * 13 + k * 29) % holes.cols, 1.0);
    }
    const std::vector<CooMatrix> matrices = {kit::csr5_example8x8(), kit::generate_power_law(3000, 900, 1.0, 3),
                                             kit::generate_stencil2d(20, 20), holes};
    const std::vector<kit::Csr5Params> shapes = {{1, 1}, {2, 3}, {4, 4}, {8, 2}, {16, 5}, {32, 1}, {32, 4}, {32, 32}};
    int tiles_checked = 0, tiles_in_one_row = 0;

    for (const CooMatrix& A : matrices)
        for (const kit::Csr5Params& shape : shapes) {
            const auto m = convert(A, shape.omega, shape.sigma);
            for (index_t t = 0; t < m.full_tiles(); ++t) {
                const std::vector<std::uint32_t> flags = bit_flags(m, t);
                const std::vector<int> y_offset = y_offsets(m, t), seg_offset = seg_offsets(m, t);
                std::uint32_t starts = 0;
                for (int lane = 0; lane < m.omega; ++lane) starts |= (flags[lane] != 0 ? 1u : 0u) << lane;
                int before = 0;
                for (int lane = 0; lane < m.omega; ++lane) {
                    ASSERT_EQ(kit::csr5_seg_offset_of(starts, lane, m.omega), seg_offset[lane])
                        << "omega " << m.omega << " sigma " << m.sigma << " tile " << t << " lane " << lane;
                    ASSERT_EQ(before, y_offset[lane]) << "omega " << m.omega << " tile " << t << " lane " << lane;
                    before += __builtin_popcount(flags[lane]);
                }
                if (kit::csr5_tile_row(m.tile_ptr[t]) == kit::csr5_tile_row(m.tile_ptr[t + 1])) {
                    std::vector<std::uint32_t> carry_only(m.omega, 0);
                    carry_only[0] = 1;
                    ASSERT_EQ(flags, carry_only) << "omega " << m.omega << " sigma " << m.sigma << " tile " << t;
                    ++tiles_in_one_row;
                }
                ++tiles_checked;
            }
        }

    EXPECT_GT(tiles_checked, 1000);
    EXPECT_GT(tiles_in_one_row, 10);  // the power-law matrix's long rows hold whole tiles
}

// The GPU reads the bit_flags packed sigma bits a lane, end to end. Every lane's flags must
// come back unchanged, for sigmas that do and do not divide 32 (a lane's bits then straddle
// two words), and the packing must be the bit string the header describes.
TEST(Csr5, PackedBitFlagsGiveBackEveryLanesFlags) {
    const std::vector<CooMatrix> matrices = {kit::csr5_example8x8(), kit::generate_power_law(3000, 900, 1.0, 3),
                                             kit::generate_stencil2d(20, 20)};
    const std::vector<kit::Csr5Params> shapes = {{1, 1}, {2, 3}, {4, 4}, {8, 7}, {16, 5}, {32, 4}, {32, 31}, {32, 32}};
    std::size_t lanes_checked = 0;
    for (const CooMatrix& A : matrices)
        for (const kit::Csr5Params& shape : shapes) {
            const auto m = convert(A, shape.omega, shape.sigma);
            const std::vector<std::uint32_t> packed = kit::csr5_pack_bit_flags(m.tile_desc, m.sigma);
            const std::size_t bits = m.tile_desc.size() * static_cast<std::size_t>(m.sigma);
            ASSERT_EQ(packed.size(), (bits + 31) / 32 + 1) << "omega " << m.omega << " sigma " << m.sigma;
            EXPECT_EQ(packed.back(), 0u);
            for (std::size_t g = 0; g < m.tile_desc.size(); ++g) {
                ASSERT_EQ(kit::csr5_packed_bit_flag(packed.data(), static_cast<long long>(g), m.sigma),
                          kit::csr5_bit_flag(m.tile_desc[g]))
                    << "omega " << m.omega << " sigma " << m.sigma << " lane " << g;
                ++lanes_checked;
            }
        }
    EXPECT_GT(lanes_checked, 10000u);

    // The 8x8 example, omega = sigma = 4: tile 0's lanes have flags 1001, 0000, 0101, 0100
    // (binary, bit j = entry j) and tile 1's 0001, 0101, 0000, 0100: one hex digit a lane, lane 0 lowest.
    const auto m = convert(kit::csr5_example8x8(), 4, 4);
    EXPECT_EQ(kit::csr5_pack_bit_flags(m.tile_desc, 4), (std::vector<std::uint32_t>{0x40514509u, 0u}));
}

TEST(Csr5, PackingRefusesASigmaTheBitFlagCannotHold) {
    const std::vector<std::uint64_t> one_lane = {1};
    EXPECT_THROW(kit::csr5_pack_bit_flags(one_lane, 0), kit::Error);
    EXPECT_THROW(kit::csr5_pack_bit_flags(one_lane, 33), kit::Error);
}
