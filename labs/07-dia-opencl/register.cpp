// Lab 07 variants: "dia-loop" on the CPU (step 0); dia-naive, dia-aligned, dia-local,
// dia-vec4 and dia-image on OpenCL (steps 1-5, register_opencl.cpp); dia-vec4, dia-ldg and
// dia-texture on CUDA (steps 4-5, register_cuda.cu).
#include "measure/bytes_model.hpp"
#include "dia_path.hpp"
#include "registry/variants.hpp"

namespace kit {

void register_lab_07_dia_opencl_cuda(Registry& r);
void register_lab_07_dia_opencl_opencl(Registry& r);

const std::vector<dia_path::StepInfo>& dia_path::steps() {
    static const std::vector<StepInfo> list = {
        {0, "dia-loop", Backend::cpu},     {1, "dia-naive", Backend::opencl}, {2, "dia-aligned", Backend::opencl},
        {3, "dia-local", Backend::opencl}, {4, "dia-vec4", Backend::opencl},  {5, "dia-image", Backend::opencl},
        {4, "dia-vec4", Backend::cuda},    {5, "dia-ldg", Backend::cuda},     {5, "dia-texture", Backend::cuda},
    };
    return list;
}

void register_lab_07_dia_opencl(Registry& r) {
    r.add({"dia-loop", Backend::cpu, "07-dia-opencl", 0, "for each row, for each diagonal: the plain C loop",
           cpu_variant<Dia>([](auto A, auto x, auto y) { cpu::dia_loop_spmv(A, x, y); },
                            [](const auto& m, count_t vb) { return dia_bytes_of(m, vb); },
                            [](const auto& m) { return describe_layout(m); })});
#if KIT_HAVE_OPENCL
    register_lab_07_dia_opencl_opencl(r);
#endif
#if KIT_HAVE_CUDA
    register_lab_07_dia_opencl_cuda(r);
#endif
}

}  // namespace kit
