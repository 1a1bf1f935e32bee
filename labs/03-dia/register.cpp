// Lab 03 variants: "dia" on the CPU; "dia-naive" and "dia-shared" on CUDA (register_cuda.cu).
#include "measure/bytes_model.hpp"
#include "dia_kernels.hpp"
#include "registry/variants.hpp"

namespace kit {

void register_lab_03_dia_cuda(Registry& r);

void register_lab_03_dia(Registry& r) {
    r.add({"dia", Backend::cpu, "03-dia", 1, "for each diagonal, a loop over the rows it crosses",
           cpu_variant<Dia>([](auto A, auto x, auto y) { cpu::dia_spmv(A, x, y); },
                            [](const auto& m, count_t vb) { return dia_bytes_of(m, vb); },
                            [](const auto& m) { return describe_layout(m); })});
#if KIT_HAVE_CUDA
    register_lab_03_dia_cuda(r);
#endif
}

}  // namespace kit
