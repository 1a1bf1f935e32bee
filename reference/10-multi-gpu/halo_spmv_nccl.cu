// Lab 10 step 4: the halo exchange and the remote rows with NCCL on one stream, the local product
// on another.
#include "dist_nccl.hpp"
#include "gpu/cuda_check.hpp"

namespace kit::dist {

template <class T>
void halo_spmv_nccl(DeviceRankBlock<T>& d, const CommPlan& plan, const T* x_local, T* y_local, ncclComm_t comm,
                    cudaStream_t local_stream, cudaStream_t comm_stream) {
    // BEGIN SOLUTION(step 4: gather, exchange and remote rows on comm_stream, local block on local_stream, wait on an event, add the remote rows)
    // STARTER: kit::todo("10-multi-gpu", 4, "halo_spmv_nccl: NCCL exchange overlapping the local product");
    cuda::gather_by_index(d.send_idx.data(), static_cast<index_t>(plan.send_idx.size()), x_local, d.send_buf.data(),
                          comm_stream);
    // The local product before the NCCL group in host order: the GPU starts it while the host is
    // still in ncclGroupEnd (microseconds); comm_stream's priority lets the exchange in beside it.
    d.multiply_local(x_local, y_local, local_stream);
    NCCL_CHECK(ncclGroupStart());
    for (std::size_t k = 0; k < plan.recv_peers.size(); ++k)
        NCCL_CHECK(ncclRecv(d.halo.data() + plan.recv_offsets[k], plan.recv_offsets[k + 1] - plan.recv_offsets[k],
                            nccl_type<T>(), plan.recv_peers[k], comm, comm_stream));
    for (std::size_t k = 0; k < plan.send_peers.size(); ++k)
        NCCL_CHECK(ncclSend(d.send_buf.data() + plan.send_offsets[k], plan.send_offsets[k + 1] - plan.send_offsets[k],
                            nccl_type<T>(), plan.send_peers[k], comm, comm_stream));
    NCCL_CHECK(ncclGroupEnd());
    // The remote rows' sums go to a vector of their own, so they too run beside the local
    // product; only the scatter-add into y waits for both.
    d.multiply_remote_rows(comm_stream);
    cudaEvent_t remote_ready;
    CUDA_CHECK(cudaEventCreateWithFlags(&remote_ready, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(remote_ready, comm_stream));
    CUDA_CHECK(cudaStreamWaitEvent(local_stream, remote_ready, 0));
    CUDA_CHECK(cudaEventDestroy(remote_ready));  // released once the wait is done
    d.add_remote(y_local, local_stream);
    // END SOLUTION
}

template void halo_spmv_nccl(DeviceRankBlock<float>&, const CommPlan&, const float*, float*, ncclComm_t, cudaStream_t,
                             cudaStream_t);
template void halo_spmv_nccl(DeviceRankBlock<double>&, const CommPlan&, const double*, double*, ncclComm_t,
                             cudaStream_t, cudaStream_t);

}  // namespace kit::dist
