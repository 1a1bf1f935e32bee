// Lab 02 OpenCL variant: csr-scalar, one work-item per row (kernel in csr_scalar.cl).
#include "measure/bytes_model.hpp"
#include "formats/csr.hpp"
#include "gpu/opencl_formats.hpp"
#include "gpu/opencl_runtime.hpp"

extern const char kit_cl_csr_scalar[];  // the student's csr_scalar.cl, embedded by the build

namespace kit {

void register_lab_02_csr_opencl(Registry& r) {
    const auto launch = [](cl_kernel k, const ocl::ClCsr& A, const ocl::Buffer& x, ocl::Buffer& y) {
        ocl::set_args(k, A.rows, A.row_ptr, A.col_idx, A.vals, x, y);
        return ocl::launch_1d(k, static_cast<std::size_t>(A.rows), 128);
    };
    const auto bytes = [](const auto& m, count_t vb) { return csr_bytes_of(m, vb); };
    r.add({"csr-scalar", Backend::opencl, "02-csr", 2, "each work-item computes one row",
           ocl::opencl_variant<Csr, ocl::ClCsr>({"csr_scalar.cl", kit_cl_csr_scalar, "csr_scalar"},
                                                ocl::precision_options, launch, bytes)});
}

}  // namespace kit
