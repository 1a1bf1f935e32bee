/// @file kit_prediction.hpp
/// @brief What lab 08's kit tests share: one kernel's prediction out of a report.
#pragma once

#include <string>

#include "core/kit_error.hpp"
#include "format_choice.hpp"
#include "kit_kernels.hpp"

namespace kit::model::testing {

/// @brief The kit model's prediction of `variant` in `r`; throws kit::Error if it has none.
/// @param r [in] a model report  @param variant [in] registry name of a kernel
inline KernelPrediction kit_prediction(const ModelReport& r, const std::string& variant) {
    const KernelPrediction* k = find_prediction(r.kit, variant);
    if (k == nullptr) throw Error(variant + " has no prediction");
    return *k;
}

}  // namespace kit::model::testing
