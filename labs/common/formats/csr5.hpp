/// @file csr5.hpp
/// @brief CSR5 (Liu and Vinter, 2015): CSR whose entries are cut into omega x sigma tiles,
/// with the conversion from CSR and back.
///
/// CSR5 keeps CSR's row_ptr and adds two groups of data, five in all:
/// - **row_ptr**: unchanged (only the tail uses it).
/// - **col_idx**, **vals**: every *complete* tile of omega*sigma consecutive entries is
///   stored transposed (column-major inside the tile), so that lane i of a tile owns the
///   sigma consecutive entries base + i*sigma + j (j = 0..sigma-1), and step j of all lanes
///   reads omega neighbouring words. The incomplete tail keeps CSR order.
/// - **tile_ptr** (p + 1 words, p = ceil(nnz / (omega*sigma)), the tail counted as a tile):
///   the row of each tile's first entry; the last word is `rows`. Bit 31 (the sign bit when
///   read as int32) is set on a complete tile whose span of rows contains an empty row.
/// - **tile_desc**: for every complete tile, one 64-bit word per lane, plus the
///   empty_offset lists of the tiles that need one. The GPU keeps only the sigma bits of
///   each lane's bit_flag, laid end to end (DeviceCsr5::bit_flag, csr5_pack_bit_flags): a
///   warp recomputes y_offset and seg_offset from the bit_flags of its lanes
///   (csr5_seg_offset_of, and a prefix sum of their popcounts). A few instructions buy a
///   kernel bound by memory one bit per entry instead of a 64-bit word per lane.
///
/// A tile is split into *segments*: a segment starts at every entry that starts a row, and
/// at the tile's first entry (even inside a row: that segment is the tile's *carry*, the
/// part of a row begun in an earlier tile). Segment k of a tile is row tile_row + k, or
/// tile_row + empty_offset[k] when empty rows make the rows of the tile non-consecutive.
///
/// Packing of one lane's descriptor word (lane i of a complete tile):
/// @code
///     bits  0..31  bit_flag    bit j set: the lane's entry j starts a segment (sigma <= 32)
///     bits 32..47  y_offset    segments started in lanes 0..i-1 = index of the lane's first segment
///     bits 48..63  seg_offset  lanes after i that start no segment before the next lane that does
/// @endcode
///
/// Worked example, the kit's 4x4 matrix with omega = 2, sigma = 2 (tiles of 4 entries,
/// p = ceil(9/4) = 3: two complete tiles and a tail of one entry):
/// @code
///     A = | 1 7 0 0 |   CSR  row_ptr = [0 2 4 7 9]
///         | 0 2 8 0 |        col_idx = [0 1 | 1 2 | 0 2 | 3 1 | 3]     (| : lanes of 2 entries)
///         | 5 0 3 9 |        vals    = [1 7 | 2 8 | 5 3 | 9 6 | 4]
///         | 0 6 0 4 |                   tile 0        tile 1      tail
///
///     tile 0   lane 0  lane 1       tile 1   lane 0  lane 1
///     j = 0    1 (r0)  2 (r1)       j = 0    5 (r2)  9 (r2)
///     j = 1    7 (r0)  8 (r1)       j = 1    3 (r2)  6 (r3)
///
///     CSR5 row_ptr  = [0 2 4 7 9]                           (unchanged)
///          tile_ptr = [0 2 3 4]                             (rows of entries 0, 4, 8; then rows)
///          col_idx  = [0 1 1 2 | 0 3 2 1 | 3]               (tiles column-major, tail as in CSR)
///          vals     = [1 2 7 8 | 5 9 3 6 | 4]
///          tile_desc, tile 0: lane 0 = 0x0000'0000'0000'0001  flag j=0 (row 0), y_offset 0, seg_offset 0
///                             lane 1 = 0x0000'0001'0000'0001  flag j=0 (row 1), y_offset 1, seg_offset 0
///                     tile 1: lane 0 = 0x0000'0000'0000'0001  flag j=0 (row 2), y_offset 0, seg_offset 0
///                             lane 1 = 0x0000'0001'0000'0002  flag j=1 (row 3), y_offset 1, seg_offset 0
/// @endcode
/// In tile 1, lane 1's entry 9 continues row 2, which lane 0 started: the segmented sum hands
/// it to lane 0. Row 3 (6 in tile 1, 4 in the tail) crosses into the tail.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/coo.hpp"
#include "formats/csr.hpp"

#if defined(__CUDACC__)
/// Marks the descriptor decoders as callable from host and device code.
#define KIT_HOST_DEVICE __host__ __device__
#else
/// Marks the descriptor decoders as callable from host and device code.
#define KIT_HOST_DEVICE
#endif

namespace kit {

/// @brief Bit 31 of a tile_ptr word: the tile's rows are not consecutive (it holds empty rows).
constexpr std::uint32_t kCsr5EmptyRowsFlag = 0x80000000u;
/// @brief Largest supported tile width: y_offset and seg_offset must fit their 16 bits.
constexpr int kCsr5MaxOmega = 1024;
/// @brief Largest supported tile height: a lane's bit_flag must fit its 32 bits.
constexpr int kCsr5MaxSigma = 32;

/// @brief Row of a tile's first entry, from its tile_ptr word. @param word [in] tile_ptr[t]
KIT_HOST_DEVICE inline index_t csr5_tile_row(std::uint32_t word) {
    return static_cast<index_t>(word & ~kCsr5EmptyRowsFlag);
}
/// @brief True if the tile needs its empty_offset list. @param word [in] tile_ptr[t]
KIT_HOST_DEVICE inline bool csr5_tile_has_empty_rows(std::uint32_t word) { return (word & kCsr5EmptyRowsFlag) != 0; }
/// @brief The lane's bit_flag column. @param desc [in] tile_desc word of one lane
KIT_HOST_DEVICE inline std::uint32_t csr5_bit_flag(std::uint64_t desc) { return static_cast<std::uint32_t>(desc); }
/// @brief Index (in the tile) of the lane's first segment. @param desc [in] tile_desc word of one lane
KIT_HOST_DEVICE inline int csr5_y_offset(std::uint64_t desc) { return static_cast<int>((desc >> 32) & 0xffffu); }
/// @brief Lanes after this one that start no segment. @param desc [in] tile_desc word of one lane
KIT_HOST_DEVICE inline int csr5_seg_offset(std::uint64_t desc) { return static_cast<int>(desc >> 48); }
/// @brief Index of the lowest set bit of v (v != 0). @param v [in] a nonzero word
KIT_HOST_DEVICE inline int csr5_lowest_set_bit(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
    return __ffs(v) - 1;
#else
    return __builtin_ctz(v);
#endif
}
/// @brief seg_offset recomputed from the bit_flags of a tile's lanes, as the GPU kernel does.
///
/// `starts` has bit i set when lane i of the tile has a bit_flag (a warp gets it from one
/// __ballot_sync); bits at or above omega are ignored. The result is the number of lanes after
/// `lane` up to the next lane that starts a segment, or up to the end of the tile: the
/// seg_offset the conversion stores. Valid for omega <= 32.
/// @param starts [in] lanes that start a segment  @param lane [in] 0..omega-1  @param omega [in] 1..32
KIT_HOST_DEVICE inline int csr5_seg_offset_of(std::uint32_t starts, int lane, int omega) {
    const int after = omega - 1 - lane;  // lanes after this one, at most 31
    if (after == 0) return 0;
    const std::uint32_t later = (starts >> (lane + 1)) & ((1u << after) - 1u);
    return later != 0 ? csr5_lowest_set_bit(later) : after;
}
/// @brief The low sigma bits set: the bits a lane's bit_flag may use. @param sigma [in] 1..32
KIT_HOST_DEVICE inline std::uint32_t csr5_flag_mask(int sigma) {
    return sigma >= 32 ? 0xffffffffu : (1u << sigma) - 1u;
}
/// @brief Lane `lane`'s bit_flag out of the packed bit_flags of csr5_pack_bit_flags.
///
/// Lane g (g = tile * omega + lane in the tile) owns bits g*sigma .. g*sigma + sigma - 1 of
/// `bits`, read as one long little-endian bit string. They lie in word g*sigma/32 and perhaps
/// the next (the packing adds a zero word at the end, so the next one always exists): the two
/// words as one 64-bit value, shifted down and masked to sigma bits. A warp's lanes read
/// neighbouring words, sigma + 1 of them for 32 lanes: one coalesced load each.
/// @param bits [in] packed bit_flags  @param lane [in] global lane index g  @param sigma [in] 1..32
KIT_HOST_DEVICE inline std::uint32_t csr5_packed_bit_flag(const std::uint32_t* bits, long long lane, int sigma) {
    const long long first = lane * sigma;  // index of the lane's bit 0 in the bit string
    const std::uint64_t two_words = static_cast<std::uint64_t>(bits[first / 32 + 1]) << 32 | bits[first / 32];
    return static_cast<std::uint32_t>(two_words >> (first % 32)) & csr5_flag_mask(sigma);
}
/// @brief Packs one lane's descriptor word (see the file comment).
/// @param bit_flag [in] flags of the lane's entries  @param y_offset [in] < 2^16  @param seg_offset [in] < 2^16
inline std::uint64_t csr5_pack_desc(std::uint32_t bit_flag, int y_offset, int seg_offset) {
    return bit_flag | static_cast<std::uint64_t>(y_offset) << 32 | static_cast<std::uint64_t>(seg_offset) << 48;
}

/// @brief Every lane's bit_flag, sigma bits each, end to end, as csr5_packed_bit_flag reads them.
///
/// ceil(lanes * sigma / 32) words plus one zero word. Bits of a bit_flag at or above sigma
/// are never set by the conversion; they would be dropped.
/// @param tile_desc [in] the lanes' descriptor words, tile-major  @param sigma [in] 1..32
/// @return the packed words
std::vector<std::uint32_t> csr5_pack_bit_flags(const std::vector<std::uint64_t>& tile_desc, int sigma);

/// @brief The bounds (r, s, t, u) that map nnz/row to sigma.
struct Csr5SigmaBounds {
    int r = 4;    ///< sigma never below r
    int s = 32;   ///< sigma = nnz/row up to s, then s
    int t = 256;  ///< beyond t entries per row ...
    int u = 4;    ///< ... sigma drops to u
};

/// @brief sigma from the mean row length: r if nnz/row <= r; nnz/row if <= s; s if <= t; u beyond.
///
/// nnz/row is the integer quotient; an empty matrix (rows = 0) gets r.
/// With the NVIDIA bounds (4, 32, 256, 4): rdb450 (2580/450 = 5) gets 5, the 4x4 example gets 4.
/// @param nnz [in] entries  @param rows [in] rows  @param b [in] the bounds
int csr5_sigma(count_t nnz, index_t rows, const Csr5SigmaBounds& b = {});

/// @brief Tile shape of a conversion. 0 picks the default.
struct Csr5Params {
    int omega = 0;  ///< tile width, lanes per tile (0: 32, a warp of an NVIDIA GPU)
    int sigma = 0;  ///< tile height, entries per lane (0: csr5_sigma(nnz, rows))
};

/// @brief Non-owning view of a CSR5 matrix, as kernels take it.
template <class T>
struct Csr5View {
    index_t rows;                    ///< number of rows
    index_t cols;                    ///< number of columns
    index_t nnz;                     ///< number of entries
    int omega;                       ///< tile width (lanes)
    int sigma;                       ///< tile height (entries per lane)
    index_t full_tiles;              ///< complete tiles: those with a descriptor
    index_t tail_row_begin;          ///< row of the tail's first entry (== tail_row_end: no tail)
    index_t tail_row_end;            ///< one past the row of the last entry
    const index_t* row_ptr;          ///< rows+1 CSR offsets (unchanged)
    const std::uint32_t* tile_ptr;   ///< tiles+1 words: row of each tile's first entry, empty-rows flag
    const std::uint64_t* tile_desc;  ///< host views: full_tiles*omega lane descriptors, tile-major (device views: null)
    const index_t* empty_offset_ptr;  ///< full_tiles+1 offsets into empty_offset (empty list: no flag)
    const index_t* empty_offset;      ///< per flagged tile: row - tile_row of each of its segments
    const index_t* col_idx;           ///< column per entry, complete tiles transposed
    const T* vals;                    ///< value per entry, complete tiles transposed
    const std::uint32_t*
        bit_flag;  ///< device views: every lane's bit_flag, sigma bits each, end to end (csr5_pack_bit_flags; host views: null)
    T* carry;  ///< device views: full_tiles scratch values for the carries (host views: null)
};

/// @brief Owning host CSR5 container. Data only: the kernels live in lab 06.
template <class T>
struct Csr5 {
    index_t rows = 0;                       ///< number of rows
    index_t cols = 0;                       ///< number of columns
    int omega = kWarpSize;                  ///< tile width
    int sigma = 4;                          ///< tile height
    std::vector<index_t> row_ptr;           ///< rows+1 offsets, as in CSR
    std::vector<std::uint32_t> tile_ptr;    ///< tiles()+1 words
    std::vector<std::uint64_t> tile_desc;   ///< full_tiles()*omega lane descriptors
    std::vector<index_t> empty_offset_ptr;  ///< full_tiles()+1 offsets into empty_offset
    std::vector<index_t> empty_offset;      ///< segment rows (relative) of tiles with empty rows
    std::vector<index_t> col_idx;           ///< column per entry, complete tiles transposed
    std::vector<T> vals;                    ///< value per entry, complete tiles transposed
    index_t tail_row_begin = 0;             ///< row of the tail's first entry
    index_t tail_row_end = 0;               ///< one past the row of the last entry (== begin: no tail)

    /// @brief Converts a CSR matrix. The caller's CSR is copied, never modified.
    ///
    /// Throws kit::Error if omega is outside 1..kCsr5MaxOmega or sigma outside 1..kCsr5MaxSigma.
    /// @param A [in] CSR matrix  @param params [in] tile shape (0: defaults)
    static Csr5 from_csr(const Csr<T>& A, const Csr5Params& params = {});
    /// @brief Builds CSR5 from the hub through CSR. @param A [in] normalized hub matrix
    /// @param params [in] tile shape (0: defaults)
    static Csr5 from_coo(const CooMatrix& A, const Csr5Params& params = {});
    /// @brief The inverse of from_csr: transposes the complete tiles back to CSR order.
    Csr<T> to_csr() const;
    /// @brief Converts back to the hub.
    CooMatrix to_coo() const { return to_csr().to_coo(); }
    /// @brief Number of entries.
    index_t nnz() const { return static_cast<index_t>(vals.size()); }
    /// @brief p = ceil(nnz / (omega*sigma)): the complete tiles and the tail, if any.
    index_t tiles() const { return static_cast<index_t>(tile_ptr.size()) - 1; }
    /// @brief Complete tiles, floor(nnz / (omega*sigma)).
    index_t full_tiles() const { return static_cast<index_t>(empty_offset_ptr.size()) - 1; }
    /// @brief Host view of the arrays (carry is null: the CPU SpMV keeps its own).
    Csr5View<T> view() const {
        return {rows,
                cols,
                nnz(),
                omega,
                sigma,
                full_tiles(),
                tail_row_begin,
                tail_row_end,
                row_ptr.data(),
                tile_ptr.data(),
                tile_desc.data(),
                empty_offset_ptr.data(),
                empty_offset.data(),
                col_idx.data(),
                vals.data(),
                nullptr,
                nullptr};
    }
};

/// @brief The run note of a CSR5 matrix: "omega 32, sigma 4, 12 complete tiles".
/// @param m [in] matrix
template <class T>
std::string describe_layout(const Csr5<T>& m) {
    return "omega " + std::to_string(m.omega) + ", sigma " + std::to_string(m.sigma) + ", " +
           std::to_string(m.full_tiles()) + " complete tiles";
}

}  // namespace kit
