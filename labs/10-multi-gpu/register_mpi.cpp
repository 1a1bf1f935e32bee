// Lab 10's CPU variant, "dist-mpi": every rank of MPI_COMM_WORLD multiplies its rows (step 3)
// and every rank gathers the whole y, so each rank's test sees the same result.
#include "dist_setup.hpp"
#include "measure/bytes_model.hpp"
#include "registry/variants.hpp"

namespace kit {

namespace {

template <class T>
RunResult run_dist_mpi(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                       const RunOptions& opt) {
    dist::ensure_mpi();
    const MPI_Comm comm = MPI_COMM_WORLD;
    dist::RankProblem<T> rp = dist::setup_rank<T>(A, x, y, comm);
    std::vector<T> y_local = rp.y_local;
    dist::halo_spmv_mpi(rp.block, rp.plan, rp.x_local.data(), y_local.data(), comm);
    RunResult out;
    out.y = dist::gather_y(rp, y_local, comm);
    for (int r = 0; r < opt.repeats; ++r) {  // the slowest rank's time, each call on its own
        std::vector<T> scratch = rp.y_local;
        MPI_Barrier(comm);
        const double t0 = MPI_Wtime();
        dist::halo_spmv_mpi(rp.block, rp.plan, rp.x_local.data(), scratch.data(), comm);
        double ms = (MPI_Wtime() - t0) * 1e3, slowest = 0;
        MPI_Allreduce(&ms, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
        out.times_ms.push_back(slowest);
    }
    out.device = "CPU, MPI";
    out.note = dist::halo_note(rp, comm);
    out.bytes = dist::model_bytes(rp, comm);
    return out;
}

}  // namespace

void register_lab_10_multi_gpu_mpi(Registry& r) {
    r.add({"dist-mpi", Backend::cpu, "10-multi-gpu", 3,
           "rows split by nonzeros over the MPI ranks; each rank multiplies its local block while its halo "
           "travels (MPI_Isend/MPI_Irecv), then its remote block",
           [](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y, const RunOptions& opt) {
               return dispatch_precision(opt.precision,
                                         [&](auto t) { return run_dist_mpi<decltype(t)>(A, x, y, opt); });
           }});
}

}  // namespace kit
