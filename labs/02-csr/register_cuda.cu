// Lab 02 CUDA variants.
#include "bytes_model.hpp"
#include "csr_kernels.hpp"
#include "cuda_run.hpp"
#include "device_formats.hpp"

namespace kit {

void register_lab_02_csr_cuda(Registry& r) {
    const auto bytes = [](const auto& m, count_t vb) { return csr_bytes_of(m, vb); };
    r.add({"csr-scalar", Backend::cuda, "02-csr", 1, "each thread computes one row",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_scalar_spmv(A, x, y); }, bytes)});
    r.add({"csr-vector", Backend::cuda, "02-csr", 1, "each warp computes one row; shuffle reduction",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_vector_spmv(A, x, y); }, bytes)});
    r.add({"csr-lanes", Backend::cuda, "02-csr", 3, "choose_lanes(nnz/rows) threads per row (not CSR-Adaptive)",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_mean_lanes_spmv(A, x, y); }, bytes)});
    r.add({"csr-merge", Backend::cuda, "02-csr", 4,
           "each block takes 896 items of the merge path of row ends and nonzeros (1152 in float), each thread "
           "7 of them (9); carries by segmented scan in the block, atomicAdd across blocks",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_merge_spmv(A, x, y); }, bytes)});
}

}  // namespace kit
