// Lab 11 test helpers: run options with a given (C, sigma), and the tuner's answers as the
// student's program recorded them (every data member, in order).
#pragma once

#include "observe.hpp"
#include "sell_run.hpp"
#include "sell_tuner.hpp"
#include "test_support.hpp"

KIT_OBSERVABLE(kit::sell::SellCandidate, C, sigma, slots, bytes)
KIT_OBSERVABLE(kit::sell::SellChoice, best, candidates)

namespace kit::testing {

/// Run options with chunk height C and sorting window sigma.
inline RunOptions sell_shape(int C, int sigma) {
    RunOptions opt;
    opt.tunables[kSellC] = C;
    opt.tunables[kSellSigma] = sigma;
    return opt;
}

/// The shapes the kernel tests run besides the default: chunks smaller than a warp (a warp
/// then spans chunks of different widths), the warp without sorting, and two warps with a
/// window over many chunks.
inline const std::vector<std::pair<int, int>>& sell_test_shapes() {
    static const std::vector<std::pair<int, int>> shapes = {{4, 16}, {32, 1}, {64, 1024}};
    return shapes;
}

}  // namespace kit::testing
