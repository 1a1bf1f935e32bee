/// @file calibrate.hpp
/// @brief Lab 08's calibration, run as `spmv-kit calibrate`: measures the device parameters of
/// the time model on the CUDA GPU and writes the file that $KIT_DEVICE_PARAMS points at.
#pragma once

#include <string>
#include <vector>

#include "registry/variants.hpp"

namespace kit::model {

/// @brief Runs the calibration on command-line arguments (see its --help); returns the exit status.
/// @param args [in] arguments after the subcommand
int calibrate_main(const std::vector<std::string>& args);

/// @brief The calibration as a lab tool, for the registry.
LabTool calibrate_tool();

}  // namespace kit::model
