// Lab 11 CUDA variants: "sell" (step 2), one thread per row of a chunk, and "sell-auto"
// (step 3), with the (C, sigma) that choose_sell picks and the threads per row of
// sell_threads_for on this GPU. Both run sell_spmv_threads: the step 2 kernel unless sell_threads is set.
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"
#include "sell_kernels.hpp"
#include "sell_run.hpp"

namespace kit {

void register_lab_11_sell_cuda(Registry& r) {
    const auto call = [](auto M, auto xp, auto yp) { cuda::sell_spmv_threads(M, xp, yp); };
    r.add({"sell", Backend::cuda, "11-sell", 2,
           "each thread computes one row of a chunk over the chunk's width slots (column-major); y[perm[p]] += sum",
           cuda_variant<Sell, DeviceSell>(call, SellBytes{}, SellNote{}, SellForRun{})})
        .tunables = sell_tunables();
    r.add({"sell-auto", Backend::cuda, "11-sell", 3,
           "the SELL kernel, with the (C, sigma) that choose_sell picks and sell_threads_for's threads per row",
           cuda_variant<Sell, DeviceSell>(call, SellBytes{}, SellNote{},
                                          SellAutoForRun{[] { return cuda_device_shape().resident_threads(); }})})
        .tunables = sell_tunables();
}

}  // namespace kit
