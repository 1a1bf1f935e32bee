/// @file sell_sweep.hpp
/// @brief Lab 11's measured sweep, run as `spmv-kit sell-sweep`: times the SELL kernel over a
/// grid of (C, sigma) on each matrix and says how far choose_sell's pick is from the fastest.
#pragma once

#include "registry/variants.hpp"

namespace kit::sell {

/// @brief The sweep as a lab tool, for the registry.
LabTool sweep_tool();

}  // namespace kit::sell
