// Lab 06 variants: "csr5" on the CPU (step 2) and, in register_cuda.cu, on CUDA (steps 3-4).
// Both read the tile shape from the tunables of RunOptions declared in csr5_run.hpp (absent: the defaults).
#include "csr5_kernels.hpp"
#include "csr5_run.hpp"

namespace kit {

void register_lab_06_csr5_cuda(Registry& r);

void register_lab_06_csr5(Registry& r) {
    Variant& csr5 = r.add({"csr5", Backend::cpu, "06-csr5", 2,
                           "one omega x sigma tile at a time, lane by lane; calibration of the carries; tail as CSR",
                           cpu_variant<Csr5>([](auto M, auto xp, auto yp) { cpu::csr5_spmv(M, xp, yp); }, Csr5Bytes{64},
                                             Csr5Note{}, Csr5ForRun{})});
    csr5.family = "csr";
    csr5.tunables = csr5_tunables();
#if KIT_HAVE_CUDA
    register_lab_06_csr5_cuda(r);
#endif
}

}  // namespace kit
