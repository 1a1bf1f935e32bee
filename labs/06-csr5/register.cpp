// Lab 06 variants: "csr5" on the CPU (step 2) and, in register_cuda.cu, on CUDA (steps 3-4).
// Both read the tile shape from the tunables of RunOptions declared in csr5_run.hpp (absent: the defaults).
#include "csr5_kernels.hpp"
#include "csr5_run.hpp"

namespace kit {

void register_lab_06_csr5_cuda(Registry& r);

namespace {

RunResult run_csr5_cpu(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                       const RunOptions& opt) {
    return dispatch_precision(opt.precision, [&](auto tag) {
        using T = decltype(tag);
        const Csr5<T> m = csr5_for_run<T>(A, opt);
        RunResult out = run_on_cpu<T>(x, y, opt, [&](const T* xp, T* yp) { cpu::csr5_spmv(m.view(), xp, yp); });
        describe_csr5_run(m, 64, out);
        return out;
    });
}

}  // namespace

void register_lab_06_csr5(Registry& r) {
    Variant& csr5 = r.add({"csr5", Backend::cpu, "06-csr5", 2,
           "one omega x sigma tile at a time, lane by lane; calibration of the carries; tail as CSR", run_csr5_cpu});
    csr5.family = "csr";
    csr5.tunables = csr5_tunables();
#if KIT_HAVE_CUDA
    register_lab_06_csr5_cuda(r);
#endif
}

}  // namespace kit
