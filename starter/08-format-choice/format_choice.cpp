// Lab 08, the student's file: the PMF (step 1), storage (step 2), time (step 3), the pick (step 4).
#include <algorithm>
#include <cmath>

#include "measure/bytes_model.hpp"
#include "formats/dense.hpp"
#include "format_choice.hpp"
#include "core/kit_error.hpp"

namespace kit::model {

RowLengthPmf row_length_pmf(index_t rows, index_t cols, const std::vector<index_t>& row_ptr) {
    if (rows < 0 || cols < 0) throw Error("row_length_pmf: negative size");
    if (row_ptr.size() != static_cast<std::size_t>(rows) + 1 || row_ptr[0] != 0)
        throw Error("row_length_pmf: row_ptr needs rows + 1 = " + std::to_string(rows + 1) +
                         " offsets starting at 0, got " + std::to_string(row_ptr.size()));
    // TODO(08-format-choice step 1): b_i = number of rows r with row_ptr[r+1] - row_ptr[r] == i; nnz = row_ptr[rows]
    kit::todo("08-format-choice", 1, "row_length_pmf");
}

double mean_row_length(const RowLengthPmf& pmf) {
    // TODO(08-format-choice step 1): E(X) = sum over i of i * p_i; 0 when there are no rows
    kit::todo("08-format-choice", 1, "mean_row_length");
}

HybSplit hyb_split(const RowLengthPmf& pmf, index_t K) {
    if (K < 0) throw Error("hyb_split: K must be >= 0, got " + std::to_string(K));
    // TODO(08-format-choice step 1): sum b_i, i*b_i and min(i,K)*b_i over i <= K and over i > K; conditional means divide by the rows of each side
    kit::todo("08-format-choice", 1, "hyb_split");
}

count_t predicted_bytes(ModelFormat format, const RowLengthPmf& pmf, const StorageInputs& in, count_t value_bytes) {
    if (in.pitch_multiple < 1) throw Error("predicted_bytes: pitch_multiple must be at least 1");
    // TODO(08-format-choice step 2): the pitch is in.pitch_for(rows); ELL width = longest row; HYB = ELL of width K + COO of what rows have past K; dense = every value; call the bytes_model.hpp functions
    kit::todo("08-format-choice", 2, "predicted_bytes");
}

KernelPrediction predict_kernel(const std::string& variant, const RowLengthPmf& pmf, const StorageInputs& in,
                                count_t value_bytes, const DeviceParams& p) {
    KernelPrediction k;
    k.variant = variant;
    if (variant == "coo-atomic" || variant == "coo-segmented") k.format = ModelFormat::coo;
    else if (variant == "csr-scalar" || variant == "csr-vector") k.format = ModelFormat::csr;
    else if (variant == "ell") k.format = ModelFormat::ell;
    else if (variant == "hyb") k.format = ModelFormat::hyb;
    else if (variant == "dia-naive" || variant == "dia-vec4") k.format = ModelFormat::dia;
    else if (variant == "gemv-streamed") k.format = ModelFormat::dense;
    else throw Error("predict_kernel: the model does not cover variant '" + variant + "'");
    // TODO(08-format-choice step 3): DS = predicted_bytes; the stream rate from the lane bytes, for kernels whose threads walk rows occupancy_gbs with the loads of unrolled_rounds in flight, for COO coo_gbs; AM = ceil(DS/RW) transactions at CR = stream rate/RW; gathers, sectors, atomics (the larger of the lane queue and atomic_line_ms), CTC_m, CTC_a, the chain of each kernel and launches as in the handout's tables; total = launches + max(AM + gathers, sectors, atomics, serial) + CTC_m + CTC_a
    kit::todo("08-format-choice", 3, "predict_kernel");
}

std::size_t pick_fastest(const std::vector<KernelPrediction>& kernels) {
    // TODO(08-format-choice step 4): the smallest total_ms among feasible predictions, the first on a tie; throw kit::Error if none is feasible
    kit::todo("08-format-choice", 4, "pick_fastest");
}

}  // namespace kit::model
