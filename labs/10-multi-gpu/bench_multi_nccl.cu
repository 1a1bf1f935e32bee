// Lab 10's strong-scaling benchmark (bench_multi.hpp): the distributed multiply of steps 1 to 4 in
// steady state, its parts alone, the halo's bytes and the link bandwidth, one GPU per rank; with
// --timeline, when each part of a few more iterations ran on each stream.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "bench_multi.hpp"
#include "dist_nccl.hpp"
#include "dist_setup.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/cuda_run.hpp"
#include "io/generators.hpp"
#include "registry/variants.hpp"

namespace kit::dist {

namespace {

CooMatrix bench_matrix(const BenchMultiOptions& o) {
    if (o.matrix == "stencil27") return generate_stencil3d(o.n, 27);
    if (o.matrix == "random") return generate_random(o.n, o.n, 32, 21);  // the suite's, scaled up
    if (o.matrix == "power-law") return generate_power_law(o.n, o.n, 1.0, 31);
    throw Error("unknown --matrix '" + o.matrix + "' (stencil27, random or power-law)");
}

/// Picks this rank's GPU (its rank on the node); every rank learns whether all have one.
/// @return "" when all have one, else why not (the same text on every rank)
std::string pick_gpus(MPI_Comm comm) {
    MPI_Comm node;
    int node_rank = 0, devices = 0;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_free(&node);
    const std::optional<std::string> none = backend_unavailable(Backend::cuda);
    if (!none) CUDA_CHECK(cudaGetDeviceCount(&devices));
    int ok = !none && node_rank < devices ? 1 : 0, all = 0;
    if (ok) CUDA_CHECK(cudaSetDevice(node_rank));
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    if (all) return "";
    if (none) return "bench_multi needs one GPU per rank: " + *none;
    return "bench_multi needs one GPU per rank: a node has " + std::to_string(devices) +
           " GPU(s) for more ranks (start fewer ranks per node, or see jobs/ for a GPU node)";
}

/// Milliseconds per call of `enqueue` (which only queues GPU work), the slowest rank's: `warmup`
/// untimed calls, then `iters` back to back with one synchronisation at the end.
template <class F>
double per_iteration_ms(F&& enqueue, int warmup, int iters, MPI_Comm comm) {
    for (int i = 0; i < warmup; ++i) enqueue();
    CUDA_CHECK(cudaDeviceSynchronize());
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) enqueue();
    CUDA_CHECK(cudaDeviceSynchronize());
    double ms = (MPI_Wtime() - t0) * 1e3 / iters, slowest = 0;
    MPI_Allreduce(&ms, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    return slowest;
}

/// The link bandwidth in GB/s one way, measured with 256 MB each way between ranks r and r^1 at
/// once (a partner-less last rank waits); 0 on one rank.
double link_gbs(ncclComm_t nccl, int rank, int ranks, cudaStream_t stream, MPI_Comm comm) {
    if (ranks < 2) return 0;
    const std::size_t count = std::size_t{32} << 20;  // doubles: 256 MB
    DeviceBuffer<double> out(count), in(count);
    const int peer = rank ^ 1;
    const double ms = per_iteration_ms(
        [&] {
            if (peer >= ranks) return;
            NCCL_CHECK(ncclGroupStart());
            NCCL_CHECK(ncclSend(out.data(), count, ncclFloat64, peer, nccl, stream));
            NCCL_CHECK(ncclRecv(in.data(), count, ncclFloat64, peer, nccl, stream));
            NCCL_CHECK(ncclGroupEnd());
        },
        2, 5, comm);
    return count * sizeof(double) / (ms * 1e6);
}

/// The registered CUDA variant named `name` (given to `option`), or an Error that says where the
/// names are listed.
const Variant& cuda_kernel(const std::string& option, const std::string& name) {
    const Variant* v = registry().find(name, Backend::cuda);
    if (!v)
        throw Error(option + " " + name +
                    ": no CUDA kernel of that name ('spmv-kit list' shows them; 'given' is the lab's scalar CSR "
                    "kernel)");
    return *v;
}

/// One multiply checked before anything is timed: y (zero at first) against this rank's rows of
/// A x computed on the host from its blocks and the whole x. Throws Error naming the largest
/// relative error when a rank is off by more than rounding.
void verify_once(DeviceRankBlock<double>& d, const RankProblem<double>& rp, const std::vector<double>& x,
                 const DeviceBuffer<double>& xd, DeviceBuffer<double>& yd, ncclComm_t nccl, cudaStream_t ls,
                 cudaStream_t cs, MPI_Comm comm) {
    halo_spmv_nccl(d, rp.plan, xd.data(), yd.data(), nccl, ls, cs);
    CUDA_CHECK(cudaStreamSynchronize(ls));
    CUDA_CHECK(cudaStreamSynchronize(cs));
    const std::vector<double> got = yd.download();
    const RankBlock<double>& b = rp.block;
    double worst = 0;
    for (index_t r = 0; r < b.local.rows; ++r) {
        double want = 0, scale = 0;
        for (index_t k = b.local.row_ptr[r]; k < b.local.row_ptr[r + 1]; ++k) {
            want += b.local.vals[k] * x[b.col_begin + b.local.col_idx[k]];
            scale += std::fabs(b.local.vals[k] * x[b.col_begin + b.local.col_idx[k]]);
        }
        for (index_t k = b.remote.row_ptr[r]; k < b.remote.row_ptr[r + 1]; ++k) {
            want += b.remote.vals[k] * x[b.halo_cols[b.remote.col_idx[k]]];
            scale += std::fabs(b.remote.vals[k] * x[b.halo_cols[b.remote.col_idx[k]]]);
        }
        worst = std::max(worst, std::fabs(got[r] - want) / std::max(scale, 1e-300));
    }
    MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (worst > 1e-12)
        throw Error("the distributed y is wrong before timing: largest error " + std::to_string(worst) +
                    " of the row's sum of |a x| (step 4, or the --local kernel)");
}

/// Milliseconds per iteration, each the slowest rank's; latency: the exchange with one value a
/// message (the same gather launch, peers and NCCL group), the part no bandwidth explains;
/// gather_extra: the gather of the whole send lists alone less the one-value gather's time, the
/// memory traffic of packing the messages (a random matrix's send lists reach x at random).
struct PartTimes {
    double iter = 0, local = 0, exchange = 0, remote = 0, latency = 0, gather_extra = 0;
};

/// Enqueues the first half of step 4's exchange on `cs`: the gather of x_local[send_idx] into
/// send_buf (with one_value, only as many values as there are peers).
void enqueue_gather(DeviceRankBlock<double>& d, const CommPlan& plan, const double* x, cudaStream_t cs,
                    bool one_value) {
    const index_t gathered = one_value ? static_cast<index_t>(std::min(plan.send_idx.size(), plan.send_peers.size()))
                                       : static_cast<index_t>(plan.send_idx.size());
    cuda::gather_by_index(d.send_idx.data(), gathered, x, d.send_buf.data(), cs);
}

/// Enqueues the second half on `cs`: one NCCL group of a receive and a send per peer, from
/// send_buf into the halo. With one_value, each message carries one value instead.
void enqueue_nccl_group(DeviceRankBlock<double>& d, const CommPlan& plan, ncclComm_t nccl, cudaStream_t cs,
                        bool one_value) {
    const auto size = [one_value](const std::vector<index_t>& offsets, std::size_t k) {
        return one_value ? std::min<std::size_t>(1, offsets[k + 1] - offsets[k]) : offsets[k + 1] - offsets[k];
    };
    NCCL_CHECK(ncclGroupStart());
    for (std::size_t k = 0; k < plan.recv_peers.size(); ++k)
        NCCL_CHECK(ncclRecv(d.halo.data() + plan.recv_offsets[k], size(plan.recv_offsets, k), ncclFloat64,
                            plan.recv_peers[k], nccl, cs));
    for (std::size_t k = 0; k < plan.send_peers.size(); ++k)
        NCCL_CHECK(ncclSend(d.send_buf.data() + plan.send_offsets[k], size(plan.send_offsets, k), ncclFloat64,
                            plan.send_peers[k], nccl, cs));
    NCCL_CHECK(ncclGroupEnd());
}

/// Enqueues step 4's whole exchange on `cs`: the gather, then the NCCL group.
void enqueue_exchange(DeviceRankBlock<double>& d, const CommPlan& plan, const double* x, ncclComm_t nccl,
                      cudaStream_t cs, bool one_value) {
    enqueue_gather(d, plan, x, cs, one_value);
    enqueue_nccl_group(d, plan, nccl, cs, one_value);
}

/// The whole multiply in steady state (each exchange waits for the previous product, as x would
/// wait for y in a solver), then the local product, the exchange and the remote product alone.
PartTimes time_parts(DeviceRankBlock<double>& d, const CommPlan& plan, const double* x, double* y, ncclComm_t nccl,
                     cudaStream_t ls, cudaStream_t cs, const BenchMultiOptions& o, MPI_Comm comm) {
    cudaEvent_t y_done;
    CUDA_CHECK(cudaEventCreateWithFlags(&y_done, cudaEventDisableTiming));
    PartTimes t;
    t.iter = per_iteration_ms(
        [&] {
            CUDA_CHECK(cudaEventRecord(y_done, ls));
            CUDA_CHECK(cudaStreamWaitEvent(cs, y_done, 0));
            halo_spmv_nccl(d, plan, x, y, nccl, ls, cs);
        },
        o.warmup, o.iters, comm);
    CUDA_CHECK(cudaEventDestroy(y_done));
    t.local = per_iteration_ms([&] { d.multiply_local(x, y, ls); }, o.warmup, o.iters, comm);
    t.exchange = per_iteration_ms([&] { enqueue_exchange(d, plan, x, nccl, cs, false); }, o.warmup, o.iters, comm);
    t.latency = per_iteration_ms([&] { enqueue_exchange(d, plan, x, nccl, cs, true); }, o.warmup, o.iters, comm);
    t.remote = per_iteration_ms([&] { d.multiply_remote(y, ls); }, o.warmup, o.iters, comm);
    const double gather = per_iteration_ms([&] { enqueue_gather(d, plan, x, cs, false); }, o.warmup, o.iters, comm);
    const double gather_one = per_iteration_ms([&] { enqueue_gather(d, plan, x, cs, true); }, o.warmup, o.iters, comm);
    t.gather_extra = std::max(0.0, gather - gather_one);
    return t;
}

/// The columns of the CSV that --csv appends to.
const char* const kCsvHeader =
    "matrix,n,rows,nnz,ranks,iter_ms,local_ms,exchange_ms,remote_ms,parts_sum_ms,gflops,"
    "max_rank_nnz,max_halo_bytes,total_halo_bytes,link_GBs,exchange_GBs,exchange_model_ms,"
    "exchange_over_model,local_kernel,exchange_latency_ms,remote_kernel,gather_extra_ms,"
    "exchange_over_model_with_gather";

/// Throws Error, before any work, when --csv names a file that holds rows of other columns (an
/// older bench_multi's): appending would mix them. The file is left as it is.
void check_csv_columns(const std::string& csv) {
    if (csv.empty()) return;
    std::ifstream in(csv);
    std::string first;
    if (!in || !std::getline(in, first) || first.empty() || first == kCsvHeader) return;
    throw Error(csv +
                " holds another version's columns; it stays as it is: move it aside or give another --csv "
                "(BENCH_MULTI_OUT=DIR for make bench-multi)");
}

/// Throws Error, before any work, when `file` (given to `option`) could not be written at the
/// end: rank 0 writes it only after the whole run, which a missing folder would waste.
void check_output_file(const std::string& option, const std::string& file) {
    if (file.empty()) return;
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(file, ec)) throw Error(option + " " + file + " is a folder; give a file name in it");
    const fs::path parent = fs::path(file).parent_path();
    const std::string folder = parent.empty() ? "." : parent.string();
    if (!fs::is_directory(folder, ec))
        throw Error(option + " " + file + ": no folder " + folder + "; create it first (mkdir -p " + folder + ")");
    if (::access(folder.c_str(), W_OK) != 0)
        throw Error(option + " " + file + ": the folder " + folder + " is not writable; give another " + option);
}

/// One rank count's row: times, the halo's bytes (received per rank, the largest and the sum),
/// the link bandwidth, and the exchange against its bytes model at that bandwidth.
void report(const RankProblem<double>& rp, const CooMatrix& A, const PartTimes& t, double link,
            const BenchMultiOptions& o, MPI_Comm comm) {
    double mine[2] = {static_cast<double>(rp.block.halo_cols.size() * sizeof(double)),
                      static_cast<double>(rp.block.local.nnz() + rp.block.remote.nnz())};
    double most[2] = {0, 0}, total = 0;
    MPI_Allreduce(mine, most, 2, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(mine, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
    if (rp.rank != 0) return;
    // alpha-beta: the exchange's latency, measured with one value a message, plus the largest
    // halo's bytes at the link bandwidth
    const double model_ms = link > 0 ? t.latency + most[0] / (link * 1e6) : 0;
    // the same with the gather's memory traffic beside the link's bytes
    const double packed_model_ms = model_ms > 0 ? model_ms + t.gather_extra : 0;
    const double parts = t.local + t.exchange + t.remote;
    char row[640];
    std::snprintf(
        row, sizeof row,
        "%s,%d,%d,%zu,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.0f,%.0f,%.0f,%.1f,%.1f,%.4f,%.2f,%s,%.4f,%s,%.4f,%.2f",
        o.matrix.c_str(), o.n, A.rows, static_cast<std::size_t>(A.nnz()), rp.ranks, t.iter, t.local, t.exchange,
        t.remote, parts, 2.0 * static_cast<std::size_t>(A.nnz()) / (t.iter * 1e6), most[1], most[0], total, link,
        t.exchange > 0 ? most[0] / (t.exchange * 1e6) : 0, model_ms, model_ms > 0 ? t.exchange / model_ms : 0,
        o.local.c_str(), t.latency, o.remote.c_str(), t.gather_extra,
        packed_model_ms > 0 ? t.exchange / packed_model_ms : 0);
    std::printf("%s\n%s\n", kCsvHeader, row);
    std::printf(
        "bench_multi: %d rank(s), local block by %s, remote by %s: %.3f ms per iteration (parts alone: local %.3f + "
        "exchange %.3f + remote %.3f = %.3f ms%s)\n",
        rp.ranks, o.local.c_str(), o.remote.c_str(), t.iter, t.local, t.exchange, t.remote, parts,
        t.iter < parts ? ": the exchange overlaps" : ": no overlap seen");
    if (o.csv.empty()) return;
    FILE* f = std::fopen(o.csv.c_str(), "a");
    if (!f) throw Error("cannot append to " + o.csv);
    std::fseek(f, 0, SEEK_END);
    if (std::ftell(f) == 0) std::fprintf(f, "%s\n", kCsvHeader);
    std::fprintf(f, "%s\n", row);
    std::fclose(f);
}

/// The timeline's iterations, enqueued back to back after the timed runs.
constexpr int kTimelineIters = 5;
/// The phases of one multiply in the timeline, in the CSV's order: gather, exchange and the
/// remote rows on `cs`, the local product and the remote rows' scatter-add on `ls`.
enum TimelinePhase { kGather, kExchange, kRemote, kLocal, kAdd, kPhases };
const char* const kPhaseName[kPhases] = {"gather", "exchange", "remote", "local", "add"};
const char* const kPhaseStream[kPhases] = {"comm", "comm", "comm", "local", "local"};
/// Events per iteration: its start, then a begin and an end per phase (ev[1 + 2p], ev[2 + 2p]).
constexpr int kMarks = 1 + 2 * kPhases;

/// Enqueues one iteration of time_parts's loop (halo_spmv_nccl, its exchange after the previous
/// product) with the same calls in the same host order, and timing events between them.
/// @param ev [in] kMarks events: ev[0] the start, on ls; phase p's begin and end as above
void enqueue_timed_iteration(DeviceRankBlock<double>& d, const CommPlan& plan, const double* x, double* y,
                             ncclComm_t nccl, cudaStream_t ls, cudaStream_t cs, const cudaEvent_t* ev) {
    const auto mark = [ev](int phase, int end, cudaStream_t s) {
        CUDA_CHECK(cudaEventRecord(ev[1 + 2 * phase + end], s));
    };
    CUDA_CHECK(cudaEventRecord(ev[0], ls));  // the start doubles as time_parts's y_done
    CUDA_CHECK(cudaStreamWaitEvent(cs, ev[0], 0));
    mark(kGather, 0, cs);
    enqueue_gather(d, plan, x, cs, false);
    mark(kGather, 1, cs);
    // the events are on ls, so a bound kernel's hand-off to the legacy stream counts as local
    mark(kLocal, 0, ls);
    d.multiply_local(x, y, ls);
    mark(kLocal, 1, ls);
    mark(kExchange, 0, cs);
    enqueue_nccl_group(d, plan, nccl, cs, false);
    mark(kExchange, 1, cs);
    mark(kRemote, 0, cs);
    d.multiply_remote_rows(cs);
    mark(kRemote, 1, cs);
    CUDA_CHECK(cudaStreamWaitEvent(ls, ev[1 + 2 * kRemote + 1], 0));  // halo_spmv_nccl's remote_ready
    mark(kAdd, 0, ls);
    d.add_remote(y, ls);
    mark(kAdd, 1, ls);
}

/// Runs kTimelineIters instrumented iterations after a barrier. @return this rank's begin and
/// end of each phase, us since iteration 0's start on this rank's GPU, at [(i * kPhases + p) * 2]
std::vector<double> timeline_us(DeviceRankBlock<double>& d, const CommPlan& plan, const double* x, double* y,
                                ncclComm_t nccl, cudaStream_t ls, cudaStream_t cs, MPI_Comm comm) {
    std::vector<cudaEvent_t> ev(kTimelineIters * kMarks);
    for (cudaEvent_t& e : ev) CUDA_CHECK(cudaEventCreate(&e));
    CUDA_CHECK(cudaDeviceSynchronize());
    MPI_Barrier(comm);
    for (int i = 0; i < kTimelineIters; ++i)
        enqueue_timed_iteration(d, plan, x, y, nccl, ls, cs, ev.data() + i * kMarks);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> us(kTimelineIters * kPhases * 2);
    for (int i = 0; i < kTimelineIters; ++i)
        for (int m = 0; m < 2 * kPhases; ++m) {
            float ms = 0;
            CUDA_CHECK(cudaEventElapsedTime(&ms, ev[0], ev[i * kMarks + 1 + m]));
            us[i * kPhases * 2 + m] = ms * 1e3;
        }
    for (cudaEvent_t e : ev) CUDA_CHECK(cudaEventDestroy(e));
    return us;
}

/// The timeline's file for a rank count: `-<ranks>ranks` before the extension of `file`, so that
/// make bench-multi's rank counts, which share the arguments, each keep theirs.
std::string timeline_path(const std::string& file, int ranks) {
    const std::size_t slash = file.find_last_of('/');
    std::size_t dot = file.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) dot = file.size();
    return file.substr(0, dot) + "-" + std::to_string(ranks) + "ranks" + file.substr(dot);
}

/// Rank 0 writes every rank's timeline (timeline_us) to timeline_path and prints how much of its
/// own last exchange ran while its local product did.
void write_timeline(const std::vector<double>& mine, int rank, int ranks, const std::string& file, MPI_Comm comm) {
    const int count = static_cast<int>(mine.size());
    std::vector<double> all(rank == 0 ? mine.size() * ranks : 0);
    MPI_Gather(mine.data(), count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, 0, comm);
    if (rank != 0) return;
    const std::string path = timeline_path(file, ranks);
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw Error("cannot write " + path);
    // Each rank's times are its own GPU's, since its own first start (events resolve about half a
    // microsecond): the ranks' clocks are never compared, but every rank starts right after one
    // MPI_Barrier, so their rows line up within microseconds.
    std::fprintf(f, "ranks,rank,iteration,stream,phase,start_us,end_us\n");
    for (int r = 0; r < ranks; ++r)
        for (int i = 0; i < kTimelineIters; ++i)
            for (int p = 0; p < kPhases; ++p) {
                const double* t = &all[r * count + (i * kPhases + p) * 2];
                std::fprintf(f, "%d,%d,%d,%s,%s,%.3f,%.3f\n", ranks, r, i, kPhaseStream[p], kPhaseName[p], t[0], t[1]);
            }
    std::fclose(f);
    const double* last = &all[(kTimelineIters - 1) * kPhases * 2];
    const double* ex = last + 2 * kExchange;
    const double* lo = last + 2 * kLocal;
    const double overlap = std::max(0.0, std::min(ex[1], lo[1]) - std::max(ex[0], lo[0]));
    std::printf(
        "bench_multi: timeline: exchange [%.1f, %.1f] us, local [%.1f, %.1f] us: overlap %.1f us of the "
        "exchange's %.1f us (rank 0, iteration %d of %d; all in %s)\n",
        ex[0], ex[1], lo[0], lo[1], overlap, ex[1] - ex[0], kTimelineIters, kTimelineIters, path.c_str());
}

}  // namespace

int run_bench_multi(const BenchMultiOptions& o) {
    // a name that does not exist fails before any work
    if (o.local != "given") cuda_kernel("--local", o.local);
    if (o.remote != "given") cuda_kernel("--remote", o.remote);
    check_output_file("--csv", o.csv);
    check_output_file("--timeline", o.timeline);
    check_csv_columns(o.csv);
    ensure_mpi();
    const MPI_Comm comm = MPI_COMM_WORLD;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const std::string no_gpu = pick_gpus(comm);
    if (!no_gpu.empty()) {
        if (rank == 0) std::fprintf(stderr, "%s\n", no_gpu.c_str());
        return 2;
    }
    const CooMatrix A = bench_matrix(o);
    std::vector<double> x(A.cols), y(A.rows, 0.0);
    for (index_t j = 0; j < A.cols; ++j) x[j] = 1.0 + (j % 7) / 8.0;  // uneven: a wrong column shows
    const RankProblem<double> rp = setup_rank<double>(A, x, y, comm);
    ncclUniqueId id;
    if (rp.rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm);
    ncclComm_t nccl;
    NCCL_CHECK(ncclCommInitRank(&nccl, rp.ranks, id, rp.rank));
    cudaStream_t ls, cs;
    create_lab_streams(ls, cs);
    {
        DeviceRankBlock<double> d(rp.block, rp.plan);
        if (o.local != "given") d.bind_local(cuda_kernel("--local", o.local), rp.block);
        if (o.remote != "given") d.bind_remote(cuda_kernel("--remote", o.remote), rp.block);
        DeviceBuffer<double> xd(rp.x_local), yd(rp.y_local);
        verify_once(d, rp, x, xd, yd, nccl, ls, cs, comm);
        const PartTimes t = time_parts(d, rp.plan, xd.data(), yd.data(), nccl, ls, cs, o, comm);
        report(rp, A, t, link_gbs(nccl, rp.rank, rp.ranks, cs, comm), o, comm);
        if (!o.timeline.empty())
            write_timeline(timeline_us(d, rp.plan, xd.data(), yd.data(), nccl, ls, cs, comm), rp.rank, rp.ranks,
                           o.timeline, comm);
    }
    CUDA_CHECK(cudaStreamDestroy(ls));
    CUDA_CHECK(cudaStreamDestroy(cs));
    NCCL_CHECK(ncclCommDestroy(nccl));
    return 0;
}

}  // namespace kit::dist
