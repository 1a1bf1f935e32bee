/// @file format_choice.hpp
/// @brief Lab 08: the probabilistic format-choice model of Li, Yang and Li (TPDS 2014).
///
/// Steps (handouts/08-format-choice.md): 1. the row-length PMF and its statistics, 2. each
/// format's storage from the PMF, 3. each kernel's time, 4. the pick. The records live in
/// labs/common/model/format_model.hpp so that the CLI can print them; the device-level terms
/// of the time model in time_model.hpp.
#pragma once

#include <string>
#include <vector>

#include "formats/coo.hpp"
#include "model/format_model.hpp"
#include "time_model.hpp"

namespace kit::model {

// ---- Step 1 (student): the PMF and its statistics -------------------------------------

/// @brief The row-length PMF from CSR row offsets: b_i = rows with row_ptr[r+1] - row_ptr[r] = i.
/// Throws kit::Error if row_ptr does not have rows + 1 non-decreasing entries starting at 0.
/// @param rows [in] N  @param cols [in] M  @param row_ptr [in] rows + 1 offsets
RowLengthPmf row_length_pmf(index_t rows, index_t cols, const std::vector<index_t>& row_ptr);

/// @brief E(X) = sum i p_i, the mean row length (0 for a matrix with no rows). @param pmf [in] PMF
double mean_row_length(const RowLengthPmf& pmf);

/// @brief The HYB split at width K: P(X <= K), P(X > K), the conditional means, NNZ(X <= K),
/// NNZ(X > K), and the entries of the ELL and COO parts.
/// @param pmf [in] PMF  @param K [in] ELL width (>= 0)
HybSplit hyb_split(const RowLengthPmf& pmf, index_t K);

// ---- Step 2 (student): storage ---------------------------------------------------------

/// @brief Bytes of `format` from the PMF and `inputs` alone, equal to the kit's bytes model of
/// the container as built (kit::*_bytes_of in bytes_model.hpp: arrays with padding, and vectors).
/// @param format [in] format  @param pmf [in] PMF  @param inputs [in] diagonals, blocks, K, pitch
/// @param value_bytes [in] sizeof(T)
count_t predicted_bytes(ModelFormat format, const RowLengthPmf& pmf, const StorageInputs& inputs, count_t value_bytes);

// ---- Step 3 (student): time ------------------------------------------------------------

/// @brief Predicted time of one SpMV by a registered CUDA variant, term by term.
/// Covered variants: "coo-atomic", "coo-segmented", "csr-scalar", "csr-vector", "ell", "hyb",
/// "dia-naive", "dia-vec4" (lab 07's four rows per thread), "gemv-streamed" (lab 09's dense kernel);
/// throws Error for any other name.
/// @param variant [in] variant name  @param pmf [in] PMF  @param inputs [in] storage inputs
/// @param value_bytes [in] sizeof(T)  @param params [in] device parameters
KernelPrediction predict_kernel(const std::string& variant, const RowLengthPmf& pmf, const StorageInputs& inputs,
                                count_t value_bytes, const DeviceParams& params);

// ---- Step 4 (student): the pick --------------------------------------------------------

/// @brief Index of the feasible prediction with the smallest total_ms (the first on a tie);
/// throws Error if none is feasible.
/// @param kernels [in] predictions
std::size_t pick_fastest(const std::vector<KernelPrediction>& kernels);

// ---- Given (labs/08-format-choice/format_choice_support.cpp) ---------------------------

/// @brief The variants the model covers, in the order they are predicted.
const std::vector<std::string>& covered_variants();

/// @brief K of the kit's HYB container (kit::hyb_ell_width with its defaults), from the PMF.
/// @param pmf [in] PMF
index_t hyb_width_of(const RowLengthPmf& pmf);

/// @brief Exact number of nonempty r x c blocks of A (blocks aligned to multiples of r and c).
/// @param A [in] normalized hub matrix  @param r [in] block rows  @param c [in] block columns
count_t count_blocks(const CooMatrix& A, int r, int c);

/// @brief Occupied diagonals of A (distinct col - row). @param A [in] normalized hub matrix
index_t count_diagonals(const CooMatrix& A);

/// @brief CSR row offsets of a normalized hub matrix. @param A [in] normalized hub matrix
std::vector<index_t> row_offsets_of(const CooMatrix& A);

/// @brief Whether the kit's ELL or DIA container accepts `slots` padded slots for `nnz`
/// entries (their default limits: slots <= 3 nnz + 65536).
/// @param slots [in] stored slots  @param nnz [in] entries
bool padding_accepted(count_t slots, count_t nnz);

/// @brief The whole flow for one matrix: PMF, split, storage, every covered variant's
/// predicted time (built into this binary or not), the pick and why. Installed as the CLI's model by register.cpp.
/// @param A [in] normalized hub matrix  @param precision [in] working precision
/// @param params [in] device parameters (a float run sees its own chain: DeviceParams::for_values)
ModelReport model_report(const CooMatrix& A, Precision precision, const DeviceParams& params);

}  // namespace kit::model
