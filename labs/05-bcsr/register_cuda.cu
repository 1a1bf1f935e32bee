// Lab 05 CUDA variants: the GOSpMV two-kernel scheme and the fused warp-per-block-row kernel.
#include "bcsr_kernels.hpp"
#include "bcsr_tuner.hpp"
#include "bytes_model.hpp"
#include "cuda_run.hpp"
#include "device_formats.hpp"

namespace kit {
namespace {

/// Converts with the picked block shape, uploads, and runs `call(device matrix, x, y)`.
template <class Call>
RunFunction bcsr_cuda_variant(const std::string& name, bool two_kernel, Call call) {
    return [name, two_kernel, call](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                    const RunOptions& opt) {
        return dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const bcsr::BlockPick pick = bcsr::pick_block(A, name, opt);
            const Bcsr<T> host = Bcsr<T>::from_coo(A, pick.r, pick.c);
            DeviceBcsr<T> dev(host);
            RunResult out = run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) { call(dev, xp, yp); });
            out.bytes = bcsr_bytes_of(host, sizeof(T));
            // The two-kernel scheme also writes and reads back r partial sums per block.
            if (two_kernel) out.bytes += 2 * static_cast<count_t>(host.blocks()) * host.r * sizeof(T);
            out.note = pick.note + "; " + bcsr::describe_fill(host.fill(), host.blocks(), host.r, host.c);
            out.details = pick.details;
            return out;
        });
    };
}

}  // namespace

void register_lab_05_bcsr_cuda(Registry& r) {
    r.add({"bcsr-2kernel", Backend::cuda, "05-bcsr", 2,
           "kernel 1: each thread multiplies one block; kernel 2: each thread sums one row's partials",
           bcsr_cuda_variant("bcsr-2kernel", true, [](auto& dev, auto x, auto y) {
               cuda::bcsr_two_kernel_spmv(dev.view(), x, y, dev.partial.data());
           })});
    r.add({"bcsr-warp", Backend::cuda, "05-bcsr", 3, "each warp computes one block row; lanes take its blocks",
           bcsr_cuda_variant("bcsr-warp", false, [](auto& dev, auto x, auto y) { cuda::bcsr_warp_spmv(dev.view(), x, y); })});
}

}  // namespace kit
