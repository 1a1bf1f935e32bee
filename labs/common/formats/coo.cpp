#include "formats/coo.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>

#include "core/kit_error.hpp"

namespace kit {

namespace {

/// Number of bits needed to hold v (0 for v == 0).
int bit_width(std::uint64_t v) {
    int b = 0;
    while (v) {
        ++b;
        v >>= 1;
    }
    return b;
}

/// Whether the entries are row-major already (equal rows in column order, ties allowed).
bool is_row_major(const std::vector<index_t>& row, const std::vector<index_t>& col) {
    for (std::size_t k = 1; k < row.size(); ++k)
        if (row[k - 1] > row[k] || (row[k - 1] == row[k] && col[k - 1] > col[k])) return false;
    return true;
}

/// Adds up neighbouring duplicates of row-major entries in place; returns how many were merged.
count_t merge_neighbours(std::vector<index_t>& row, std::vector<index_t>& col, std::vector<double>& val) {
    const std::size_t n = val.size();
    std::size_t out = 0;
    for (std::size_t k = 0; k < n; ++k) {
        if (out > 0 && row[out - 1] == row[k] && col[out - 1] == col[k]) {
            val[out - 1] += val[k];
        } else {
            row[out] = row[k];
            col[out] = col[k];
            val[out] = val[k];
            ++out;
        }
    }
    row.resize(out);
    col.resize(out);
    val.resize(out);
    return static_cast<count_t>(n - out);
}

/// An entry as the radix sort moves it: its (row, col) key and its value.
struct Keyed {
    std::uint64_t key;
    double val;
};

/// The entries as keys row << col_bits | col with their values. The arrays are emptied and
/// their memory given back before the sort takes its second buffer, so the peak is 32 bytes
/// per entry, not 48.
std::unique_ptr<Keyed[]> pack_keys(std::vector<index_t>& row, std::vector<index_t>& col, std::vector<double>& val,
                                   int col_bits) {
    const std::size_t n = val.size();
    // new T[n], not std::vector: the array is written before it is read, and zeroing
    // 800 MB first (50M entries) costs as much as a sort pass
    std::unique_ptr<Keyed[]> a(new Keyed[n]);
    for (std::size_t k = 0; k < n; ++k)
        a[k] = {(static_cast<std::uint64_t>(row[k]) << col_bits) | static_cast<std::uint64_t>(col[k]), val[k]};
    std::vector<index_t>().swap(row);
    std::vector<index_t>().swap(col);
    std::vector<double>().swap(val);
    return a;
}

/// LSD radix sort of a[0..n) by the low key_bits bits of the key, kDigit bits a pass, with b
/// as scratch; the sorted entries end in a. Stable: duplicates stay in input order.
void radix_sort(std::unique_ptr<Keyed[]>& a, std::unique_ptr<Keyed[]>& b, std::size_t n, int key_bits) {
    constexpr int kDigit = 11;
    constexpr std::size_t kBuckets = std::size_t{1} << kDigit;
    std::vector<std::size_t> count(kBuckets);
    for (int shift = 0; shift < key_bits; shift += kDigit) {
        std::fill(count.begin(), count.end(), 0);
        for (std::size_t k = 0; k < n; ++k) ++count[(a[k].key >> shift) & (kBuckets - 1)];
        if (std::any_of(count.begin(), count.end(), [n](std::size_t c) { return c == n; })) continue;  // one digit
        std::size_t sum = 0;
        for (std::size_t& c : count) {
            const std::size_t here = c;
            c = sum;
            sum += here;
        }
        for (std::size_t k = 0; k < n; ++k) b[count[(a[k].key >> shift) & (kBuckets - 1)]++] = a[k];
        a.swap(b);
    }
}

/// Unpacks sorted keyed entries into the three arrays, adding up equal keys.
void unpack_merged(const Keyed* a, std::size_t n, int col_bits, std::vector<index_t>& row, std::vector<index_t>& col,
                   std::vector<double>& val) {
    row.reserve(n);
    col.reserve(n);
    val.reserve(n);
    const std::uint64_t col_mask = (std::uint64_t{1} << col_bits) - 1;
    for (std::size_t k = 0; k < n; ++k) {
        if (k > 0 && a[k].key == a[k - 1].key) {
            val.back() += a[k].val;
        } else {
            row.push_back(static_cast<index_t>(a[k].key >> col_bits));
            col.push_back(static_cast<index_t>(a[k].key & col_mask));
            val.push_back(a[k].val);
        }
    }
}

}  // namespace

count_t CooMatrix::normalize() {
    // Already row-major (the kit's own files, most generated ones): no sort, only a merge.
    if (is_row_major(row_idx, col_idx)) return merge_neighbours(row_idx, col_idx, vals);

    // LSD radix sort of (row, col) keys carrying their values. It is stable, so duplicates
    // add in file order and results are reproducible; it is linear, so a 50M-entry file
    // sorts in seconds where a comparison sort of an index array took tens of seconds.
    const std::size_t n = vals.size();
    index_t max_row = 0, max_col = 0;
    for (std::size_t k = 0; k < n; ++k) {
        max_row = std::max(max_row, row_idx[k]);
        max_col = std::max(max_col, col_idx[k]);
    }
    const int col_bits = bit_width(static_cast<std::uint64_t>(max_col));
    const int key_bits = col_bits + bit_width(static_cast<std::uint64_t>(max_row));
    std::unique_ptr<Keyed[]> a = pack_keys(row_idx, col_idx, vals, col_bits);
    std::unique_ptr<Keyed[]> b(new Keyed[n]);
    radix_sort(a, b, n, key_bits);
    b.reset();
    unpack_merged(a.get(), n, col_bits, row_idx, col_idx, vals);
    return static_cast<count_t>(n - vals.size());
}

bool CooMatrix::is_normalized() const {
    for (std::size_t k = 1; k < vals.size(); ++k) {
        if (row_idx[k - 1] > row_idx[k] || (row_idx[k - 1] == row_idx[k] && col_idx[k - 1] >= col_idx[k])) return false;
    }
    return true;
}

template <class T>
Coo<T> Coo<T>::from_coo(const CooMatrix& A) {
    if (!A.is_normalized()) throw Error("Coo::from_coo: hub matrix is not normalized (call normalize())");
    Coo<T> out;
    out.rows = A.rows;
    out.cols = A.cols;
    out.row_idx = A.row_idx;
    out.col_idx = A.col_idx;
    out.vals.assign(A.vals.begin(), A.vals.end());
    return out;
}

template <class T>
CooMatrix Coo<T>::to_coo() const {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    A.row_idx = row_idx;
    A.col_idx = col_idx;
    A.vals.assign(vals.begin(), vals.end());
    return A;
}

template struct Coo<float>;
template struct Coo<double>;

}  // namespace kit
