// Lab 01 variants: "coo" on the CPU; "coo-atomic" and "coo-segmented" on CUDA (register_cuda.cu).
#include "measure/bytes_model.hpp"
#include "coo_kernels.hpp"
#include "registry/variants.hpp"

namespace kit {

void register_lab_01_coo_cuda(Registry& r);

void register_lab_01_coo(Registry& r) {
    r.add({"coo", Backend::cpu, "01-coo", 1, "one loop over the entries",
           cpu_variant<Coo>([](auto A, auto x, auto y) { cpu::coo_spmv(A, x, y); },
                            [](const auto& m, count_t vb) { return coo_bytes_of(m, vb); })});
#if KIT_HAVE_CUDA
    register_lab_01_coo_cuda(r);
#endif
}

}  // namespace kit
