/// @file dist_checks_impl.hpp
/// @brief The definitions of dist_checks.hpp (inline: both test binaries of the lab use them).
#pragma once
#include <algorithm>
#include <map>
#include <utility>

#include "dist_checks.hpp"

namespace kit::testing {

inline BlockArrays arrays_of(const dist::RankBlock<double>& b) {
    return {b.row_begin,       b.col_begin,        b.local.cols,     b.local.row_ptr,  b.local.col_idx,
            b.local.vals,      b.remote.row_ptr,   b.remote.col_idx, b.remote.vals,    b.halo_cols};
}

inline std::vector<index_t> even_rows(index_t rows, int parts) {
    std::vector<index_t> r(parts + 1);
    for (int p = 0; p <= parts; ++p) r[p] = static_cast<index_t>(static_cast<long long>(p) * rows / parts);
    return r;
}

inline ::testing::AssertionResult valid_partition(const Csr<double>& A, int parts, const std::vector<index_t>& r) {
    const std::string where = "10-multi-gpu step 1: partition_rows_by_nnz, P = " + std::to_string(parts) + ": ";
    if (static_cast<int>(r.size()) != parts + 1 || r.front() != 0 || r.back() != A.rows)
        return ::testing::AssertionFailure() << where << "expected " << parts + 1 << " offsets from 0 to " << A.rows;
    index_t longest = 0;
    for (index_t i = 0; i < A.rows; ++i) longest = std::max(longest, A.row_ptr[i + 1] - A.row_ptr[i]);
    const long long limit = A.nnz() / parts + 1 + longest;
    for (int p = 0; p < parts; ++p) {
        if (r[p] > r[p + 1]) return ::testing::AssertionFailure() << where << "offset " << p + 1 << " decreases";
        const long long held = A.row_ptr[r[p + 1]] - A.row_ptr[r[p]];
        if (held > limit)
            return ::testing::AssertionFailure() << where << "rank " << p << " holds " << held
                                                 << " entries, more than nnz/P + 1 + longest row = " << limit;
    }
    return ::testing::AssertionSuccess();
}

inline std::vector<index_t> expected_halo(const Csr<double>& A, const std::vector<index_t>& row_begin,
                                          const std::vector<index_t>& col_begin, int rank) {
    std::vector<index_t> h;
    for (index_t k = A.row_ptr[row_begin[rank]]; k < A.row_ptr[row_begin[rank + 1]]; ++k)
        if (A.col_idx[k] < col_begin[rank] || A.col_idx[k] >= col_begin[rank + 1]) h.push_back(A.col_idx[k]);
    std::sort(h.begin(), h.end());
    h.erase(std::unique(h.begin(), h.end()), h.end());
    return h;
}

namespace detail {
/// Checks one CSR block's shape; returns "" or what is wrong.
inline std::string block_shape(const char* what, index_t rows, index_t cols, const std::vector<index_t>& ptr,
                               const std::vector<index_t>& col, std::size_t vals) {
    if (ptr.size() != static_cast<std::size_t>(rows) + 1 || ptr.front() != 0 ||
        static_cast<std::size_t>(ptr.back()) != col.size() || col.size() != vals)
        return std::string(what) + " block: row_ptr must hold rows+1 offsets from 0 to its entries";
    for (index_t i = 0; i < rows; ++i)
        if (ptr[i] > ptr[i + 1]) return std::string(what) + " block: row_ptr decreases at row " + std::to_string(i);
    for (const index_t c : col)
        if (c < 0 || c >= cols) return std::string(what) + " block: column " + std::to_string(c) + " out of range";
    return "";
}
}  // namespace detail

inline ::testing::AssertionResult valid_block(const Csr<double>& A, const std::vector<index_t>& row_begin,
                                              const std::vector<index_t>& col_begin, int rank, const BlockArrays& b) {
    const std::string where = "10-multi-gpu step 1: split_rank_block, P = " + std::to_string(row_begin.size() - 1) +
                              ", rank " + std::to_string(rank) + ": ";
    const index_t r0 = row_begin[rank], rows = row_begin[rank + 1] - r0, c0 = col_begin[rank];
    if (b.row_begin != r0 || b.col_begin != c0 || b.local_cols != col_begin[rank + 1] - c0)
        return ::testing::AssertionFailure() << where << "row_begin, col_begin or the local block's columns are wrong";
    if (b.halo != expected_halo(A, row_begin, col_begin, rank))
        return ::testing::AssertionFailure() << where << "halo_cols must list each remote column once, ascending";
    for (const auto& why : {detail::block_shape("local", rows, b.local_cols, b.local_ptr, b.local_col, b.local_val.size()),
                            detail::block_shape("remote", rows, static_cast<index_t>(b.halo.size()), b.remote_ptr,
                                                b.remote_col, b.remote_val.size())})
        if (!why.empty()) return ::testing::AssertionFailure() << where << why;
    for (index_t i = 0; i < rows; ++i) {
        std::vector<std::pair<index_t, double>> want, got;
        for (index_t k = A.row_ptr[r0 + i]; k < A.row_ptr[r0 + i + 1]; ++k) want.emplace_back(A.col_idx[k], A.vals[k]);
        for (index_t k = b.local_ptr[i]; k < b.local_ptr[i + 1]; ++k) got.emplace_back(b.local_col[k] + c0, b.local_val[k]);
        for (index_t k = b.remote_ptr[i]; k < b.remote_ptr[i + 1]; ++k)
            got.emplace_back(b.halo[b.remote_col[k]], b.remote_val[k]);
        std::sort(want.begin(), want.end());
        std::sort(got.begin(), got.end());
        if (want != got)
            return ::testing::AssertionFailure() << where << "global row " << r0 + i
                                                 << ": the local and remote entries are not the row's entries";
    }
    return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult valid_plans(const std::vector<std::vector<index_t>>& halos,
                                              const std::vector<index_t>& col_begin,
                                              const std::vector<dist::CommPlan>& plans) {
    const int P = static_cast<int>(halos.size());
    for (int p = 0; p < P; ++p) {
        const std::string where = "10-multi-gpu step 2: build_comm_plan, P = " + std::to_string(P) + ", rank " +
                                  std::to_string(p) + ": ";
        // expected: per peer q, what p receives from q (its halo's run owned by q) and what p sends to q
        std::map<int, std::vector<index_t>> recv, send;
        for (const index_t c : halos[p]) recv[dist::owner_of(col_begin, c)].push_back(c);
        for (int q = 0; q < P; ++q)
            for (const index_t c : halos[q])
                if (q != p && dist::owner_of(col_begin, c) == p) send[q].push_back(c - col_begin[p]);
        const dist::CommPlan& pl = plans[p];
        std::map<int, std::vector<index_t>> got_recv, got_send;
        if (pl.recv_offsets.size() != pl.recv_peers.size() + 1 || pl.send_offsets.size() != pl.send_peers.size() + 1)
            return ::testing::AssertionFailure() << where << "offsets must hold one more entry than peers";
        for (std::size_t k = 0; k < pl.recv_peers.size(); ++k) {
            if (pl.recv_offsets[k] < 0 || pl.recv_offsets[k] > pl.recv_offsets[k + 1] ||
                static_cast<std::size_t>(pl.recv_offsets[k + 1]) > halos[p].size())
                return ::testing::AssertionFailure() << where << "recv_offsets out of order or range";
            got_recv[pl.recv_peers[k]].assign(halos[p].begin() + pl.recv_offsets[k], halos[p].begin() + pl.recv_offsets[k + 1]);
        }
        for (std::size_t k = 0; k < pl.send_peers.size(); ++k) {
            if (pl.send_offsets[k] < 0 || pl.send_offsets[k] > pl.send_offsets[k + 1] ||
                static_cast<std::size_t>(pl.send_offsets[k + 1]) > pl.send_idx.size())
                return ::testing::AssertionFailure() << where << "send_offsets out of order or range";
            got_send[pl.send_peers[k]].assign(pl.send_idx.begin() + pl.send_offsets[k], pl.send_idx.begin() + pl.send_offsets[k + 1]);
        }
        const bool sorted = std::is_sorted(pl.recv_peers.begin(), pl.recv_peers.end()) &&
                            std::is_sorted(pl.send_peers.begin(), pl.send_peers.end());
        if (!sorted || got_recv != recv || got_send != send || pl.recv_offsets.back() != static_cast<index_t>(halos[p].size()) ||
            static_cast<std::size_t>(pl.send_offsets.back()) != pl.send_idx.size())
            return ::testing::AssertionFailure() << where << "expected receives from " << recv.size() << " peer(s) and sends to "
                                                 << send.size() << " peer(s), ascending, each peer once with its entries in halo order";
    }
    return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult blocks_hold(const CooMatrix& A, int max_parts) {
    const Csr<double> csr = Csr<double>::from_coo(A);
    for (int P = 1; P <= max_parts; ++P) {
        const auto rows = even_rows(csr.rows, P);
        const auto cols = dist::column_partition(rows, csr.rows, csr.cols);
        for (int p = 0; p < P; ++p) {
            const BlockArrays b = observe([&] { return arrays_of(dist::split_rank_block(csr, rows, cols, p)); });
            if (auto ok = valid_block(csr, rows, cols, p, b); !ok) return ok;
        }
    }
    return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult plans_hold(const CooMatrix& A, int max_parts) {
    const Csr<double> csr = Csr<double>::from_coo(A);
    for (int P = 1; P <= max_parts; ++P) {
        const auto rows = even_rows(csr.rows, P);
        const auto cols = dist::column_partition(rows, csr.rows, csr.cols);
        std::vector<std::vector<index_t>> halos;
        for (int p = 0; p < P; ++p) halos.push_back(expected_halo(csr, rows, cols, p));
        std::vector<dist::CommPlan> plans;
        for (int p = 0; p < P; ++p) plans.push_back(observe([&] { return dist::build_comm_plan(halos, cols, p); }));
        if (auto ok = valid_plans(halos, cols, plans); !ok) return ok;
    }
    return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult partitions_hold(const CooMatrix& A, int max_parts) {
    const Csr<double> csr = Csr<double>::from_coo(A);
    for (int P = 1; P <= max_parts; ++P) {
        const auto r = observe([&] { return dist::partition_rows_by_nnz(csr.row_ptr, csr.rows, P); });
        if (auto ok = valid_partition(csr, P, r); !ok) return ok;
    }
    return ::testing::AssertionSuccess();
}

}  // namespace kit::testing
