// cuBLAS GEMV baselines as kit variants (see cublas_baselines.hpp).
#include <cublas_v2.h>

#include <memory>
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

/// The cuBLAS handle both variants share: made on the first run, destroyed with the last
/// variant that holds it (the variant lists live in a function, while CUDA is still up).
class Handle {
public:
    Handle() = default;
    ~Handle() {
        if (handle_) cublasDestroy(handle_);
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    cublasHandle_t get() {
        if (!handle_) CUBLAS_CHECK(cublasCreate(&handle_));  // default stream, pointer mode host
        return handle_;
    }

private:
    cublasHandle_t handle_ = nullptr;
};

cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, const float* alpha, const float* A, int lda,
                    const float* x, const float* beta, float* y) {
    return cublasSgemv(h, op, m, n, alpha, A, lda, x, 1, beta, y, 1);
}
cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, const double* alpha, const double* A, int lda,
                    const double* x, const double* beta, double* y) {
    return cublasDgemv(h, op, m, n, alpha, A, lda, x, 1, beta, y, 1);
}

kit::RunFunction cublas_gemv(const std::shared_ptr<Handle>& handle, bool transposed) {
    return [handle, transposed](const kit::CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                const kit::RunOptions& opt) {
        return kit::dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const kit::Dense<T> host = transposed ? kit::Dense<T>::transposed_from_coo(A) : kit::Dense<T>::from_coo(A);
            const kit::DeviceBuffer<T> vals(host.vals);
            const T one = 1;
            const cublasOperation_t op = transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
            const cublasHandle_t h = handle->get();
            kit::RunResult out = kit::run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) {
                if (host.rows > 0 && host.cols > 0)
                    CUBLAS_CHECK(gemv(h, op, host.rows, host.cols, &one, vals.data(), host.lda, xp, &one, yp));
            });
            out.bytes = kit::dense_bytes(A.rows, A.cols, sizeof(T));
            return out;
        });
    };
}

}  // namespace

void add_cublas_variants(std::vector<kit::Variant>& out) {
    const auto handle = std::make_shared<Handle>();
    out.push_back({"cublas-gemv", kit::Backend::cuda, "cublas", 0, "cublas[SD]gemv, CUBLAS_OP_N, column-major A",
                   cublas_gemv(handle, false)});
    out.push_back({"cublas-gemv-t", kit::Backend::cuda, "cublas", 0, "cublas[SD]gemv, CUBLAS_OP_T on A^T",
                   cublas_gemv(handle, true)});
}

}  // namespace bench
