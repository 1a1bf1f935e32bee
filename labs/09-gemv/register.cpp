// Lab 09 variants: "gemv" and "gemv-t" on the CPU; the CUDA ones in register_cuda.cu.
//
// A registered variant computes the kit's y <- y + A x from the hub matrix: it makes A dense
// (column-major) and runs GEMV with alpha = beta = 1. A "-t" variant stores A^T instead and
// runs the transposed GEMV, (A^T)^T x = A x, so both transposes are checked by the same oracle.
#include <type_traits>

#include "measure/bytes_model.hpp"
#include "formats/dense.hpp"
#include "gemv_kernels.hpp"
#include "registry/variants.hpp"

namespace kit {

void register_lab_09_gemv_cuda(Registry& r);

namespace {

RunFunction cpu_gemv(Transpose op) {
    const bool transposed = op == Transpose::yes;
    return cpu_variant<Dense>(
        [op](auto A, auto x, auto y) {
            using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
            cpu::gemv(op, T(1), A, x, T(1), y);
        },
        [transposed](const auto& m, count_t vb) { return dense_bytes_of(m, vb, transposed); }, NoNote{}, GemvDense{op});
}

}  // namespace

void register_lab_09_gemv(Registry& r) {
    r.add(
         {"gemv", Backend::cpu, "09-gemv", 1, "dense column-major A; one dot product per row", cpu_gemv(Transpose::no)})
        .family = "dense";
    Variant& transposed = r.add({"gemv-t", Backend::cpu, "09-gemv", 1,
                                 "A^T stored; transposed GEMV, one dot product per column", cpu_gemv(Transpose::yes)});
    transposed.family = "dense";
    transposed.roles.insert(role::transposed);
#if KIT_HAVE_CUDA
    register_lab_09_gemv_cuda(r);
#endif
}

}  // namespace kit
