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

namespace {
/// A bound kernel's y += A x ordered on `stream`: after the work already there, before the
/// work enqueued there later (the kernel itself launches on the legacy default stream).
template <class T>
void apply_on_stream(BoundKernel& kernel, const T* x, T* y, cudaStream_t stream) {
    cudaEvent_t before, after;
    CUDA_CHECK(cudaEventCreateWithFlags(&before, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&after, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(before, stream));
    CUDA_CHECK(cudaStreamWaitEvent(cudaStreamLegacy, before, 0));
    kernel.apply(x, y);
    CUDA_CHECK(cudaEventRecord(after, cudaStreamLegacy));
    CUDA_CHECK(cudaStreamWaitEvent(stream, after, 0));
    CUDA_CHECK(cudaEventDestroy(before));  // released once the waits are done
    CUDA_CHECK(cudaEventDestroy(after));
}

template <class T>
std::unique_ptr<BoundKernel> bind_block(const Variant& v, const Csr<T>& block) {
    RunOptions opt;
    opt.precision = precision_of<T>();
    return bind_kernel(v, block.to_coo(), opt);
}
}  // namespace

template <class T>
void DeviceRankBlock<T>::bind_local(const Variant& v, const RankBlock<T>& b) {
    local_kernel = bind_block(v, b.local);
}

template <class T>
void DeviceRankBlock<T>::bind_remote(const Variant& v, const RankBlock<T>& b) {
    remote_kernel = b.remote.nnz() > 0 ? bind_block(v, b.remote) : nullptr;
}

template <class T>
void DeviceRankBlock<T>::multiply_local(const T* x, T* y, cudaStream_t stream) {
    if (local_kernel)
        apply_on_stream(*local_kernel, x, y, stream);
    else
        cuda::csr_rows_spmv(local.view(), x, y, stream);
}

template <class T>
void DeviceRankBlock<T>::multiply_remote(T* y, cudaStream_t stream) {
    if (remote.vals.size() == 0) return;  // the halo is empty: a launch over empty rows would only cost time
    if (remote_kernel)
        apply_on_stream(*remote_kernel, static_cast<const T*>(halo.data()), y, stream);
    else
        cuda::csr_rows_spmv(remote.view(), halo.data(), y, stream);
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
