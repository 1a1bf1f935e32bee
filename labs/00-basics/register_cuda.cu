// Lab 00 CUDA variant: "csr" (one thread per row), the TU Delft kernel.
#include "basics_kernels.hpp"
#include "measure/bytes_model.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"

namespace kit {

void register_lab_00_basics_cuda(Registry& r) {
    r.add({"csr", Backend::cuda, "00-basics", 2, "each thread computes y[row] += A[row,:] * x",
           cuda_variant<Csr, DeviceCsr>([](auto A, auto x, auto y) { cuda::csr_spmv(A, x, y); },
                                        [](const auto& m, count_t vb) { return csr_bytes_of(m, vb); })})
        .family = "csr";
}

}  // namespace kit
