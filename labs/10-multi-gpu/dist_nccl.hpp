/// @file dist_nccl.hpp
/// @brief Lab 10 step 4: the multiply on one GPU per rank, the halo exchanged with NCCL (built
/// only with CUDA, MPI and NCCL: the files that include this header end in _nccl.cu).
#pragma once
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <memory>
#include <string>
#include <type_traits>

#include "core/kit_error.hpp"
#include "dist_spmv.hpp"
#include "gpu/device_formats.hpp"
#include "registry/variants.hpp"

/// Turns an NCCL result into a kit::Error naming the call, file and line.
#define NCCL_CHECK(call)                                                                                  \
    do {                                                                                                  \
        const ncclResult_t kit_nccl_rc = (call);                                                          \
        if (kit_nccl_rc != ncclSuccess)                                                                   \
            throw ::kit::Error(std::string(#call) + " failed at " + __FILE__ + ":" +                      \
                               std::to_string(__LINE__) + ": " + ncclGetErrorString(kit_nccl_rc));        \
    } while (0)

namespace kit::dist {

/// @brief The NCCL datatype of a value type. @return ncclFloat32 or ncclFloat64
template <class T>
ncclDataType_t nccl_type() {
    return std::is_same_v<T, float> ? ncclFloat32 : ncclFloat64;
}

/// @brief The rows of a remote block that hold entries, as a block of their own.
template <class T>
struct CompactRows {
    Csr<T> block;               ///< those rows only, in order; the columns unchanged
    std::vector<index_t> rows;  ///< the owned row each of block's rows is
};

/// @brief The rows of `remote` that hold entries (a stencil's boundary planes; on most ranks a
/// small share of the rows). @param remote [in] a rank's remote block @return those rows
template <class T>
CompactRows<T> compact_rows(const Csr<T>& remote);

/// @brief One rank's blocks and exchange buffers in GPU memory.
///
/// The remote block is kept as its rows that hold entries (CompactRows), multiplied into a
/// vector of their own: that product can run on the exchange's stream beside the local one,
/// and only the scatter-add into y (add_remote) waits for both. When at least half the rows hold
/// remote entries (a random matrix), the scatter-add would move about as many bytes as the
/// product, so the whole remote block is multiplied straight into y by add_remote instead.
template <class T>
struct DeviceRankBlock {
    DeviceCsr<T> local;               ///< owned rows x owned columns
    bool remote_into_y = false;       ///< remote is the whole remote block, multiplied into y
    DeviceCsr<T> remote;              ///< the remote block's rows that hold entries (or all) x halo entries
    DeviceBuffer<index_t> remote_rows;  ///< the owned row of each of remote's rows (none if remote_into_y)
    DeviceBuffer<T> remote_y;         ///< remote x halo, one value per remote row (none if remote_into_y)
    DeviceBuffer<index_t> send_idx;   ///< the plan's send_idx
    DeviceBuffer<T> send_buf;         ///< x_local[send_idx], packed by peer
    DeviceBuffer<T> halo;             ///< the received x entries, in halo order
    /// The kit's registered kernel the local block is multiplied with (bind_local); empty:
    /// the lab's given scalar CSR kernel.
    std::unique_ptr<BoundKernel> local_kernel;
    /// The same for the remote block's rows (bind_remote).
    std::unique_ptr<BoundKernel> remote_kernel;
    /// @brief Uploads a rank's blocks and allocates its buffers. @param b [in] blocks  @param p [in] plan
    DeviceRankBlock(const RankBlock<T>& b, const CommPlan& p) : DeviceRankBlock(b, p, remote_layout(b.remote)) {}
    /// @brief Multiplies the local block with registered CUDA variant `v` from now on: the block
    /// converted to v's format once, on the GPU. Throws Error if v cannot be bound.
    /// @param v [in] a CUDA variant  @param b [in] this rank's blocks (the ones uploaded)
    void bind_local(const Variant& v, const RankBlock<T>& b);
    /// @brief The same for the remote block's rows that hold entries.
    /// @param v [in] a CUDA variant  @param b [in] this rank's blocks (the ones uploaded)
    void bind_remote(const Variant& v, const RankBlock<T>& b);
    /// @brief y += A_local x, enqueued so that it runs after the work already on `stream` and
    /// the work enqueued on `stream` afterwards runs after it (a bound kernel launches on the
    /// default stream, which waits for neither of the lab's non-blocking streams by itself).
    /// @param x [in] device x_local  @param y [in,out] device y_local  @param stream [in] stream
    void multiply_local(const T* x, T* y, cudaStream_t stream);
    /// @brief remote_y = A_remote halo, ordered on `stream` as multiply_local is; touches no y,
    /// so it may run beside multiply_local. Nothing at all when no row has a remote entry, or
    /// when remote_into_y.
    /// @param stream [in] stream
    void multiply_remote_rows(cudaStream_t stream);
    /// @brief y[remote_rows[i]] += remote_y[i] on `stream` (after multiply_remote_rows and the
    /// local product); with remote_into_y, y += A_remote halo. Nothing when no row has a remote
    /// entry.
    /// @param y [in,out] device y_local  @param stream [in] stream
    void add_remote(T* y, cudaStream_t stream);
    /// @brief y += A_remote halo on `stream`: multiply_remote_rows, then add_remote.
    /// @param y [in,out] device y_local  @param stream [in] stream
    void multiply_remote(T* y, cudaStream_t stream) {
        multiply_remote_rows(stream);
        add_remote(y, stream);
    }

private:
    /// The remote block as uploaded: its rows with entries, or all of it when at least half
    /// the rows have entries (rows then empty).
    static CompactRows<T> remote_layout(const Csr<T>& remote);
    DeviceRankBlock(const RankBlock<T>& b, const CommPlan& p, const CompactRows<T>& r)
        : local(b.local), remote_into_y(r.block.rows == b.remote.rows && r.block.rows > 0), remote(r.block),
          remote_rows(r.rows), remote_y(r.rows.size()), send_idx(p.send_idx), send_buf(p.send_idx.size()),
          halo(b.halo_cols.size()) {}
    /// out += remote x halo on `stream` (the bound kernel or the given one).
    void remote_product(T* out, cudaStream_t stream);
};

namespace cuda {
/// @brief The given rank-local product on the GPU: each thread computes y[i] += A[i,:] * x for
/// one row i (the kit's scalar CSR kernel), launched on `stream`.
/// @param A [in] CSR (device)  @param x [in] device x  @param y [in,out] device y  @param stream [in] stream
template <class T>
void csr_rows_spmv(CsrView<T> A, const T* x, T* y, cudaStream_t stream);
/// @brief The given gather on the GPU: each thread copies out[i] = x[idx[i]] for one i, on `stream`.
/// @param idx [in] device indices  @param n [in] count  @param x [in] device source
/// @param out [out] device target  @param stream [in] stream
template <class T>
void gather_by_index(const index_t* idx, index_t n, const T* x, T* out, cudaStream_t stream);
/// @brief The given scatter-add on the GPU: y[idx[i]] += v[i] for each i, on `stream` (the
/// indices distinct, so no atomics).
/// @param idx [in] device indices  @param n [in] count  @param v [in] device values  @param y [in,out] device target
/// @param stream [in] stream
template <class T>
void scatter_add(const index_t* idx, index_t n, const T* v, T* y, cudaStream_t stream);
}  // namespace cuda

/// @brief The lab's two non-blocking streams: products on `local_stream`, the exchange on
/// `comm_stream` at the device's highest priority, so that the exchange's kernels are scheduled
/// ahead of a product's pending blocks instead of after its whole grid (without it the measured
/// iteration took local + exchange + remote: no overlap on 4 H100).
/// @param local_stream [out] stream of the products  @param comm_stream [out] stream of the exchange
void create_lab_streams(cudaStream_t& local_stream, cudaStream_t& comm_stream);

/// @brief Step 4: y_local += A_rank x on this rank's GPU. On comm_stream: gather x_local[send_idx]
/// into send_buf, then one NCCL group of ncclRecv (into the halo) and ncclSend (from send_buf) per
/// peer, then the remote rows times the halo (d.multiply_remote_rows). On local_stream, meanwhile:
/// the local block (d.multiply_local). Then local_stream waits for comm_stream (an event) and adds
/// the remote rows into y (d.add_remote). Returns without synchronising: the caller waits for
/// local_stream.
/// @param d [in,out] this rank's device blocks and buffers  @param plan [in] this rank's plan
/// @param x_local [in] device x entries owned  @param y_local [in,out] device y rows owned
/// @param comm [in] NCCL communicator (rank r of it is rank r of the plan)
/// @param local_stream [in] stream of the products  @param comm_stream [in] stream of the exchange
template <class T>
void halo_spmv_nccl(DeviceRankBlock<T>& d, const CommPlan& plan, const T* x_local, T* y_local, ncclComm_t comm,
                    cudaStream_t local_stream, cudaStream_t comm_stream);

}  // namespace kit::dist
