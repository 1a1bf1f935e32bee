// Lab 10's given GPU code: the rank-local CSR product, the gather of the values to send, and the
// local product through a bound kit kernel (DeviceRankBlock::multiply_local).
#include "dist_nccl.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/cuda_run.hpp"

namespace kit::dist {
namespace cuda {

namespace kernel {
/// Each thread computes y[row] += A[row,:] * x for one row.
template <class T>
__global__ void csr_rows(CsrView<T> A, const T* x, T* y) {
    const index_t row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= A.rows) return;
    T sum = 0;
    for (index_t k = A.row_ptr[row]; k < A.row_ptr[row + 1]; ++k) sum += A.vals[k] * x[A.col_idx[k]];
    y[row] += sum;
}
/// Each thread copies one value: out[i] = x[idx[i]].
template <class T>
__global__ void gather(const index_t* idx, index_t n, const T* x, T* out) {
    const index_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[idx[i]];
}
}  // namespace kernel

template <class T>
void csr_rows_spmv(CsrView<T> A, const T* x, T* y, cudaStream_t stream) {
    if (A.rows == 0) return;
    kernel::csr_rows<<<grid_for(A.rows, 256), 256, 0, stream>>>(A, x, y);
    KIT_CHECK_LAUNCH();
}

template <class T>
void gather_by_index(const index_t* idx, index_t n, const T* x, T* out, cudaStream_t stream) {
    if (n == 0) return;
    kernel::gather<<<grid_for(n, 256), 256, 0, stream>>>(idx, n, x, out);
    KIT_CHECK_LAUNCH();
}

}  // namespace cuda

void create_lab_streams(cudaStream_t& local_stream, cudaStream_t& comm_stream) {
    int lowest = 0, highest = 0;  // numerically, the highest priority is the lowest number
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    CUDA_CHECK(cudaStreamCreateWithFlags(&local_stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithPriority(&comm_stream, cudaStreamNonBlocking, highest));
}

template <class T>
void DeviceRankBlock<T>::bind_local(const Variant& v, const RankBlock<T>& b) {
    RunOptions opt;
    opt.precision = std::is_same_v<T, float> ? Precision::f32 : Precision::f64;
    local_kernel = bind_kernel(v, b.local.to_coo(), opt);
}

template <class T>
void DeviceRankBlock<T>::multiply_local(const T* x, T* y, cudaStream_t stream) {
    if (!local_kernel) {
        cuda::csr_rows_spmv(local.view(), x, y, stream);
        return;
    }
    cudaEvent_t before, after;
    CUDA_CHECK(cudaEventCreateWithFlags(&before, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&after, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(before, stream));
    CUDA_CHECK(cudaStreamWaitEvent(cudaStreamLegacy, before, 0));
    local_kernel->apply(x, y);
    CUDA_CHECK(cudaEventRecord(after, cudaStreamLegacy));
    CUDA_CHECK(cudaStreamWaitEvent(stream, after, 0));
    CUDA_CHECK(cudaEventDestroy(before));  // released once the waits are done
    CUDA_CHECK(cudaEventDestroy(after));
}

template struct DeviceRankBlock<float>;
template struct DeviceRankBlock<double>;

namespace cuda {
template void csr_rows_spmv(CsrView<float>, const float*, float*, cudaStream_t);
template void csr_rows_spmv(CsrView<double>, const double*, double*, cudaStream_t);
template void gather_by_index(const index_t*, index_t, const float*, float*, cudaStream_t);
template void gather_by_index(const index_t*, index_t, const double*, double*, cudaStream_t);

}  // namespace cuda
}  // namespace kit::dist
