// Lab 05 CUDA variants: the GOSpMV two-kernel scheme, the fused warp-per-block-row kernel, and
// bcsr-auto, which runs whichever of the two the tuner's joint pick names, at its block shape.
#include "bcsr_kernels.hpp"
#include "bcsr_tuner.hpp"
#include "bcsr_tunables.hpp"
#include "measure/bytes_model.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"

namespace kit {
namespace {

const char* const k2Kernel = "bcsr-2kernel";
const char* const kWarp = "bcsr-warp";

/// Converts with the given block shape, uploads, and runs the kernel named `name`.
template <class T>
RunResult run_bcsr_cuda(const std::string& name, const CooMatrix& A, const std::vector<double>& x,
                        const std::vector<double>& y, const RunOptions& opt, const bcsr::BlockPick& pick) {
    const bool is_2kernel = name == k2Kernel;
    const Bcsr<T> host = Bcsr<T>::from_coo(A, pick.r, pick.c);
    DeviceBcsr<T> dev(host);
    RunResult out = run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) {
        if (is_2kernel)
            cuda::bcsr_2kernel_spmv(dev.view(), xp, yp, dev.partial.data());
        else
            cuda::bcsr_warp_spmv(dev.view(), xp, yp);
    });
    out.bytes = is_2kernel ? bcsr_2kernel_bytes_of(host, sizeof(T)) : bcsr_bytes_of(host, sizeof(T));
    out.note = pick.note + "; " + bcsr::describe_fill(host.fill(), host.blocks(), host.r, host.c);
    out.details = pick.details;
    return out;
}

/// One kernel, with the given shape or the tuner's pick for that kernel.
RunFunction bcsr_cuda_variant(const std::string& name) {
    return
        [name](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y, const RunOptions& opt) {
            return dispatch_precision(opt.precision, [&](auto tag) {
                return run_bcsr_cuda<decltype(tag)>(name, A, x, y, opt, bcsr::pick_block(A, name, opt));
            });
        };
}

/// Kernel and shape of the tuner's joint pick over both kernels.
RunResult run_bcsr_auto(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                        const RunOptions& opt) {
    return dispatch_precision(opt.precision, [&](auto tag) {
        const bcsr::KernelPick pick = bcsr::pick_kernel_and_block(A, {k2Kernel, kWarp}, opt);
        return run_bcsr_cuda<decltype(tag)>(pick.variant, A, x, y, opt, pick.block);
    });
}

}  // namespace

void register_lab_05_bcsr_cuda(Registry& r) {
    r.add({k2Kernel, Backend::cuda, "05-bcsr", 2,
           "kernel 1: each thread multiplies one block; kernel 2: each thread sums one row's partials",
           bcsr_cuda_variant(k2Kernel)})
        .tunables = bcsr::block_tunables();
    r.add({kWarp, Backend::cuda, "05-bcsr", 3, "each warp computes one block row; lanes take its blocks",
           bcsr_cuda_variant(kWarp)})
        .tunables = bcsr::block_tunables();
    r.add({"bcsr-auto", Backend::cuda, "05-bcsr", 5,
           "the tuner's joint pick: bcsr-2kernel or bcsr-warp, at the block shape rated fastest", run_bcsr_auto})
        .tunables = bcsr::block_tunables();
}

}  // namespace kit
