// Lab 07 OpenCL variants, steps 1-5 of the DIA path (kernels in reference/07-dia-opencl/dia_ocl_*.cl).
#include <cstdio>

#include "measure/bytes_model.hpp"
#include "dia_path.hpp"
#include "gpu/opencl_formats.hpp"
#include "gpu/opencl_runtime.hpp"

// the student's kernels, embedded by the build
extern const char kit_cl_dia_ocl_naive[];
extern const char kit_cl_dia_ocl_aligned[];
extern const char kit_cl_dia_ocl_local[];
extern const char kit_cl_dia_ocl_vec4[];
extern const char kit_cl_dia_ocl_image[];

namespace kit {
namespace {

using dia_path::work_group;

/// One of steps 1-4: its kernel, the layout it needs and how many rows a work-item takes.
struct BufferStep {
    const char* file;        ///< .cl file, for messages and the program cache
    const char* source;      ///< its embedded text
    const char* kernel;      ///< __kernel name
    index_t pitch_multiple;  ///< 1: naive layout (pitch == rows); 32: aligned
    int rows_per_item;       ///< 1, or 4 for the vector kernel
    bool takes_pitch;        ///< step 1 indexes with rows and has no pitch argument
};

/// DIA in the layout a step needs; refuses sizes the kernels' int indexing cannot address.
template <class T>
Dia<T> to_dia(const CooMatrix& A, index_t pitch_multiple) {
    DiaLimits limits;
    limits.pitch_multiple = pitch_multiple;
    Dia<T> m = Dia<T>::from_coo(A, limits);
    check_index_range("DIA slots (diagonals x pitch, indexed with int in the kernels)",
                      static_cast<count_t>(m.diagonals()) * m.pitch);
    return m;
}

/// -D options shared by every step: the value type, its 4-vector and the offset chunk.
std::string build_options(Precision p) {
    return ocl::precision_options(p) + (p == Precision::f32 ? " -DREAL4=float4" : " -DREAL4=double4") +
           " -DDIA_CHUNK=" + std::to_string(kDiaOffsetChunk);
}

/// Steps 1-4: the step's kernel on the DIA layout it needs.
RunFunction buffer_step(BufferStep s) {
    const auto launch = [s](cl_kernel k, const ocl::ClDia& d, const ocl::Buffer& dx, ocl::Buffer& dy) {
        if (s.takes_pitch)
            ocl::set_args(k, d.rows, d.cols, d.diagonals, d.pitch, d.offsets, d.vals, dx, dy);
        else
            ocl::set_args(k, d.rows, d.cols, d.diagonals, d.offsets, d.vals, dx, dy);
        const std::size_t items = (static_cast<std::size_t>(d.rows) + s.rows_per_item - 1) / s.rows_per_item;
        return ocl::launch_1d(k, items, work_group);
    };
    const auto bytes = [](const auto& m, count_t vb) { return dia_bytes_of(m, vb); };
    return ocl::opencl_variant<Dia, ocl::ClDia>(
        {s.file, s.source, s.kernel}, build_options, launch, bytes, [](const auto& m) { return describe_layout(m); },
        [s](const CooMatrix& A, const RunOptions&, auto tag) { return to_dia<decltype(tag)>(A, s.pitch_multiple); });
}

/// What the chosen device offers for 2-D images.
dia_path::ImageLimits image_limits() {
    const ocl::DeviceInfo& dev = ocl::runtime().device();
    dia_path::ImageLimits limits;
    limits.supported = dev.images;
    limits.device = dev.name;
    if (!dev.images) return limits;
    std::size_t w = 0, h = 0;
    CL_CHECK(clGetDeviceInfo(dev.device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof w, &w, nullptr));
    CL_CHECK(clGetDeviceInfo(dev.device, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof h, &h, nullptr));
    limits.max_width = static_cast<count_t>(w);
    limits.max_height = static_cast<count_t>(h);
    return limits;
}

/// x as a read-only 2-D image of float4 pixels (CL_RGBA, CL_FLOAT), zero past its end.
class XImage {
public:
    XImage(const dia_path::XImageLayout& l, std::vector<float> x) {
        x.resize(static_cast<std::size_t>(l.width) * l.height * 4, 0.0f);
        const cl_image_format format{CL_RGBA, CL_FLOAT};
        cl_image_desc desc{};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = static_cast<std::size_t>(l.width);
        desc.image_height = static_cast<std::size_t>(l.height);
        cl_int err = CL_SUCCESS;
        mem_ = clCreateImage(ocl::runtime().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                             x.data(), &err);
        CL_CHECK(err);
    }
    ~XImage() { clReleaseMemObject(mem_); }
    XImage(const XImage&) = delete;
    XImage& operator=(const XImage&) = delete;
    cl_mem mem() const { return mem_; }

private:
    cl_mem mem_ = nullptr;
};

RunResult run_image_step(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                         const RunOptions& opt) {
    if (opt.precision != Precision::f32)
        throw BackendUnavailable(
            "dia-image keeps x in an image of float4 pixels (CL_RGBA, CL_FLOAT), so step 5 is "
            "float only; run it in float (steps 1-4 also take double)");
    const dia_path::XImageLayout layout = dia_path::plan_x_image(A.cols, image_limits());
    const Dia<float> m = to_dia<float>(A, dia_path::aligned_pitch);
    const ocl::ClDia d(m);
    const XImage image(layout, to_precision<float>(x));
    cl_kernel k =
        ocl::runtime().kernel("dia_ocl_image.cl", kit_cl_dia_ocl_image, build_options(opt.precision), "dia_image");
    const std::size_t items = (static_cast<std::size_t>(m.rows) + 3) / 4;
    const cl_int log2_width = layout.log2_width, width_mask = layout.width_mask;
    // run_on_opencl also uploads x as a buffer; this kernel ignores it and reads the image
    RunResult out = ocl::run_on_opencl<float>(x, y, opt, [&](const ocl::Buffer&, ocl::Buffer& dy) {
        ocl::set_args(k, d.rows, d.diagonals, d.pitch, d.offsets, d.vals, image.mem(), log2_width, width_mask, dy);
        return ocl::launch_1d(k, items, work_group);
    });
    out.bytes = dia_bytes_of(m, sizeof(float));
    out.note = describe_layout(m) + ", image " + std::to_string(layout.width) + " x " + std::to_string(layout.height);
    return out;
}

}  // namespace

void register_lab_07_dia_opencl_opencl(Registry& r) {
    const char* lab = "07-dia-opencl";
    const auto add = [&r](Variant v) { dia_path::attach_case_study_model(r.add(std::move(v))); };
    add({"dia-naive", Backend::opencl, lab, 1, "each work-item computes one row; A[d*rows+row], pitch = rows",
         buffer_step({"dia_ocl_naive.cl", kit_cl_dia_ocl_naive, "dia_naive", 1, 1, false})});
    add({"dia-aligned", Backend::opencl, lab, 2, "each work-item computes one row; pitch multiple of 32",
         buffer_step({"dia_ocl_aligned.cl", kit_cl_dia_ocl_aligned, "dia_aligned", dia_path::aligned_pitch, 1, true})});
    add({"dia-local", Backend::opencl, lab, 3, "each work-item computes one row; offsets in __local memory",
         buffer_step({"dia_ocl_local.cl", kit_cl_dia_ocl_local, "dia_local", dia_path::aligned_pitch, 1, true})});
    add({"dia-vec4", Backend::opencl, lab, 4, "each work-item computes 4 rows as a float4",
         buffer_step({"dia_ocl_vec4.cl", kit_cl_dia_ocl_vec4, "dia_vec4", dia_path::aligned_pitch, 4, true})});
    add({"dia-image", Backend::opencl, lab, 5, "each work-item computes 4 rows; x read through an image (float)",
         run_image_step});
}

}  // namespace kit
