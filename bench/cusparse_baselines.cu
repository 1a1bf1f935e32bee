// cuSPARSE baselines as kit variants (see cusparse_baselines.hpp).
#include <cusparse.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>

#include "measure/bytes_model.hpp"
#include "gpu/cuda_run.hpp"
#include "cusparse_baselines.hpp"
#include "gpu/device_formats.hpp"
#include "core/kit_error.hpp"

namespace bench {
namespace {

using kit::count_t;
using kit::index_t;

/// A cuSPARSE call failed; `status` lets the BSR path fall back when the generic API refuses.
struct CusparseError : kit::Error {
    CusparseError(const std::string& what, cusparseStatus_t s) : kit::Error(what), status(s) {}
    cusparseStatus_t status;
};

void cusparse_check(cusparseStatus_t s, const char* call, const char* file, int line) {
    if (s != CUSPARSE_STATUS_SUCCESS)
        throw CusparseError(
            std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + cusparseGetErrorString(s), s);
}
#define CUSPARSE_CHECK(call) cusparse_check((call), #call, __FILE__, __LINE__)

/// The cuSPARSE handle the five variants share: made on the first run, destroyed with the
/// last variant that holds it (the variant lists live in main or in a sweep, while CUDA is
/// still up, so no release call is needed).
class Handle {
public:
    Handle() = default;
    ~Handle() {
        if (handle_) cusparseDestroy(handle_);
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    cusparseHandle_t get() {
        if (!handle_) CUSPARSE_CHECK(cusparseCreate(&handle_));
        return handle_;
    }

private:
    cusparseHandle_t handle_ = nullptr;
};

template <class T>
cudaDataType value_type() {
    return std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
}

/// One generic SpMV: owns the matrix descriptor, the vector descriptors and the work buffer.
/// The vector descriptors, the buffer and the preprocessing are made on the first call,
/// which is run_on_cuda's untimed checked run.
template <class T>
class GenericSpmv {
public:
    GenericSpmv(cusparseHandle_t handle, cusparseSpMatDescr_t mat, cusparseSpMVAlg_t alg, std::int64_t x_len,
                std::int64_t y_len)
        : handle_(handle), mat_(mat), alg_(alg), x_len_(x_len), y_len_(y_len) {}
    ~GenericSpmv() {
        if (x_) cusparseDestroyDnVec(x_);
        if (y_) cusparseDestroyDnVec(y_);
        if (mat_) cusparseDestroySpMat(mat_);
    }
    GenericSpmv(const GenericSpmv&) = delete;
    GenericSpmv& operator=(const GenericSpmv&) = delete;

    void operator()(const T* x, T* y) {
        if (!x_) prepare(x, y);
        // run_on_cuda passes the same buffers every time; only a change costs a call
        if (x != x_ptr_) CUSPARSE_CHECK(cusparseDnVecSetValues(x_, const_cast<T*>(x)));
        if (y != y_ptr_) CUSPARSE_CHECK(cusparseDnVecSetValues(y_, y));
        x_ptr_ = x;
        y_ptr_ = y;
        CUSPARSE_CHECK(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, x_, &one_, y_,
                                    value_type<T>(), alg_, buffer_.data()));
    }

private:
    void prepare(const T* x, T* y) {
        CUSPARSE_CHECK(cusparseCreateDnVec(&x_, x_len_, const_cast<T*>(x), value_type<T>()));
        CUSPARSE_CHECK(cusparseCreateDnVec(&y_, y_len_, y, value_type<T>()));
        x_ptr_ = x;
        y_ptr_ = y;
        std::size_t bytes = 0;
        CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, x_, &one_, y_,
                                               value_type<T>(), alg_, &bytes));
        buffer_.allocate(bytes);
        CUSPARSE_CHECK(cusparseSpMV_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, x_, &one_, y_,
                                               value_type<T>(), alg_, buffer_.data()));
    }

    cusparseHandle_t handle_;
    cusparseSpMatDescr_t mat_ = nullptr;
    cusparseSpMVAlg_t alg_;
    std::int64_t x_len_, y_len_;
    cusparseDnVecDescr_t x_ = nullptr, y_ = nullptr;
    const T* x_ptr_ = nullptr;
    const T* y_ptr_ = nullptr;
    kit::DeviceBuffer<unsigned char> buffer_;
    T one_ = 1;
};

template <class T>
kit::RunResult run_csr(Handle& handle, const kit::CooMatrix& A, const std::vector<double>& x,
                       const std::vector<double>& y, const kit::RunOptions& opt, cusparseSpMVAlg_t alg) {
    const kit::Csr<T> host = kit::Csr<T>::from_coo(A);
    kit::DeviceCsr<T> dev(host);
    cusparseSpMatDescr_t mat = nullptr;
    CUSPARSE_CHECK(cusparseCreateCsr(&mat, host.rows, host.cols, host.nnz(), dev.row_ptr.data(), dev.col_idx.data(),
                                     dev.vals.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                     value_type<T>()));
    GenericSpmv<T> spmv(handle.get(), mat, alg, host.cols, host.rows);
    kit::RunResult out = kit::run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) { spmv(xp, yp); });
    out.bytes = kit::csr_bytes_of(host, sizeof(T));
    return out;
}

template <class T>
kit::RunResult run_coo(Handle& handle, const kit::CooMatrix& A, const std::vector<double>& x,
                       const std::vector<double>& y, const kit::RunOptions& opt) {
    const kit::Coo<T> host = kit::Coo<T>::from_coo(A);
    kit::DeviceCoo<T> dev(host);
    cusparseSpMatDescr_t mat = nullptr;
    CUSPARSE_CHECK(cusparseCreateCoo(&mat, host.rows, host.cols, static_cast<std::int64_t>(host.vals.size()),
                                     dev.row_idx.data(), dev.col_idx.data(), dev.vals.data(), CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, value_type<T>()));
    GenericSpmv<T> spmv(handle.get(), mat, CUSPARSE_SPMV_ALG_DEFAULT, host.cols, host.rows);
    kit::RunResult out = kit::run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) { spmv(xp, yp); });
    out.bytes = kit::coo_bytes_of(host, sizeof(T));
    return out;
}

// ------------------------------------------------------------------ BSR

/// Square-block BSR on the host; blocks row-major, block columns sorted in each block row.
template <class T>
struct HostBsr {
    int b = 1;                     // block size
    index_t mb = 0, nb = 0;        // block rows, block columns
    std::vector<index_t> row_ptr;  // mb+1 offsets into col
    std::vector<index_t> col;      // block column of each block
    std::vector<T> vals;           // b*b values per block
};

/// Blocks that b x b tiling stores. Rows are sorted, so a block row's entries are contiguous
/// and one "last block row seen" per block column finds the distinct blocks in O(nnz).
count_t count_blocks(const kit::CooMatrix& A, int b) {
    std::vector<index_t> last((A.cols + b - 1) / b, -1);
    count_t blocks = 0;
    for (count_t k = 0; k < A.nnz(); ++k) {
        const index_t I = A.row_idx[k] / b, J = A.col_idx[k] / b;
        if (last[J] != I) {
            last[J] = I;
            ++blocks;
        }
    }
    return blocks;
}

constexpr double kMaxBsrFill = 3.0;

/// Key of the BSR baseline's one tunable, the side b of its square blocks: declared once, in
/// bsr_tunables().
const std::string kBsrBlock = "bsr_block";

/// The tunables cusparse-bsr reads (Variant::tunables): forced sizes cover lab 05's 1..4 range
/// where cuSPARSE allows them (b >= 2), so that --bcsr-sweep compares like with like.
std::vector<kit::Tunable> bsr_tunables() {
    return {{kBsrBlock, 2, 4,
             "side b of the square b x b blocks; absent: the b of 2, 3, 4, 5, 6, 8 with "
             "the fewest bytes in the BCSR model"}};
}

/// The block size with the fewest bytes in the BCSR model, or the forced one.
int pick_block_size(const kit::CooMatrix& A, const kit::RunOptions& opt, count_t value_bytes, std::string& note) {
    std::vector<int> candidates = {2, 3, 4, 5, 6, 8};
    if (const int forced = opt.tunable(kBsrBlock); forced > 0) candidates = {forced};
    int best = candidates.front();
    count_t best_bytes = -1, best_blocks = 0;
    for (int b : candidates) {
        const count_t blocks = count_blocks(A, b);
        const count_t bytes = kit::bcsr_bytes(A.rows, A.cols, blocks, b, b, value_bytes);
        if (best_bytes < 0 || bytes < best_bytes) {
            best = b;
            best_bytes = bytes;
            best_blocks = blocks;
        }
    }
    const double fill = A.nnz() ? static_cast<double>(best_blocks) * best * best / A.nnz() : 1.0;
    char buf[96];
    std::snprintf(buf, sizeof buf, "block %dx%d, fill %.2f", best, best, fill);
    if (fill > kMaxBsrFill)
        throw kit::ConversionRefused(std::string("cuSPARSE BSR not run: best square ") + buf +
                                     " exceeds the fill limit " + std::to_string(kMaxBsrFill).substr(0, 3));
    note = buf;
    return best;
}

template <class T>
HostBsr<T> build_bsr(const kit::CooMatrix& A, int b) {
    HostBsr<T> h;
    h.b = b;
    h.mb = (A.rows + b - 1) / b;
    h.nb = (A.cols + b - 1) / b;
    h.row_ptr.assign(h.mb + 1, 0);
    std::vector<index_t> seen(h.nb, -1), slot(h.nb, 0), block_cols;
    const count_t nnz = A.nnz(), bb = static_cast<count_t>(b) * b;
    count_t k = 0;
    for (index_t I = 0; I < h.mb; ++I) {
        const count_t begin = k;
        while (k < nnz && A.row_idx[k] / b == I) ++k;
        block_cols.clear();
        for (count_t e = begin; e < k; ++e) {
            const index_t J = A.col_idx[e] / b;
            if (seen[J] != I) {
                seen[J] = I;
                block_cols.push_back(J);
            }
        }
        std::sort(block_cols.begin(), block_cols.end());
        const index_t base = static_cast<index_t>(h.col.size());
        for (std::size_t i = 0; i < block_cols.size(); ++i) slot[block_cols[i]] = base + static_cast<index_t>(i);
        h.col.insert(h.col.end(), block_cols.begin(), block_cols.end());
        h.vals.resize(h.col.size() * bb, T(0));
        for (count_t e = begin; e < k; ++e) {
            const index_t J = A.col_idx[e] / b;
            h.vals[slot[J] * bb + (A.row_idx[e] % b) * b + A.col_idx[e] % b] = static_cast<T>(A.vals[e]);
        }
        h.row_ptr[I + 1] = static_cast<index_t>(h.col.size());
    }
    return h;
}

/// Legacy cusparse[SD]bsrmv, for toolkits whose generic SpMV refuses BSR.
template <class T>
void legacy_bsrmv(cusparseHandle_t handle, cusparseMatDescr_t descr, const HostBsr<T>& h,
                  const kit::DeviceBuffer<index_t>& row_ptr, const kit::DeviceBuffer<index_t>& col,
                  const kit::DeviceBuffer<T>& vals, const T* x, T* y) {
    const T one = 1;
    const int nnzb = static_cast<int>(h.col.size());
    if constexpr (std::is_same_v<T, float>)
        CUSPARSE_CHECK(cusparseSbsrmv(handle, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, h.mb, h.nb,
                                      nnzb, &one, descr, vals.data(), row_ptr.data(), col.data(), h.b, x, &one, y));
    else
        CUSPARSE_CHECK(cusparseDbsrmv(handle, CUSPARSE_DIRECTION_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE, h.mb, h.nb,
                                      nnzb, &one, descr, vals.data(), row_ptr.data(), col.data(), h.b, x, &one, y));
}

template <class T>
kit::RunResult run_bsr(Handle& handle, const kit::CooMatrix& A, const std::vector<double>& x,
                       const std::vector<double>& y, const kit::RunOptions& opt) {
    std::string note;
    const int b = pick_block_size(A, opt, sizeof(T), note);
    const HostBsr<T> h = build_bsr<T>(A, b);
    const kit::DeviceBuffer<index_t> row_ptr(h.row_ptr), col(h.col);
    const kit::DeviceBuffer<T> vals(h.vals);
    // BSR works on whole blocks: x and y are zero-padded to a multiple of b, and y cut back
    std::vector<double> xp(x), yp(y);
    xp.resize(static_cast<std::size_t>(h.nb) * b, 0.0);
    yp.resize(static_cast<std::size_t>(h.mb) * b, 0.0);
    kit::RunResult out;
    try {
        cusparseSpMatDescr_t mat = nullptr;
        CUSPARSE_CHECK(cusparseCreateBsr(&mat, h.mb, h.nb, static_cast<std::int64_t>(h.col.size()), b, b,
                                         const_cast<index_t*>(row_ptr.data()), const_cast<index_t*>(col.data()),
                                         const_cast<T*>(vals.data()), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, value_type<T>(), CUSPARSE_ORDER_ROW));
        GenericSpmv<T> spmv(handle.get(), mat, CUSPARSE_SPMV_BSR_ALG1, static_cast<std::int64_t>(xp.size()),
                            static_cast<std::int64_t>(yp.size()));
        out = kit::run_on_cuda<T>(xp, yp, opt, [&](const T* xd, T* yd) { spmv(xd, yd); });
        note += ", generic API";
    } catch (const CusparseError& e) {
        // not every toolkit's generic SpMV takes BSR (NOT_SUPPORTED); say why in the note
        note += std::string(", generic API refused (") + cusparseGetErrorString(e.status) + ")";
        cusparseMatDescr_t descr = nullptr;
        CUSPARSE_CHECK(cusparseCreateMatDescr(&descr));
        try {
            out = kit::run_on_cuda<T>(xp, yp, opt, [&](const T* xd, T* yd) {
                legacy_bsrmv(handle.get(), descr, h, row_ptr, col, vals, xd, yd);
            });
        } catch (...) {
            cusparseDestroyMatDescr(descr);
            throw;
        }
        cusparseDestroyMatDescr(descr);
        note += ", legacy bsrmv";
    }
    out.y.resize(y.size());
    out.bytes = kit::bcsr_bytes(A.rows, A.cols, static_cast<count_t>(h.col.size()), b, b, sizeof(T));
    out.note = note;
    return out;
}

// ------------------------------------------------------------------ sliced ELL

/// Keys of the sliced-ELL baseline's tunables (declared once, in sell_tunables()): the slice
/// size, and the window in which the kit sorts rows before cuSPARSE sees them.
const std::string kSellSlice = "cusparse_sell_slice";
const std::string kSellSigma = "cusparse_sell_sigma";

/// The tunables cusparse-sell reads: absent, the kit's own defaults (kit::kSellDefaultC and
/// kSellDefaultSigma), so that the baseline and the kit's "sell" kernel store the same arrays.
std::vector<kit::Tunable> sell_tunables() {
    return {{kSellSlice, 1, kit::kSellMaxC, "rows per slice (absent: the kit's default C, 32)", true},
            {kSellSigma, 1, kit::kSellMaxSigma,
             "window in which rows are sorted by length before the upload, 1 or a multiple of the slice "
             "(1: cuSPARSE's plain sliced ELL; absent: the kit's default sigma)",
             true}};
}

/// cuSPARSE's sliced ELL holds no row permutation: it is given the kit's SELL-C-sigma arrays
/// (the same slices, padding column -1, column-major in each slice) and computes the sorted
/// rows, so y is permuted before the run and back after it, outside the timed calls.
template <class T>
kit::RunResult run_sell(Handle& handle, const kit::CooMatrix& A, const std::vector<double>& x,
                        const std::vector<double>& y, const kit::RunOptions& opt) {
    const kit::Sell<T> host = kit::Sell<T>::from_coo(A, {opt.tunable(kSellSlice), opt.tunable(kSellSigma)});
    const kit::DeviceSell<T> dev(host);
    std::vector<double> y_sorted(y.size());
    for (std::size_t p = 0; p < host.perm.size(); ++p) y_sorted[p] = y[host.perm[p]];
    cusparseSpMatDescr_t mat = nullptr;
    CUSPARSE_CHECK(cusparseCreateSlicedEll(&mat, host.rows, host.cols, host.nnz(), host.slots(), host.C,
                                           const_cast<index_t*>(dev.chunk_ptr.data()),
                                           const_cast<index_t*>(dev.col_idx.data()), const_cast<T*>(dev.vals.data()),
                                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                           value_type<T>()));
    GenericSpmv<T> spmv(handle.get(), mat, CUSPARSE_SPMV_SELL_ALG1, host.cols, host.rows);
    kit::RunResult out = kit::run_on_cuda<T>(x, y_sorted, opt, [&](const T* xp, T* yp) { spmv(xp, yp); });
    std::vector<double> y_back(out.y.size());
    for (std::size_t p = 0; p < host.perm.size(); ++p) y_back[host.perm[p]] = out.y[p];
    out.y = std::move(y_back);
    // The kit's SELL model less what cuSPARSE does not read: the chunk widths and the permutation.
    out.bytes = kit::sell_bytes(host.rows, host.cols, host.chunks(), host.slots(), sizeof(T)) -
                static_cast<count_t>(host.chunks()) * 4 -
                static_cast<count_t>(host.rows) * 4;
    out.note = "slice " + std::to_string(host.C) + ", rows sorted by the kit in windows of " +
               std::to_string(host.sigma) + " (y permuted outside the timed calls), beta " +
               kit::format_fill(host.beta());
    return out;
}

/// A variant's run function: `run(tag, handle, A, x, y, opt)` in the options' precision, on the
/// handle every cuSPARSE variant shares.
template <class Run>
kit::RunFunction on_handle(const std::shared_ptr<Handle>& handle, Run run) {
    return [handle, run](const kit::CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                         const kit::RunOptions& opt) {
        return kit::dispatch_precision(opt.precision, [&](auto tag) { return run(tag, *handle, A, x, y, opt); });
    };
}

}  // namespace

void add_cusparse_variants(std::vector<kit::Variant>& out) {
    using kit::Backend;
    const auto handle = std::make_shared<Handle>();
    out.push_back(
        {"cusparse-csr", Backend::cuda, "cusparse", 0, "cuSPARSE generic SpMV on CSR, default algorithm",
         on_handle(handle, [](auto tag, Handle& h, const auto& A, const auto& x, const auto& y, const auto& opt) {
             return run_csr<decltype(tag)>(h, A, x, y, opt, CUSPARSE_SPMV_ALG_DEFAULT);
         })});
    out.push_back(
        {"cusparse-csr-alg2", Backend::cuda, "cusparse", 0, "cuSPARSE generic SpMV on CSR, CSR_ALG2",
         on_handle(handle, [](auto tag, Handle& h, const auto& A, const auto& x, const auto& y, const auto& opt) {
             return run_csr<decltype(tag)>(h, A, x, y, opt, CUSPARSE_SPMV_CSR_ALG2);
         })});
    out.push_back({"cusparse-coo", Backend::cuda, "cusparse", 0, "cuSPARSE generic SpMV on COO, default algorithm",
                   on_handle(handle, [](auto tag, Handle& h, const auto& A, const auto& x, const auto& y,
                                        const auto& opt) { return run_coo<decltype(tag)>(h, A, x, y, opt); })});
    out.push_back({"cusparse-bsr", Backend::cuda, "cusparse", 0, "cuSPARSE SpMV on BSR with square blocks",
                   on_handle(handle, [](auto tag, Handle& h, const auto& A, const auto& x, const auto& y,
                                        const auto& opt) { return run_bsr<decltype(tag)>(h, A, x, y, opt); })});
    out.back().tunables = bsr_tunables();
    out.push_back({"cusparse-sell", Backend::cuda, "cusparse", 0,
                   "cuSPARSE SpMV on sliced ELL (SELL_ALG1), the kit's slices and row order",
                   on_handle(handle, [](auto tag, Handle& h, const auto& A, const auto& x, const auto& y,
                                        const auto& opt) { return run_sell<decltype(tag)>(h, A, x, y, opt); })});
    out.back().tunables = sell_tunables();
}

}  // namespace bench
