/// @file tune_profile.hpp
/// @brief The offline half of the GOSpMV autotuner, run as `spmv-kit tune-profile`: times the
/// lab's BCSR kernels on dense matrices, panels and chains stored as r x c BCSR, and writes the
/// profile (bcsr_profile.hpp) that the tuner reads.
#pragma once

#include <string>
#include <vector>

#include "registry/variants.hpp"

namespace kit::bcsr {

/// @brief Runs the profiler on command-line arguments (see its --help); returns the exit status.
/// @param args [in] arguments after the subcommand
int tune_profile_main(const std::vector<std::string>& args);

/// @brief The profiler as a lab tool, for the registry.
LabTool tune_profile_tool();

}  // namespace kit::bcsr
