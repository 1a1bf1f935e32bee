// Lab 06 CUDA variant: "csr5", one warp (omega lanes) per tile, atomics for the carries.
#include "csr5_kernels.hpp"
#include "csr5_run.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"

namespace kit {

void register_lab_06_csr5_cuda(Registry& r) {
    Variant& csr5 =
        r.add({"csr5", Backend::cuda, "06-csr5", 4,
               "omega lanes of a warp per tile, shuffle segmented sum; carries added atomically; tail one warp per row",
               cuda_variant<Csr5, DeviceCsr5>([](auto M, auto xp, auto yp) { cuda::csr5_spmv(M, xp, yp); }, Csr5Bytes{},
                                              Csr5Note{}, Csr5ForRun{})});
    csr5.family = "csr";
    csr5.tunables = csr5_tunables();
}

}  // namespace kit
