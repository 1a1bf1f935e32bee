/// @file csr5_run.hpp
/// @brief What the CPU and CUDA "csr5" variants share: the conversion with the tile shape of
/// the run options, and the bytes model with the exact descriptor size.
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

/// @brief Fills the bytes model and the note of a CSR5 run.
///
/// Bytes: the CSR arrays, tile_ptr, the descriptors as the backend reads them (the CPU
/// reads each lane's 64-bit word, the GPU only its sigma packed bit_flag bits), and the
/// empty_offset lists, from csr5_bytes_of.
/// @param m [in] the converted matrix  @param descriptor_bits [in] bits read per lane (64 or m.sigma)
/// @param out [in,out] the run's result
template <class T>
void describe_csr5_run(const Csr5<T>& m, count_t descriptor_bits, RunResult& out) {
    out.bytes = csr5_bytes_of(m, sizeof(T), descriptor_bits);
    out.note = describe_layout(m);
}

}  // namespace kit
