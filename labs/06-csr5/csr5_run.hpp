/// @file csr5_run.hpp
/// @brief What the CPU and CUDA "csr5" variants share: the conversion with the tile shape of
/// the run options, the bytes model with the exact descriptor size, and the note; the three
/// arguments of kit::cpu_variant and kit::cuda_variant besides the kernel call.
#pragma once

#include <string>
#include <vector>

#include "measure/bytes_model.hpp"
#include "formats/csr5.hpp"
#include "registry/variants.hpp"

namespace kit {

/// @brief Key of the tile width (lanes) in RunOptions::tunables.
inline const std::string kCsr5Omega = "csr5_omega";
/// @brief Key of the tile height (entries per lane) in RunOptions::tunables.
inline const std::string kCsr5Sigma = "csr5_sigma";

/// @brief The declarations of the tile shape, for Variant::tunables: one place for names and ranges.
inline std::vector<Tunable> csr5_tunables() {
    return {{kCsr5Omega, 1, kCsr5MaxOmega, "lanes per tile (absent: the warp size)"},
            {kCsr5Sigma, 1, kCsr5MaxSigma, "entries per lane (absent: csr5_sigma's rule from nnz per row)"}};
}

/// @brief Converts the hub to CSR5 with the tile shape in opt (0: the defaults).
/// @param A [in] normalized hub matrix  @param opt [in] run options (csr5_omega, csr5_sigma)
template <class T>
Csr5<T> csr5_for_run(const CooMatrix& A, const RunOptions& opt) {
    return Csr5<T>::from_coo(A, {opt.tunable(kCsr5Omega), opt.tunable(kCsr5Sigma)});
}

/// @brief csr5_for_run as the `convert` argument of cpu_variant and cuda_variant.
struct Csr5ForRun {
    /// @brief csr5_for_run<T>(A, opt). @param A [in] hub matrix  @param opt [in] run options
    /// @param tag [in] T{}, the working precision
    template <class T>
    Csr5<T> operator()(const CooMatrix& A, const RunOptions& opt, T tag) const {
        (void)tag;
        return csr5_for_run<T>(A, opt);
    }
};

/// @brief The bytes model of a CSR5 run, as the `bytes` argument of cpu_variant and cuda_variant:
/// the CSR arrays, tile_ptr, the descriptors as the backend reads them and the empty_offset
/// lists, from csr5_bytes_of. The CPU reads each lane's 64-bit word (descriptor_bits 64), the
/// GPU only its sigma packed bit_flag bits (descriptor_bits 0: the matrix's sigma).
struct Csr5Bytes {
    count_t descriptor_bits = 0;  ///< bits read per lane; 0: m.sigma
    /// @brief Bytes per SpMV. @param m [in] the converted matrix  @param value_bytes [in] sizeof(T)
    template <class T>
    count_t operator()(const Csr5<T>& m, count_t value_bytes) const {
        return csr5_bytes_of(m, value_bytes, descriptor_bits > 0 ? descriptor_bits : m.sigma);
    }
};

/// @brief The note of a CSR5 run (its tile shape and layout), as the `describe` argument.
struct Csr5Note {
    /// @brief describe_layout(m). @param m [in] the converted matrix
    template <class T>
    std::string operator()(const Csr5<T>& m) const {
        return describe_layout(m);
    }
};

}  // namespace kit
