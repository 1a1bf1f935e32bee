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
    r.add({"csr-adaptive", Backend::cuda, "02-csr", 3, "choose_lanes(nnz/rows) threads per row",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_adaptive_spmv(A, x, y); }, bytes)});
}

}  // namespace kit
