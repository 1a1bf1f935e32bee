// Lab 10's given GPU code: the rank-local CSR product, the gather of the values to send, the
// scatter-add of the remote rows' sums, and the products through a bound kit kernel
// (DeviceRankBlock::multiply_local and multiply_remote_rows).
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
/// Each thread adds one value: y[idx[i]] += v[i] (distinct indices).
template <class T>
__global__ void scatter_add(const index_t* idx, index_t n, const T* v, T* y) {
    const index_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[idx[i]] += v[i];
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

template <class T>
void scatter_add(const index_t* idx, index_t n, const T* v, T* y, cudaStream_t stream) {
    if (n == 0) return;
    kernel::scatter_add<<<grid_for(n, 256), 256, 0, stream>>>(idx, n, v, y);
    KIT_CHECK_LAUNCH();
}

}  // namespace cuda

template <class T>
CompactRows<T> compact_rows(const Csr<T>& remote) {
    CompactRows<T> r;
    r.block.cols = remote.cols;
    r.block.row_ptr.push_back(0);
    for (index_t i = 0; i < remote.rows; ++i) {
        const index_t begin = remote.row_ptr[i], end = remote.row_ptr[i + 1];
        if (begin == end) continue;
        r.rows.push_back(i);
        r.block.col_idx.insert(r.block.col_idx.end(), remote.col_idx.begin() + begin, remote.col_idx.begin() + end);
        r.block.vals.insert(r.block.vals.end(), remote.vals.begin() + begin, remote.vals.begin() + end);
        r.block.row_ptr.push_back(static_cast<index_t>(r.block.vals.size()));
    }
    r.block.rows = static_cast<index_t>(r.rows.size());
    return r;
}

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
CompactRows<T> DeviceRankBlock<T>::remote_layout(const Csr<T>& remote) {
    CompactRows<T> r = compact_rows(remote);
    if (2 * static_cast<std::size_t>(r.block.rows) < static_cast<std::size_t>(remote.rows)) return r;
    return {remote, {}};  // most rows: the whole block, multiplied into y
}

template <class T>
void DeviceRankBlock<T>::bind_remote(const Variant& v, const RankBlock<T>& b) {
    remote_kernel = b.remote.nnz() > 0 ? bind_block(v, remote_layout(b.remote).block) : nullptr;
}

template <class T>
void DeviceRankBlock<T>::multiply_local(const T* x, T* y, cudaStream_t stream) {
    if (local_kernel)
        apply_on_stream(*local_kernel, x, y, stream);
    else
        cuda::csr_rows_spmv(local.view(), x, y, stream);
}

template <class T>
void DeviceRankBlock<T>::remote_product(T* out, cudaStream_t stream) {
    if (remote_kernel)
        apply_on_stream(*remote_kernel, static_cast<const T*>(halo.data()), out, stream);
    else
        cuda::csr_rows_spmv(remote.view(), halo.data(), out, stream);
}

template <class T>
void DeviceRankBlock<T>::multiply_remote_rows(cudaStream_t stream) {
    if (remote_into_y || remote_rows.size() == 0) return;  // no remote entry: a launch would only cost time
    CUDA_CHECK(cudaMemsetAsync(remote_y.data(), 0, remote_y.size() * sizeof(T), stream));
    remote_product(remote_y.data(), stream);
}

template <class T>
void DeviceRankBlock<T>::add_remote(T* y, cudaStream_t stream) {
    if (remote_into_y)
        remote_product(y, stream);
    else
        cuda::scatter_add(remote_rows.data(), static_cast<index_t>(remote_rows.size()), remote_y.data(), y, stream);
}

template struct DeviceRankBlock<float>;
template struct DeviceRankBlock<double>;
template CompactRows<float> compact_rows(const Csr<float>&);
template CompactRows<double> compact_rows(const Csr<double>&);

namespace cuda {
template void csr_rows_spmv(CsrView<float>, const float*, float*, cudaStream_t);
template void csr_rows_spmv(CsrView<double>, const double*, double*, cudaStream_t);
template void gather_by_index(const index_t*, index_t, const float*, float*, cudaStream_t);
template void gather_by_index(const index_t*, index_t, const double*, double*, cudaStream_t);
template void scatter_add(const index_t*, index_t, const float*, float*, cudaStream_t);
template void scatter_add(const index_t*, index_t, const double*, double*, cudaStream_t);

}  // namespace cuda
}  // namespace kit::dist
