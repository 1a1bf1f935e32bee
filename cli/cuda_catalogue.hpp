/// @file cuda_catalogue.hpp
/// @brief The labs' CUDA kernels by name, known to a build without CUDA too.
///
/// A build without nvcc compiles no `register_cuda.cu`, so its registry has no CUDA variant: a
/// printed `--format dia-naive` (lab 03's CUDA kernel) would then find only lab 07's OpenCL
/// kernel of that name and run the wrong lab's code. The catalogue (cuda_catalogue.cpp) lists
/// what a CUDA build registers; it is generated from such a build (`make cuda-catalogue`) and
/// `make test` checks there that it holds every CUDA variant the build registers, so the labs'
/// registrations stay its one source.
#pragma once

#include <string>
#include <vector>

#include "registry/variants.hpp"

namespace kit::cli {

/// @brief One CUDA variant as a CUDA build registers it.
struct CatalogueEntry {
    std::string name;     ///< Variant::name
    std::string lab;      ///< Variant::lab
    int step;             ///< Variant::step
    std::string summary;  ///< Variant::summary
};

/// @brief The generated list (cuda_catalogue.cpp).
const std::vector<CatalogueEntry>& cuda_catalogue();

/// @brief The catalogue source that this build's registry implies (a CUDA build only): its
/// CUDA variants, plus the committed entries it does not register (optional parts it left
/// out): what `make cuda-catalogue` writes to cli/cuda_catalogue.cpp.
std::string cuda_catalogue_source();

/// @brief The CUDA variants this build registers that the catalogue lacks or describes
/// otherwise ("name (lab step N)"); empty when it is up to date, or in a build without CUDA.
std::vector<std::string> cuda_catalogue_misses();

/// @brief In a build without CUDA, the catalogue's kernels as variants whose run throws
/// BackendUnavailable (saying why); empty in a build with CUDA, whose registry has them.
const std::vector<Variant>& unbuilt_cuda_variants();

/// @brief The variant `name` on `backend`: the registry's, or in a build without CUDA, a
/// catalogue entry whose run says why it cannot run; nullptr if neither has it.
/// @param name [in] variant name  @param backend [in] backend
const Variant* find_variant(const std::string& name, Backend backend);

}  // namespace kit::cli
