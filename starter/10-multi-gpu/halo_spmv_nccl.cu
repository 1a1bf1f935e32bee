// Lab 10 step 4: the halo exchange and the remote rows with NCCL on one stream, the local product
// on another.
#include "dist_nccl.hpp"
#include "gpu/cuda_check.hpp"

namespace kit::dist {

template <class T>
void halo_spmv_nccl(DeviceRankBlock<T>& d, const CommPlan& plan, const T* x_local, T* y_local, ncclComm_t comm,
                    cudaStream_t local_stream, cudaStream_t comm_stream) {
    // TODO(10-multi-gpu step 4): gather, exchange and remote rows on comm_stream, local block on local_stream, wait on an event, add the remote rows
    kit::todo("10-multi-gpu", 4, "halo_spmv_nccl: NCCL exchange overlapping the local product");
}

template void halo_spmv_nccl(DeviceRankBlock<float>&, const CommPlan&, const float*, float*, ncclComm_t, cudaStream_t,
                             cudaStream_t);
template void halo_spmv_nccl(DeviceRankBlock<double>&, const CommPlan&, const double*, double*, ncclComm_t,
                             cudaStream_t, cudaStream_t);

}  // namespace kit::dist
