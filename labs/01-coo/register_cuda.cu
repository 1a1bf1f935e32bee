// Lab 01 CUDA variants: one thread per entry with atomics, and a warp-segmented reduction.
#include "measure/bytes_model.hpp"
#include "coo_kernels.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"

namespace kit {

void register_lab_01_coo_cuda(Registry& r) {
    const auto bytes = [](const auto& m, count_t vb) { return coo_bytes_of(m, vb); };
    r.add({"coo-atomic", Backend::cuda, "01-coo", 2,
           "each thread adds vals[k]*x[col_idx[k]] to y[row_idx[k]] with atomicAdd",
           cuda_variant<Coo, DeviceCoo>([](auto A, auto x, auto y) { cuda::coo_atomic_spmv(A, x, y); }, bytes)});
    r.add({"coo-segmented", Backend::cuda, "01-coo", 3,
           "each warp reduces its interval of entries by row with shuffles; one atomic per row segment",
           cuda_variant<Coo, DeviceCoo>([](auto A, auto x, auto y) { cuda::coo_segmented_spmv(A, x, y); }, bytes)})
        .family = "csr";  // the CSR kernels' entries, in their order
}

}  // namespace kit
