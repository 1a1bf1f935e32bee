/// @file gemv_test_support.hpp
/// @brief Lab 09 test helpers: dense problems, and a check of the full GEMV interface
/// (alpha, beta, transpose, lda > rows) against the oracle through kit::run_checked.
///
/// The full interface is checked on the hub problem with the same answer: the oracle computes
/// y' + A' x with A' = alpha op(A) and y' = beta y (in double), so its bound-derived tolerance
/// (kit::spmv_tolerance) covers alpha and beta. The kernel itself gets A, alpha, beta and the
/// original y. Padding rows of lda > rows hold NaN, and with beta = 0 the kernel's y is NaN:
/// a kernel that reads either produces NaN, which never passes.
///
/// Every call into the student's gemv_cpu.cpp and gemv_cuda.cu goes through
/// kit::testing::observe (tests/support/observe.hpp), through kit::testing::observed_run_checked.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "check/checked_run.hpp"
#include "formats/dense.hpp"
#include "gemv_kernels.hpp"
#include "core/kit_error.hpp"
#include "io/generators.hpp"
#include "observe.hpp"
#include "test_support.hpp"
#if KIT_HAVE_CUDA
#include "gpu/cuda_run.hpp"
#endif

// A launch shape, as kit::cuda::gemv_shapes() returns them (labs/09-gemv/gemv_kernels.hpp).
KIT_OBSERVABLE(kit::GemvShape, block_size, thread_y, columns_per_warp)

namespace gemv_test {

/// @brief A dense m x n problem (kit::generate_dense) with random x and y.
/// @param m [in] rows  @param n [in] columns  @param seed [in] random seed
inline kit::testing::Problem dense_problem(kit::index_t m, kit::index_t n, unsigned seed) {
    return kit::testing::random_vectors(kit::generate_dense(m, n, seed), seed + 1);
}

/// @brief One call of the full interface: y <- alpha op(A) x + beta y with an m x n matrix.
struct ApiCase {
    std::string label;   ///< for messages
    kit::index_t m, n;   ///< A is m x n
    kit::index_t lda;    ///< leading dimension (>= m)
    double alpha, beta;  ///< scales (exact in float: the oracle sees the same values)
    kit::Transpose op;   ///< op(A)
};

/// @brief Runs `call` on case c in precision p (CPU or CUDA) and checks it with run_checked.
/// @param name [in] kernel name for messages  @param backend [in] cpu or cuda  @param step [in] lab step
/// @param c [in] the case  @param p [in] precision
/// @param call [in] generic callable call(op, alpha, DenseView<T>, const T* x, T beta, T* y)
template <class Call>
::testing::AssertionResult matches_api(const std::string& name, kit::Backend backend, int step, const ApiCase& c,
                                       kit::Precision p, Call call) {
    const kit::CooMatrix A = kit::generate_dense(c.m, c.n, 7 + c.m * 31 + c.n);
    const bool trans = c.op == kit::Transpose::yes;
    const kit::index_t nx = trans ? c.m : c.n, ny = trans ? c.n : c.m;
    const kit::RandomXY xy = kit::random_xy(nx, ny, c.m + 1000 * c.n);
    const std::vector<double>& x = xy.x;
    const std::vector<double>& y = xy.y;
    std::vector<double> y_scaled(ny);
    for (kit::index_t i = 0; i < ny; ++i) y_scaled[i] = c.beta * y[i];
    kit::CooMatrix scaled;  // alpha op(A): the hub problem with the same answer
    scaled.rows = ny;
    scaled.cols = nx;
    for (kit::count_t k = 0; k < A.nnz(); ++k)
        scaled.add(trans ? A.col_idx[k] : A.row_idx[k], trans ? A.row_idx[k] : A.col_idx[k], c.alpha * A.vals[k]);
    scaled.normalize();
    const kit::Reference ref(scaled, x, y_scaled);
    // with beta = 0, y must not be read: the kernel gets NaN there
    const std::vector<double> y_in = c.beta == 0 ? std::vector<double>(ny, std::nan("")) : y;

    kit::Variant v{name, backend, "09-gemv", step, c.label, {}};
    v.run = [&](const kit::CooMatrix&, const std::vector<double>& xr, const std::vector<double>&,
                const kit::RunOptions& opt) {
        return kit::dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            kit::Dense<T> d = kit::Dense<T>::from_coo(A, c.lda);
            for (kit::index_t j = 0; j < d.cols; ++j)
                for (kit::index_t i = d.rows; i < d.lda; ++i)
                    d.vals[i + static_cast<std::size_t>(j) * d.lda] = std::numeric_limits<T>::quiet_NaN();
            const T alpha = static_cast<T>(c.alpha), beta = static_cast<T>(c.beta);
            if (backend == kit::Backend::cpu)
                return kit::run_on_cpu<T>(xr, y_in, opt,
                                          [&](const T* xp, T* yp) { call(c.op, alpha, d.view(), xp, beta, yp); });
#if KIT_HAVE_CUDA
            const kit::DeviceBuffer<T> vals(d.vals);
            const kit::DenseView<T> view{d.rows, d.cols, d.lda, vals.data()};
            return kit::run_on_cuda<T>(xr, y_in, opt,
                                       [&](const T* xp, T* yp) { call(c.op, alpha, view, xp, beta, yp); });
#else
            throw kit::BackendUnavailable("built without CUDA");
#endif
        });
    };
    kit::RunOptions opt;
    opt.precision = p;
    const kit::CheckedRun r = kit::testing::observed_run_checked(v, ref, opt);  // v.run calls the student's kernel
    if (r.status == kit::RunStatus::ok) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "case '" << c.label << "': " << kit::where(v, p) << ": "
                                         << kit::to_string(r.status) << ": " << r.message;
}

/// @brief matches_api over every case in float and double; names the first failure.
/// @param name [in] kernel name  @param backend [in] backend  @param step [in] step
/// @param cases [in] the cases  @param call [in] as for matches_api
template <class Call>
::testing::AssertionResult passes_api(const std::string& name, kit::Backend backend, int step,
                                      const std::vector<ApiCase>& cases, Call call) {
    for (const ApiCase& c : cases)
        for (kit::Precision p : {kit::Precision::f32, kit::Precision::f64}) {
            auto r = matches_api(name, backend, step, c, p, call);
            if (!r) return r;
        }
    return ::testing::AssertionSuccess();
}

}  // namespace gemv_test

/// @brief The kernels of each step as generic callables for matches_api.
#define GEMV_CPU_CALL \
    [](auto op, auto alpha, auto A, auto x, auto beta, auto y) { kit::cpu::gemv(op, alpha, A, x, beta, y); }
#define GEMV_THREAD_CALL \
    [](auto op, auto alpha, auto A, auto x, auto beta, auto y) { kit::cuda::gemv_thread(op, alpha, A, x, beta, y); }
#define GEMV_BLOCKED_CALL                                                          \
    [](auto op, auto alpha, auto A, auto x, auto beta, auto y) {                   \
        kit::cuda::gemv_blocked<decltype(alpha), 64, 4>(op, alpha, A, x, beta, y); \
    }
#define GEMV_STREAMED_CALL                                                          \
    [](auto op, auto alpha, auto A, auto x, auto beta, auto y) {                    \
        kit::cuda::gemv_streamed<decltype(alpha), 64, 4>(op, alpha, A, x, beta, y); \
    }
#define GEMV_WARP_COLUMNS_CALL                                                      \
    [](auto op, auto alpha, auto A, auto x, auto beta, auto y) {                    \
        kit::cuda::gemv_warp_columns<decltype(alpha), 2>(op, alpha, A, x, beta, y); \
    }
