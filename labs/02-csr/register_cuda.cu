// Lab 02 CUDA variants.
#include <string>
#include <type_traits>

#include "measure/bytes_model.hpp"
#include "csr_kernels.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"

namespace kit {
namespace {

/// CSR on the GPU with the partition of csr-merge's merge path (csr_merge_partition), made
/// once at upload, as cuSPARSE's preprocessing is, so that no call searches it again.
template <class T>
struct DeviceCsrMerge {
    DeviceCsr<T> csr;                     ///< the matrix
    DeviceBuffer<MergeCoord> tile_start;  ///< coordinate of each tile boundary
    explicit DeviceCsrMerge(const Csr<T>& h)
        : csr(h), tile_start(static_cast<std::size_t>(cuda::csr_merge_tiles<T>(h.rows, h.nnz())) + 1) {
        cuda::csr_merge_partition(csr.view(), tile_start.data());
    }
    struct View {
        CsrView<T> A;
        const MergeCoord* tile_start;
    };
    View view() const { return {csr.view(), tile_start.data()}; }
};

}  // namespace

void register_lab_02_csr_cuda(Registry& r) {
    const auto bytes = [](const auto& m, count_t vb) { return csr_bytes_of(m, vb); };
    // each block also reads its two tile coordinates
    const auto merge_bytes = [](const auto& m, count_t vb) {
        using T = typename std::decay_t<decltype(m.vals)>::value_type;
        const index_t tiles = cuda::csr_merge_tiles<T>(m.rows, m.nnz());
        return csr_bytes_of(m, vb) + 2 * static_cast<count_t>(tiles) * static_cast<count_t>(sizeof(MergeCoord));
    };
    r.add({"csr-scalar", Backend::cuda, "02-csr", 1, "each thread computes one row",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_scalar_spmv(A, x, y); }, bytes)});
    r.add({"csr-vector", Backend::cuda, "02-csr", 1, "each warp computes one row; shuffle reduction",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_vector_spmv(A, x, y); }, bytes)});
    r.add({"csr-lanes", Backend::cuda, "02-csr", 3, "choose_lanes(nnz/rows) threads per row (not CSR-Adaptive)",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_mean_lanes_spmv(A, x, y); }, bytes)});
    using Double = cuda::MergeShape<double>;
    using Float = cuda::MergeShape<float>;
    r.add({"csr-merge", Backend::cuda, "02-csr", 4,
           "each block takes " + std::to_string(Double::tile) + " items of the merge path of row ends and nonzeros (" +
               std::to_string(Float::tile) + " in float), each thread " + std::to_string(Double::items) + " of them (" +
               std::to_string(Float::items) + "); carries by segmented scan in the block, atomicAdd across blocks",
           cuda_variant<Csr, DeviceCsrMerge>([](auto M, auto x, auto y) { cuda::csr_merge_spmv(M.A, M.tile_start, x, y); },
                                             merge_bytes)});
}

}  // namespace kit
