// cuBLAS GEMV baselines as kit variants (see cublas_baselines.hpp).
#include <cublas_v2.h>

#include <string>

#include "measure/bytes_model.hpp"
#include "cublas_baselines.hpp"
#include "gpu/cuda_run.hpp"
#include "formats/dense.hpp"
#include "core/kit_error.hpp"

namespace bench {
namespace {

void cublas_check(cublasStatus_t s, const char* call, const char* file, int line) {
    if (s != CUBLAS_STATUS_SUCCESS)
        throw kit::Error(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: status " +
                         std::to_string(static_cast<int>(s)));
}
#define CUBLAS_CHECK(call) cublas_check((call), #call, __FILE__, __LINE__)

cublasHandle_t g_handle = nullptr;

cublasHandle_t handle() {
    if (!g_handle) CUBLAS_CHECK(cublasCreate(&g_handle));  // default stream, pointer mode host
    return g_handle;
}

cublasStatus_t gemv(cublasOperation_t op, int m, int n, const float* alpha, const float* A, int lda, const float* x,
                    const float* beta, float* y) {
    return cublasSgemv(handle(), op, m, n, alpha, A, lda, x, 1, beta, y, 1);
}
cublasStatus_t gemv(cublasOperation_t op, int m, int n, const double* alpha, const double* A, int lda, const double* x,
                    const double* beta, double* y) {
    return cublasDgemv(handle(), op, m, n, alpha, A, lda, x, 1, beta, y, 1);
}

kit::RunFunction cublas_gemv(bool transposed) {
    return [transposed](const kit::CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                        const kit::RunOptions& opt) {
        return kit::dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const kit::Dense<T> host = transposed ? kit::Dense<T>::transposed_from_coo(A) : kit::Dense<T>::from_coo(A);
            const kit::DeviceBuffer<T> vals(host.vals);
            const T one = 1;
            const cublasOperation_t op = transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
            kit::RunResult out = kit::run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) {
                if (host.rows > 0 && host.cols > 0)
                    CUBLAS_CHECK(gemv(op, host.rows, host.cols, &one, vals.data(), host.lda, xp, &one, yp));
            });
            out.bytes = kit::dense_bytes(A.rows, A.cols, sizeof(T));
            return out;
        });
    };
}

}  // namespace

void add_cublas_variants(std::vector<kit::Variant>& out) {
    out.push_back({"cublas-gemv", kit::Backend::cuda, "cublas", 0, "cublas[SD]gemv, CUBLAS_OP_N, column-major A",
                   cublas_gemv(false)});
    out.push_back({"cublas-gemv-t", kit::Backend::cuda, "cublas", 0, "cublas[SD]gemv, CUBLAS_OP_T on A^T",
                   cublas_gemv(true)});
}

void release_cublas() {
    if (g_handle) cublasDestroy(g_handle);
    g_handle = nullptr;
}

}  // namespace bench
