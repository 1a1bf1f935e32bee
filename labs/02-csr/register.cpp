// Lab 02 variants: csr-scalar, csr-vector, csr-lanes, csr-merge on CUDA; csr-merge on the CPU;
// csr-scalar on OpenCL.
#include <string>

#include "measure/bytes_model.hpp"
#include "csr_kernels.hpp"
#include "core/kit_error.hpp"
#include "registry/variants.hpp"

namespace kit {

void register_lab_02_csr_cuda(Registry& r);
void register_lab_02_csr_opencl(Registry& r);

namespace {

/// Shares of the CPU merge-based SpMV when the tunable csr_merge_shares is not set: enough
/// that most matrices have rows cut by a share boundary, which is what the step teaches.
constexpr int default_merge_shares = 8;

RunResult run_csr_merge_cpu(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                            const RunOptions& opt) {
    const bool set = opt.tunables.count("csr_merge_shares") > 0;
    const int shares = set ? opt.tunable("csr_merge_shares") : default_merge_shares;
    if (shares < 1)
        throw Error("csr-merge: the tunable csr_merge_shares must be at least 1, got " + std::to_string(shares));
    return cpu_variant<Csr>([shares](auto M, auto xp, auto yp) { cpu::csr_merge_spmv(M, xp, yp, shares); },
                            [](const auto& m, count_t vb) { return csr_bytes_of(m, vb); })(A, x, y, opt);
}

}  // namespace

void register_lab_02_csr(Registry& r) {
    Variant& merge = r.add({"csr-merge", Backend::cpu, "02-csr", 4,
                            "the merge path of row ends and nonzeros cut into equal shares (csr_merge_shares, "
                            "default 8), one share after the other; carries added at the end",
                            run_csr_merge_cpu});
    merge.family = "csr";
    merge.tunables = {{"csr_merge_shares", 1, 1 << 20, "shares the merge path is cut into (default 8)"}};
#if KIT_HAVE_CUDA
    register_lab_02_csr_cuda(r);
#endif
#if KIT_HAVE_OPENCL
    register_lab_02_csr_opencl(r);
#endif
}

}  // namespace kit
