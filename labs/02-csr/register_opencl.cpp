// Lab 02 OpenCL variant: csr-scalar, one work-item per row (kernel in csr_scalar.cl).
#include "measure/bytes_model.hpp"
#include "formats/csr.hpp"
#include "gpu/opencl_runtime.hpp"

extern const char kit_cl_csr_scalar[];  // the student's csr_scalar.cl, embedded by the build

namespace kit {
namespace {

RunResult run_csr_scalar_opencl(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                const RunOptions& opt) {
    return dispatch_precision(opt.precision, [&](auto tag) {
        using T = decltype(tag);
        const Csr<T> csr = Csr<T>::from_coo(A);
        cl_kernel k = ocl::runtime().kernel("csr_scalar.cl", kit_cl_csr_scalar, ocl::precision_options(opt.precision),
                                            "csr_scalar");
        const ocl::Buffer row_ptr(csr.row_ptr), col_idx(csr.col_idx), vals(csr.vals);
        const cl_int rows = csr.rows;
        RunResult out = ocl::run_on_opencl<T>(x, y, opt, [&](const ocl::Buffer& dx, ocl::Buffer& dy) {
            ocl::set_args(k, rows, row_ptr, col_idx, vals, dx, dy);
            return ocl::launch_1d(k, static_cast<std::size_t>(csr.rows), 128);
        });
        out.bytes = csr_bytes_of(csr, sizeof(T));
        return out;
    });
}

}  // namespace

void register_lab_02_csr_opencl(Registry& r) {
    r.add({"csr-scalar", Backend::opencl, "02-csr", 2, "each work-item computes one row", run_csr_scalar_opencl});
}

}  // namespace kit
