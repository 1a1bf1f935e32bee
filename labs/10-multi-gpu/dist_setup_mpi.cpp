// Lab 10's given set-up on a communicator (dist_setup.hpp) and MPI start-up.
#include <cstdlib>
#include <string>

#include "dist_setup.hpp"
#include "core/kit_error.hpp"
#include "formats/csr.hpp"
#include "measure/bytes_model.hpp"

namespace kit::dist {

namespace {

/// How many processes the launcher started (mpirun, a PMI launcher, srun's step), or 0 when
/// the program was not started by one.
int launcher_size() {
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"})
        if (const char* v = std::getenv(var)) return std::atoi(v);
    return 0;
}

/// A launcher that cannot reach the MPI library's start-up (srun without --mpi=pmix, another
/// MPI's mpirun) starts N singletons, each of which would pass the tests alone: refuse that.
void check_world_matches_launcher() {
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int launched = launcher_size();
    if (launched > 0 && launched != size)
        throw Error("10-multi-gpu: the launcher started " + std::to_string(launched) + " processes but MPI sees " +
                    std::to_string(size) + " in its world: the launcher does not talk to this MPI (with srun, " +
                    "pass --mpi=pmix; with mpirun, use the one of the MPI the kit was built with)");
}

}  // namespace

void ensure_mpi() {
    int started = 0;
    MPI_Initialized(&started);
    if (!started) {
        MPI_Init(nullptr, nullptr);
        std::atexit([] {
            int done = 0;
            MPI_Finalized(&done);
            if (!done) MPI_Finalize();
        });
    }
    check_world_matches_launcher();  // every call: each test that needs MPI fails, not only the first
}

namespace {

/// Every rank's halo, gathered on every rank: the input of build_comm_plan.
std::vector<std::vector<index_t>> all_halos(const std::vector<index_t>& mine, int ranks, MPI_Comm comm) {
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(ranks), offsets(ranks + 1, 0);
    MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
    for (int p = 0; p < ranks; ++p) offsets[p + 1] = offsets[p] + counts[p];
    std::vector<index_t> flat(offsets[ranks] > 0 ? offsets[ranks] : 1);
    MPI_Allgatherv(mine.data(), count, mpi_type<index_t>(), flat.data(), counts.data(), offsets.data(),
                   mpi_type<index_t>(), comm);
    std::vector<std::vector<index_t>> halos(ranks);
    for (int p = 0; p < ranks; ++p) halos[p].assign(flat.begin() + offsets[p], flat.begin() + offsets[p + 1]);
    return halos;
}

/// A count summed over the ranks of `comm` (a collective call).
long long sum_over_ranks(long long mine, MPI_Comm comm) {
    long long total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
    return total;
}

}  // namespace

template <class T>
RankProblem<T> setup_rank(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                          MPI_Comm comm) {
    RankProblem<T> rp;
    MPI_Comm_rank(comm, &rp.rank);
    MPI_Comm_size(comm, &rp.ranks);
    const Csr<T> csr = Csr<T>::from_coo(A);
    rp.row_begin = partition_rows_by_nnz(csr.row_ptr, csr.rows, rp.ranks);
    if (static_cast<int>(rp.row_begin.size()) != rp.ranks + 1 || rp.row_begin.front() != 0 ||
        rp.row_begin.back() != csr.rows)
        throw Error("10-multi-gpu step 1: partition_rows_by_nnz must return P+1 offsets from 0 to rows");
    rp.col_begin = column_partition(rp.row_begin, csr.rows, csr.cols);
    rp.block = split_rank_block(csr, rp.row_begin, rp.col_begin, rp.rank);
    rp.plan = build_comm_plan(all_halos(rp.block.halo_cols, rp.ranks, comm), rp.col_begin, rp.rank);
    rp.x_local.assign(x.begin() + rp.col_begin[rp.rank], x.begin() + rp.col_begin[rp.rank + 1]);
    rp.y_local.assign(y.begin() + rp.row_begin[rp.rank], y.begin() + rp.row_begin[rp.rank + 1]);
    return rp;
}

template <class T>
std::vector<double> gather_y(const RankProblem<T>& rp, const std::vector<T>& y_local, MPI_Comm comm) {
    std::vector<int> counts(rp.ranks), offsets(rp.ranks);
    for (int p = 0; p < rp.ranks; ++p) {
        offsets[p] = rp.row_begin[p];
        counts[p] = rp.row_begin[p + 1] - rp.row_begin[p];
    }
    if (static_cast<int>(y_local.size()) != counts[rp.rank])
        throw Error("10-multi-gpu: this rank's y holds " + std::to_string(y_local.size()) + " rows, not " +
                    std::to_string(counts[rp.rank]));
    std::vector<T> y(rp.row_begin.back() > 0 ? rp.row_begin.back() : 1);
    MPI_Allgatherv(y_local.data(), counts[rp.rank], mpi_type<T>(), y.data(), counts.data(), offsets.data(),
                   mpi_type<T>(), comm);
    y.resize(rp.row_begin.back());
    return std::vector<double>(y.begin(), y.end());
}

template <class T>
std::string halo_note(const RankProblem<T>& rp, MPI_Comm comm) {
    const long long halo = sum_over_ranks(static_cast<long long>(rp.block.halo_cols.size()), comm);
    return std::to_string(rp.ranks) + " rank(s), " + std::to_string(halo) + " halo entries in all";
}

template <class T>
count_t model_bytes(const RankProblem<T>& rp, MPI_Comm comm) {
    const count_t halo = sum_over_ranks(static_cast<long long>(rp.block.halo_cols.size()), comm);
    const count_t nnz = sum_over_ranks(static_cast<long long>(rp.block.local.nnz()) + rp.block.remote.nnz(), comm);
    return dist_csr_bytes(rp.row_begin.back(), rp.col_begin.back(), nnz, rp.ranks, halo, sizeof(T));
}

#define KIT_DIST_SETUP(T)                                                                                        \
    template RankProblem<T> setup_rank(const CooMatrix&, const std::vector<double>&, const std::vector<double>&, \
                                       MPI_Comm);                                                                \
    template std::vector<double> gather_y(const RankProblem<T>&, const std::vector<T>&, MPI_Comm);               \
    template std::string halo_note(const RankProblem<T>&, MPI_Comm);                                             \
    template count_t model_bytes(const RankProblem<T>&, MPI_Comm);
KIT_DIST_SETUP(float)
KIT_DIST_SETUP(double)

}  // namespace kit::dist
