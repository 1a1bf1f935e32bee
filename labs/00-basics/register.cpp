// Lab 00 variants: "csr" on the CPU (and, in register_cuda.cu, on CUDA).
#include "basics_kernels.hpp"
#include "measure/bytes_model.hpp"
#include "registry/variants.hpp"

namespace kit {

void register_lab_00_basics_cuda(Registry& r);

void register_lab_00_basics(Registry& r) {
    r.add({"csr", Backend::cpu, "00-basics", 1, "one loop over rows, inner loop over the row's entries",
           cpu_variant<Csr>([](auto A, auto x, auto y) { cpu::csr_spmv(A, x, y); },
                            [](const auto& m, count_t vb) { return csr_bytes_of(m, vb); })})
        .family = "csr";
#if KIT_HAVE_CUDA
    register_lab_00_basics_cuda(r);
#endif
}

}  // namespace kit
