// Lab 04 CUDA variants: ELL with one thread per row, and HYB (ELL kernel, then COO kernel).
#include "measure/bytes_model.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"
#include "ell_kernels.hpp"

namespace kit {

void register_lab_04_ell_cuda(Registry& r) {
    const auto note = [](const auto& m) { return describe_layout(m); };
    r.add({"ell", Backend::cuda, "04-ell", 2, "each thread computes one row over its width slots (column-major)",
           cuda_variant<Ell, DeviceEll>([](auto A, auto x, auto y) { cuda::ell_spmv(A, x, y); },
                                        [](const auto& m, count_t vb) { return ell_bytes_of(m, vb); }, note)});
    r.add({"hyb", Backend::cuda, "04-ell", 3,
           "ELL kernel (a thread per row) on the first K entries, then a thread per COO entry with atomicAdd",
           cuda_variant<Hyb, DeviceHyb>([](auto A, auto x, auto y) { cuda::hyb_spmv(A, x, y); },
                                        [](const auto& m, count_t vb) { return hyb_bytes_of(m, vb); }, note)});
}

}  // namespace kit
