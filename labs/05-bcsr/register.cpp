// Lab 05 variants: "bcsr" on the CPU; "bcsr-2kernel" and "bcsr-warp" on CUDA (register_cuda.cu).
// Each honours the block shape of RunOptions (bcsr_tunables.hpp); absent, it asks the autotuner (bcsr_tuner.hpp).
// The lab also offers the CLI its --block option and its profiler, `spmv-kit tune-profile` (tune_profile.hpp).
#include "bcsr_kernels.hpp"
#include "bcsr_tuner.hpp"
#include "bcsr_tunables.hpp"
#include "tune_profile.hpp"
#include "measure/bytes_model.hpp"
#include "registry/variants.hpp"

namespace kit {
namespace {

RunResult run_bcsr_cpu(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                       const RunOptions& opt) {
    return dispatch_precision(opt.precision, [&](auto tag) {
        using T = decltype(tag);
        const bcsr::BlockPick pick = bcsr::pick_block(A, "bcsr", opt);
        const Bcsr<T> m = Bcsr<T>::from_coo(A, pick.r, pick.c);
        RunResult out = run_on_cpu<T>(x, y, opt, [&](const T* xp, T* yp) { cpu::bcsr_spmv(m.view(), xp, yp); });
        out.bytes = bcsr_bytes_of(m, sizeof(T));
        out.note = pick.note + "; " + bcsr::describe_fill(m.fill(), m.blocks(), m.r, m.c);
        out.details = pick.details;
        return out;
    });
}

}  // namespace

void register_lab_05_bcsr_cuda(Registry& r);

void register_lab_05_bcsr(Registry& r) {
    r.add(
         {"bcsr", Backend::cpu, "05-bcsr", 1, "one loop over block rows; each block times c values of x", run_bcsr_cpu})
        .tunables = bcsr::block_tunables();
    r.add_option(bcsr::block_option());
    r.add_tool(bcsr::tune_profile_tool());
#if KIT_HAVE_CUDA
    register_lab_05_bcsr_cuda(r);
#endif
}

}  // namespace kit
