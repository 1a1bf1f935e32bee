// Adversarial submission: the CUDA step done on the CPU. The launcher copies the matrix and
// the vectors to the host, runs a CPU loop and copies y back: y is right, but the GPU did no
// work. On a GPU node the hidden gate Step2_CsrCuda.GpuDidTheWork must fail, and with it every
// test of Step2_CsrCuda (0 of the step's 5 points). Without a GPU the CUDA tests are not run.
#include <vector>

#include "basics_kernels.hpp"
#include "gpu/cuda_run.hpp"

namespace kit::cuda {

template <class T>
static std::vector<T> to_host(const T* p, std::size_t n) {
    std::vector<T> h(n);
    if (n) CUDA_CHECK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    const auto row_ptr = to_host(A.row_ptr, static_cast<std::size_t>(A.rows) + 1);
    const auto nnz = static_cast<std::size_t>(row_ptr.back());
    const auto col_idx = to_host(A.col_idx, nnz);
    const auto vals = to_host(A.vals, nnz);
    const auto hx = to_host(x, static_cast<std::size_t>(A.cols));
    auto hy = to_host(y, static_cast<std::size_t>(A.rows));
    for (index_t i = 0; i < A.rows; ++i)
        for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) hy[i] += vals[k] * hx[col_idx[k]];
    if (!hy.empty()) CUDA_CHECK(cudaMemcpy(y, hy.data(), hy.size() * sizeof(T), cudaMemcpyHostToDevice));
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cuda
