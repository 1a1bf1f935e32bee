// Lab 04 variants: "ell" and "hyb" on the CPU; "ell" and "hyb" on CUDA (register_cuda.cu).
#include "measure/bytes_model.hpp"
#include "ell_kernels.hpp"
#include "registry/variants.hpp"

namespace kit {

void register_lab_04_ell_cuda(Registry& r);

void register_lab_04_ell(Registry& r) {
    const auto note = [](const auto& m) { return describe_layout(m); };
    r.add({"ell", Backend::cpu, "04-ell", 1, "row by row over the row's width slots, skipping padding",
           cpu_variant<Ell>([](auto A, auto x, auto y) { cpu::ell_spmv(A, x, y); },
                            [](const auto& m, count_t vb) { return ell_bytes_of(m, vb); }, note)});
    r.add({"hyb", Backend::cpu, "04-ell", 3, "the ELL part, then one loop over the COO part",
           cpu_variant<Hyb>([](auto A, auto x, auto y) { cpu::hyb_spmv(A, x, y); },
                            [](const auto& m, count_t vb) { return hyb_bytes_of(m, vb); }, note)});
#if KIT_HAVE_CUDA
    register_lab_04_ell_cuda(r);
#endif
}

}  // namespace kit
