// Lab 09 variants: "gemv" and "gemv-t" on the CPU; the CUDA ones in register_cuda.cu.
//
// A registered variant computes the kit's y <- y + A x from the hub matrix: it makes A dense
// (column-major) and runs GEMV with alpha = beta = 1. A "-t" variant stores A^T instead and
// runs the transposed GEMV, (A^T)^T x = A x, so both transposes are checked by the same oracle.
#include "measure/bytes_model.hpp"
#include "formats/dense.hpp"
#include "gemv_kernels.hpp"
#include "registry/variants.hpp"

namespace kit {

void register_lab_09_gemv_cuda(Registry& r);

namespace {

RunFunction cpu_gemv(Transpose op) {
    return [op](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y, const RunOptions& opt) {
        return dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const Dense<T> d = op == Transpose::no ? Dense<T>::from_coo(A) : Dense<T>::transposed_from_coo(A);
            RunResult out = run_on_cpu<T>(x, y, opt, [&](const T* xp, T* yp) { cpu::gemv(op, T(1), d.view(), xp, T(1), yp); });
            out.bytes = dense_bytes(A.rows, A.cols, sizeof(T));
            return out;
        });
    };
}

}  // namespace

void register_lab_09_gemv(Registry& r) {
    r.add({"gemv", Backend::cpu, "09-gemv", 1, "dense column-major A; one dot product per row", cpu_gemv(Transpose::no)});
    r.add({"gemv-t", Backend::cpu, "09-gemv", 1, "A^T stored; transposed GEMV, one dot product per column",
           cpu_gemv(Transpose::yes)});
#if KIT_HAVE_CUDA
    register_lab_09_gemv_cuda(r);
#endif
}

}  // namespace kit
