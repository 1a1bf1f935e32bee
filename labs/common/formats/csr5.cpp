#include "formats/csr5.hpp"

#include <string>

#include "core/kit_error.hpp"

namespace kit {

int csr5_sigma(count_t nnz, index_t rows, const Csr5SigmaBounds& b) {
    const count_t per_row = rows > 0 ? nnz / rows : 0;
    if (per_row <= b.r) return b.r;
    if (per_row <= b.s) return static_cast<int>(per_row);
    if (per_row <= b.t) return b.s;
    return b.u;
}

namespace {

/// Row of every entry: the last row r with row_ptr[r] <= e, which skips empty rows.
std::vector<index_t> row_of_entries(const std::vector<index_t>& row_ptr, index_t nnz) {
    std::vector<index_t> row(static_cast<std::size_t>(nnz));
    for (std::size_t r = 0; r + 1 < row_ptr.size(); ++r)
        for (index_t e = row_ptr[r]; e < row_ptr[r + 1]; ++e) row[e] = static_cast<index_t>(r);
    return row;
}

/// Builds the lane descriptors of complete tile `tile` and, if its rows are not consecutive,
/// its empty_offset list. Returns true if the tile holds empty rows.
template <class T>
bool describe_tile(Csr5<T>& m, index_t tile, const std::vector<index_t>& row_ptr, const std::vector<index_t>& row) {
    const count_t base = static_cast<count_t>(tile) * m.omega * m.sigma;
    std::vector<std::uint32_t> flags(m.omega, 0);
    std::vector<index_t> segment_rows;  // row of each segment, in entry order
    for (int lane = 0; lane < m.omega; ++lane)
        for (int j = 0; j < m.sigma; ++j) {
            const count_t e = base + static_cast<count_t>(lane) * m.sigma + j;
            // The tile's first entry always opens a segment: the tile's carry.
            if (e == base || row_ptr[row[e]] == e) {
                flags[lane] |= 1u << j;
                segment_rows.push_back(row[e]);
            }
        }
    int y_offset = 0;
    for (int lane = 0; lane < m.omega; ++lane) {
        int next = lane + 1;  // next lane that starts a segment (omega if none)
        while (next < m.omega && flags[next] == 0) ++next;
        m.tile_desc.push_back(csr5_pack_desc(flags[lane], y_offset, next - lane - 1));
        y_offset += __builtin_popcount(flags[lane]);
    }
    const index_t first = segment_rows.front();
    const bool has_empty = segment_rows.back() - first + 1 != static_cast<index_t>(segment_rows.size());
    if (has_empty)
        for (index_t r : segment_rows) m.empty_offset.push_back(r - first);
    m.empty_offset_ptr.push_back(static_cast<index_t>(m.empty_offset.size()));
    return has_empty;
}

/// Builds CSR5 from its CSR arrays (taken over, not copied) and the row of every entry.
/// from_coo passes the hub's own row array; from_csr has to derive it from row_ptr.
template <class T>
Csr5<T> build_csr5(Csr<T>&& A, const std::vector<index_t>& row, const Csr5Params& params) {
    Csr5<T> m;
    m.rows = A.rows;
    m.cols = A.cols;
    m.omega = params.omega > 0 ? params.omega : kWarpSize;
    m.sigma = params.sigma > 0 ? params.sigma : csr5_sigma(A.nnz(), A.rows);
    if (m.omega > kCsr5MaxOmega || params.omega < 0)
        throw Error("Csr5: omega = " + std::to_string(params.omega) + " is outside 1.." +
                    std::to_string(kCsr5MaxOmega) + " (y_offset and seg_offset have 16 bits)");
    if (m.sigma > kCsr5MaxSigma || params.sigma < 0)
        throw Error("Csr5: sigma = " + std::to_string(params.sigma) + " is outside 1.." +
                    std::to_string(kCsr5MaxSigma) + " (a lane's bit_flag has 32 bits)");
    const index_t nnz = A.nnz();
    const count_t tile_size = static_cast<count_t>(m.omega) * m.sigma;
    const index_t tiles = static_cast<index_t>((nnz + tile_size - 1) / tile_size);
    const index_t full = static_cast<index_t>(nnz / tile_size);

    m.row_ptr = std::move(A.row_ptr);
    m.col_idx = A.col_idx;  // the tail keeps CSR order; complete tiles are transposed below
    m.vals = A.vals;
    for (index_t t = 0; t < tiles; ++t) m.tile_ptr.push_back(static_cast<std::uint32_t>(row[t * tile_size]));
    m.tile_ptr.push_back(static_cast<std::uint32_t>(m.rows));
    m.empty_offset_ptr.push_back(0);
    for (index_t t = 0; t < full; ++t) {
        if (describe_tile(m, t, m.row_ptr, row)) m.tile_ptr[t] |= kCsr5EmptyRowsFlag;
        const count_t base = t * tile_size;
        for (int lane = 0; lane < m.omega; ++lane)
            for (int j = 0; j < m.sigma; ++j) {
                const count_t from = base + static_cast<count_t>(lane) * m.sigma + j;
                const count_t to = base + static_cast<count_t>(j) * m.omega + lane;
                m.col_idx[to] = A.col_idx[from];
                m.vals[to] = A.vals[from];
            }
    }
    if (static_cast<count_t>(full) * tile_size < nnz) {
        m.tail_row_begin = row[full * tile_size];
        m.tail_row_end = row[nnz - 1] + 1;
    }
    return m;
}

}  // namespace

template <class T>
Csr5<T> Csr5<T>::from_csr(const Csr<T>& A, const Csr5Params& params) {
    return build_csr5(Csr<T>(A), row_of_entries(A.row_ptr, A.nnz()), params);
}

template <class T>
Csr5<T> Csr5<T>::from_coo(const CooMatrix& A, const Csr5Params& params) {
    return build_csr5(Csr<T>::from_coo(A), A.row_idx, params);  // the hub already holds each entry's row
}

template <class T>
Csr<T> Csr5<T>::to_csr() const {
    Csr<T> A;
    A.rows = rows;
    A.cols = cols;
    A.row_ptr = row_ptr;
    A.col_idx = col_idx;
    A.vals = vals;
    const count_t tile_size = static_cast<count_t>(omega) * sigma;
    for (index_t t = 0; t < full_tiles(); ++t)
        for (int lane = 0; lane < omega; ++lane)
            for (int j = 0; j < sigma; ++j) {
                const count_t csr_pos = t * tile_size + static_cast<count_t>(lane) * sigma + j;
                const count_t stored = t * tile_size + static_cast<count_t>(j) * omega + lane;
                A.col_idx[csr_pos] = col_idx[stored];
                A.vals[csr_pos] = vals[stored];
            }
    return A;
}

std::vector<std::uint32_t> csr5_pack_bit_flags(const std::vector<std::uint64_t>& tile_desc, int sigma) {
    if (sigma < 1 || sigma > kCsr5MaxSigma)
        throw Error("csr5_pack_bit_flags: sigma = " + std::to_string(sigma) + " is outside 1.." +
                    std::to_string(kCsr5MaxSigma));
    const std::uint64_t total_bits = static_cast<std::uint64_t>(tile_desc.size()) * sigma;
    std::vector<std::uint32_t> words(static_cast<std::size_t>((total_bits + 31) / 32 + 1), 0u);
    for (std::size_t g = 0; g < tile_desc.size(); ++g) {
        const std::uint64_t first = static_cast<std::uint64_t>(g) * sigma;
        // The lane's bits shifted into place over two words; the high part is 0 when they fit one.
        const std::uint64_t placed = static_cast<std::uint64_t>(csr5_bit_flag(tile_desc[g]) & csr5_flag_mask(sigma))
                                     << (first % 32);
        words[first / 32] |= static_cast<std::uint32_t>(placed);
        words[first / 32 + 1] |= static_cast<std::uint32_t>(placed >> 32);
    }
    return words;
}

template struct Csr5<float>;
template struct Csr5<double>;

}  // namespace kit
