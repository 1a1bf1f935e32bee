// Lab 10's GPU variant, "dist-nccl": one rank per GPU. The ranks of a node beyond its GPUs wait
// (a communicator of the ranks that hold a GPU multiplies); every rank gets the whole y.
#include <algorithm>
#include <exception>

#include "dist_nccl.hpp"
#include "dist_setup.hpp"
#include "gpu/cuda_check.hpp"
#include "registry/variants.hpp"

namespace kit {

namespace {

/// The ranks that hold a GPU (node-local rank < GPUs of the node), as a communicator of their own.
MPI_Comm gpu_ranks(int& device) {
    MPI_Comm node;
    int node_rank = 0, world_rank = 0, devices = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_free(&node);
    CUDA_CHECK(cudaGetDeviceCount(&devices));
    device = node_rank < devices ? node_rank : -1;
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, device >= 0 ? 0 : MPI_UNDEFINED, world_rank, &comm);
    return comm;
}

/// y_local after one multiply on this rank's GPU, and the cold times of opt.repeats more.
template <class T>
std::vector<T> multiply_on_gpu(const dist::RankProblem<T>& rp, MPI_Comm comm, const RunOptions& opt,
                               std::vector<double>& times_ms) {
    ncclUniqueId id;
    if (rp.rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm);
    ncclComm_t nccl;
    NCCL_CHECK(ncclCommInitRank(&nccl, rp.ranks, id, rp.rank));
    cudaStream_t local_stream, comm_stream;
    dist::create_lab_streams(local_stream, comm_stream);
    std::vector<T> y_local;
    {
        dist::DeviceRankBlock<T> d(rp.block, rp.plan);
        DeviceBuffer<T> x(rp.x_local), y(rp.y_local);
        dist::halo_spmv_nccl(d, rp.plan, x.data(), y.data(), nccl, local_stream, comm_stream);
        CUDA_CHECK(cudaStreamSynchronize(local_stream));
        CUDA_CHECK(cudaStreamSynchronize(comm_stream));
        y_local = y.download();
        for (int r = 0; r < opt.repeats; ++r) {
            MPI_Barrier(comm);
            const double t0 = MPI_Wtime();
            dist::halo_spmv_nccl(d, rp.plan, x.data(), y.data(), nccl, local_stream, comm_stream);
            CUDA_CHECK(cudaStreamSynchronize(local_stream));
            double ms = (MPI_Wtime() - t0) * 1e3, slowest = 0;
            MPI_Allreduce(&ms, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
            times_ms.push_back(slowest);
        }
    }
    CUDA_CHECK(cudaStreamDestroy(local_stream));
    CUDA_CHECK(cudaStreamDestroy(comm_stream));
    NCCL_CHECK(ncclCommDestroy(nccl));
    return y_local;
}

template <class T>
RunResult run_dist_nccl(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                        const RunOptions& opt) {
    dist::ensure_mpi();
    int device = -1;
    MPI_Comm comm = gpu_ranks(device);
    RunResult out;
    out.y.assign(A.rows, 0.0);
    std::exception_ptr failed;
    if (comm != MPI_COMM_NULL) {
        try {
            CUDA_CHECK(cudaSetDevice(device));
            const dist::RankProblem<T> rp = dist::setup_rank<T>(A, x, y, comm);
            const std::vector<T> y_local = multiply_on_gpu(rp, comm, opt, out.times_ms);
            out.y = dist::gather_y(rp, y_local, comm);
            out.note = dist::halo_note(rp, comm) + ", one GPU each";
            out.bytes = dist::model_bytes(rp, comm);
        } catch (...) {
            failed = std::current_exception();
        }
        MPI_Comm_free(&comm);
    }
    // A rank that failed says so to all, so that none waits for it in the broadcast below.
    int mine = failed ? 1 : 0, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (failed) std::rethrow_exception(failed);
    if (any) throw Error("10-multi-gpu step 4: another rank's multiply failed (see rank 0's error)");
    // World rank 0 holds a GPU (node-local rank 0): it hands the result to the waiting ranks.
    MPI_Bcast(out.y.data(), static_cast<int>(out.y.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int times = static_cast<int>(out.times_ms.size());
    MPI_Bcast(&times, 1, MPI_INT, 0, MPI_COMM_WORLD);
    out.times_ms.resize(times);
    MPI_Bcast(out.times_ms.data(), times, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    out.device = backend_device_name(Backend::cuda) + ", NCCL";
    return out;
}

}  // namespace

void register_lab_10_multi_gpu_nccl(Registry& r) {
    r.add({"dist-nccl", Backend::cuda, "10-multi-gpu", 4,
           "one rank per GPU, rows split by nonzeros; the halo gathered on the GPU and exchanged with NCCL on one "
           "stream while each thread of the local product computes one row on another, then the remote block",
           [](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y, const RunOptions& opt) {
               return dispatch_precision(opt.precision, [&](auto t) { return run_dist_nccl<decltype(t)>(A, x, y, opt); });
           }});
}

}  // namespace kit
