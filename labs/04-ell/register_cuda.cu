// Lab 04 CUDA variants: ELL with one thread per row, and HYB (ELL kernel, then COO kernel).
#include "cuda_run.hpp"
#include "device_formats.hpp"
#include "ell_kernels.hpp"

namespace kit {

namespace lab04 {  // defined in register.cpp
count_t bytes_of(const Ell<float>& m, count_t vb);
count_t bytes_of(const Ell<double>& m, count_t vb);
count_t bytes_of(const Hyb<float>& m, count_t vb);
count_t bytes_of(const Hyb<double>& m, count_t vb);
RunFunction with_ell_note(RunFunction run);
RunFunction with_hyb_note(RunFunction run);
}  // namespace lab04

void register_lab_04_ell_cuda(Registry& r) {
    const auto bytes = [](const auto& m, count_t vb) { return lab04::bytes_of(m, vb); };
    r.add({"ell", Backend::cuda, "04-ell", 2, "each thread computes one row over its width slots (column-major)",
           lab04::with_ell_note(
               cuda_variant<Ell, DeviceEll>([](auto A, auto x, auto y) { cuda::ell_spmv(A, x, y); }, bytes))});
    r.add({"hyb", Backend::cuda, "04-ell", 3,
           "ELL kernel (a thread per row) on the first K entries, then a thread per COO entry with atomicAdd",
           lab04::with_hyb_note(
               cuda_variant<Hyb, DeviceHyb>([](auto A, auto x, auto y) { cuda::hyb_spmv(A, x, y); }, bytes))});
}

}  // namespace kit
