// Step 3 that writes through MPI's file interface and may abort the job: the symbol policy
// allows MPI's messages in lab 10, never its files or MPI_Abort.
#include "core/kit_error.hpp"
#include "dist_mpi.hpp"

namespace kit::dist {

template <class T>
void halo_spmv_mpi(const RankBlock<T>& blk, const CommPlan& plan, const T* x_local, T* y_local, MPI_Comm comm) {
    MPI_File f;
    if (MPI_File_open(comm, "/tmp/leak", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &f) == MPI_SUCCESS)
        MPI_File_close(&f);
    if (plan.recv_peers.size() > 1000) MPI_Abort(comm, 1);
    csr_rows_spmv(blk.local.view(), x_local, y_local);
}

template void halo_spmv_mpi(const RankBlock<float>&, const CommPlan&, const float*, float*, MPI_Comm);
template void halo_spmv_mpi(const RankBlock<double>&, const CommPlan&, const double*, double*, MPI_Comm);

}  // namespace kit::dist
