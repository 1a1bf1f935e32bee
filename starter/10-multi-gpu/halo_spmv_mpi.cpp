// Lab 10 step 3: the halo exchange with MPI, overlapped with the local product.
#include "core/kit_error.hpp"
#include "dist_mpi.hpp"

namespace kit::dist {

template <class T>
void halo_spmv_mpi(const RankBlock<T>& blk, const CommPlan& plan, const T* x_local, T* y_local, MPI_Comm comm) {
    // TODO(10-multi-gpu step 3): Irecv into the halo, pack and Isend, local product, Waitall, remote product
    kit::todo("10-multi-gpu", 3, "halo_spmv_mpi: exchange the halo while the local block multiplies");
}

template void halo_spmv_mpi(const RankBlock<float>&, const CommPlan&, const float*, float*, MPI_Comm);
template void halo_spmv_mpi(const RankBlock<double>&, const CommPlan&, const double*, double*, MPI_Comm);

}  // namespace kit::dist
