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

}  // namespace

count_t CooMatrix::normalize() {
    const std::size_t n = val.size();
    // Already row-major (the kit's own files, most generated ones): no sort, only a merge.
    bool sorted = true;
    for (std::size_t k = 1; k < n && sorted; ++k)
        sorted = row[k - 1] < row[k] || (row[k - 1] == row[k] && col[k - 1] <= col[k]);
    if (sorted) {
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

    // LSD radix sort of (row, col) keys carrying their values. It is stable, so duplicates
    // add in file order and results are reproducible; it is linear, so a 50M-entry file
    // sorts in seconds where a comparison sort of an index array took tens of seconds.
    struct Keyed {
        std::uint64_t key;
        double val;
    };
    index_t max_row = 0, max_col = 0;
    for (std::size_t k = 0; k < n; ++k) {
        max_row = std::max(max_row, row[k]);
        max_col = std::max(max_col, col[k]);
    }
    const int col_bits = bit_width(static_cast<std::uint64_t>(max_col));
    const int key_bits = col_bits + bit_width(static_cast<std::uint64_t>(max_row));
    // new T[n], not std::vector: the arrays are written before they are read, and zeroing
    // 800 MB first (50M entries) costs as much as a sort pass
    std::unique_ptr<Keyed[]> a(new Keyed[n]);
    for (std::size_t k = 0; k < n; ++k)
        a[k] = {(static_cast<std::uint64_t>(row[k]) << col_bits) | static_cast<std::uint64_t>(col[k]), val[k]};
    // the unsorted arrays are no longer needed: give their memory back before the second
    // buffer is taken, so the peak is 32 bytes per entry, not 48
    std::vector<index_t>().swap(row);
    std::vector<index_t>().swap(col);
    std::vector<double>().swap(val);
    std::unique_ptr<Keyed[]> b(new Keyed[n]);

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
    b.reset();

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
    return static_cast<count_t>(n - val.size());
}

bool CooMatrix::is_normalized() const {
    for (std::size_t k = 1; k < val.size(); ++k) {
        if (row[k - 1] > row[k] || (row[k - 1] == row[k] && col[k - 1] >= col[k])) return false;
    }
    return true;
}

template <class T>
Coo<T> Coo<T>::from_coo(const CooMatrix& A) {
    if (!A.is_normalized()) throw Error("Coo::from_coo: hub matrix is not normalized (call normalize())");
    Coo<T> out;
    out.rows = A.rows;
    out.cols = A.cols;
    out.row_idx = A.row;
    out.col_idx = A.col;
    out.vals.assign(A.val.begin(), A.val.end());
    return out;
}

template <class T>
CooMatrix Coo<T>::to_coo() const {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    A.row = row_idx;
    A.col = col_idx;
    A.val.assign(vals.begin(), vals.end());
    return A;
}

template struct Coo<float>;
template struct Coo<double>;

}  // namespace kit
