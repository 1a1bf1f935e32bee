// Lab 11 variants: "sell" (step 1) and "sell-auto" (step 3) on the CPU; on CUDA through
// register_cuda.cu (steps 2 and 3). All read C and sigma from the tunables of sell_run.hpp.
#include "sell_kernels.hpp"
#include "sell_run.hpp"
#include "sell_sweep.hpp"

namespace kit {

void register_lab_11_sell_cuda(Registry& r);

void register_lab_11_sell(Registry& r) {
    const auto call = [](auto M, auto xp, auto yp) { cpu::sell_spmv(M, xp, yp); };
    r.add({"sell", Backend::cpu, "11-sell", 1, "chunk by chunk, lane by lane over the chunk's width; y[perm[p]] += sum",
           cpu_variant<Sell>(call, SellBytes{}, SellNote{}, SellForRun{})})
        .tunables = sell_tunables();
    r.add({"sell-auto", Backend::cpu, "11-sell", 3, "the CPU SELL loop, with the (C, sigma) that choose_sell picks",
           cpu_variant<Sell>(call, SellBytes{}, SellNote{}, SellAutoForRun{})})
        .tunables = sell_tunables();
    r.add_tool(sell::sweep_tool());
#if KIT_HAVE_CUDA
    register_lab_11_sell_cuda(r);
#endif
}

}  // namespace kit
