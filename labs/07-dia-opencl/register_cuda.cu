// Lab 07 CUDA variants, the counterparts of steps 4 and 5: dia-vec4, dia-ldg, dia-texture
// (kernels in reference/07-dia-opencl/dia_path_cuda.cu), and the CUDA copy-bandwidth ceiling.
#include <memory>

#include "measure/bytes_model.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"
#include "dia_path.hpp"

namespace kit {
namespace {

RunResult run_dia_texture(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                          const RunOptions& opt) {
    if (opt.precision != Precision::f32)
        throw BackendUnavailable(
            "dia-texture fetches x through a float texture, so it is float only; "
            "dia-ldg is the read-only path for double");
    const Dia<float> host = Dia<float>::from_coo(A);
    const DeviceDia<float> dev(host);
    // The texture object is created once, on the first launch, for the x array run_on_cuda
    // owns, so timed repeats measure the kernel only.
    std::unique_ptr<cuda::XTexture> tex;
    const float* tex_of = nullptr;
    RunResult out = run_on_cuda<float>(x, y, opt, [&](const float* xp, float* yp) {
        if (!tex || tex_of != xp) {
            tex = std::make_unique<cuda::XTexture>(xp, host.cols);
            tex_of = xp;
        }
        cuda::dia_texture_spmv(dev.view(), *tex, yp);
    });
    out.bytes = dia_bytes_of(host, sizeof(float));
    out.note = describe_layout(host);
    return out;
}

}  // namespace

void register_lab_07_dia_opencl_cuda(Registry& r) {
    const char* lab = "07-dia-opencl";
    const auto add = [&r](Variant v) { dia_path::attach_case_study_model(r.add(std::move(v))); };
    const auto bytes = [](const auto& m, count_t vb) { return dia_bytes_of(m, vb); };
    const auto note = [](const auto& m) { return describe_layout(m); };
    add({"dia-vec4", Backend::cuda, lab, 4,
         "each thread computes 4 rows; float4 matrix loads; offsets in shared memory",
         cuda_variant<Dia, DeviceDia>([](auto A, auto x, auto y) { cuda::dia_vec4_spmv(A, x, y); }, bytes, note)});
    add({"dia-ldg", Backend::cuda, lab, 5, "as dia-vec4, x through the read-only cache (__ldg)",
         cuda_variant<Dia, DeviceDia>([](auto A, auto x, auto y) { cuda::dia_ldg_spmv(A, x, y); }, bytes, note)});
    add({"dia-texture", Backend::cuda, lab, 5, "as dia-vec4, x through a texture object (float)", run_dia_texture});
}

}  // namespace kit
