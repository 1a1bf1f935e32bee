// Lab 06 CUDA variant: "csr5", one warp (omega lanes) per tile, atomics for the carries.
#include "csr5_kernels.hpp"
#include "csr5_run.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"

namespace kit {
namespace {

RunResult run_csr5_cuda(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                        const RunOptions& opt) {
    return dispatch_precision(opt.precision, [&](auto tag) {
        using T = decltype(tag);
        const Csr5<T> m = csr5_for_run<T>(A, opt);
        DeviceCsr5<T> dev(m);
        RunResult out = run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) { cuda::csr5_spmv(dev.view(), xp, yp); });
        describe_csr5_run(m, m.sigma, out);
        return out;
    });
}

}  // namespace

void register_lab_06_csr5_cuda(Registry& r) {
    Variant& csr5 = r.add({"csr5", Backend::cuda, "06-csr5", 4,
           "omega lanes of a warp per tile, shuffle segmented sum; carries added atomically; tail one warp per row",
           run_csr5_cuda});
    csr5.family = "csr";
    csr5.tunables = csr5_tunables();
}

}  // namespace kit
