// Lab 02 CUDA variants.
#include <string>
#include <type_traits>

#include "measure/bytes_model.hpp"
#include "csr_kernels.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"

namespace kit {

/// CSR on the GPU with the partition of csr-merge's merge path, made once at upload.
template <class T>
using DeviceCsrMergeTiles = DeviceCsrMerge<T, cuda::MergeTiling>;

void register_lab_02_csr_cuda(Registry& r) {
    const auto bytes = [](const auto& m, count_t vb) { return csr_bytes_of(m, vb); };
    const auto merge_bytes = [](const auto& m, count_t vb) {
        using T = typename std::decay_t<decltype(m.vals)>::value_type;
        return csr_merge_bytes_of(m, cuda::csr_merge_tiles<T>(m.rows, m.nnz()), vb);
    };
    const auto merge = [](auto M, auto x, auto y) { cuda::csr_merge_spmv(M.A, M.tile_start, x, y); };
    r.add({"csr-scalar", Backend::cuda, "02-csr", 1, "each thread computes one row",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_scalar_spmv(A, x, y); }, bytes)})
        .family = "csr";
    Variant& csr_vector =
        r.add({"csr-vector", Backend::cuda, "02-csr", 1, "each warp computes one row; shuffle reduction",
               cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_vector_spmv(A, x, y); }, bytes)});
    csr_vector.family = "csr";
    csr_vector.roles = {role::default_choice};
    r.add({"csr-lanes", Backend::cuda, "02-csr", 3, "choose_lanes(nnz/rows) threads per row (not CSR-Adaptive)",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_lanes_spmv(A, x, y); }, bytes)})
        .family = "csr";
    using Double = cuda::MergeShape<double>;
    using Float = cuda::MergeShape<float>;
    Variant& merge_variant = r.add(
        {"csr-merge", Backend::cuda, "02-csr", 4,
         "each block takes " + std::to_string(Double::tile) + " items of the merge path of row ends and nonzeros (" +
             std::to_string(Float::tile) + " in float), each thread " + std::to_string(Double::items) + " of them (" +
             std::to_string(Float::items) + "); carries by segmented scan in the block, atomicAdd across blocks",
         cuda_variant<Csr, DeviceCsrMergeTiles>(merge, merge_bytes)});
    merge_variant.family = "csr";
    merge_variant.roles = {role::load_balanced};
}

}  // namespace kit
