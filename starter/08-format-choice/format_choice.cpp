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
    // TODO(08-format-choice step 1): sum b_i, i*b_i and min(i,K)*b_i on each side of K; a mean divides by its side's rows
    kit::todo("08-format-choice", 1, "hyb_split");
}

count_t predicted_bytes(ModelFormat format, const RowLengthPmf& pmf, const StorageInputs& in, count_t value_bytes) {
    if (in.pitch_multiple < 1) throw Error("predicted_bytes: pitch_multiple must be at least 1");
    // TODO(08-format-choice step 2): the bytes_model.hpp functions, with the pitch, longest row and nnz_coo of the PMF
    kit::todo("08-format-choice", 2, "predicted_bytes");
}

namespace {

// Step 3's terms, one function each, in the order predict_kernel adds them up (the handout's
// "Time" tables give each term's formula).

/// The bytes one lane loads per step of the kernel's loop.
double lane_bytes_of(const std::string& variant, ModelFormat format, double vb) {
    // TODO(08-format-choice step 3): dia-naive one value, dia-vec4 and dense four, COO value + 2 indices, else value + index
    kit::todo("08-format-choice", 3, "predict_kernel: lane bytes");
}

/// The rate the kernel streams its bytes at, GB/s.
double stream_rate(const std::string& variant, ModelFormat format, const RowLengthPmf& pmf, const StorageInputs& in,
                   double lane_bytes, const DeviceParams& p) {
    // TODO(08-format-choice step 3): min(bandwidth, narrow rate, coo_gbs for COO, occupancy_gbs for row-walking threads)
    kit::todo("08-format-choice", 3, "predict_kernel: stream rate");
}

/// DS and the memory terms: DDT, AM, the x gathers and csr-scalar's sectors.
void memory_terms(KernelPrediction& k, const RowLengthPmf& pmf, const StorageInputs& in, count_t value_bytes,
                  const DeviceParams& p) {
    // TODO(08-format-choice step 3): DS = predicted_bytes; DDT and AM = ceil(DS/RW) at stream rate/RW; gathers; sectors
    kit::todo("08-format-choice", 3, "predict_kernel: memory terms");
}

/// The atomics' time: coo-atomic's and HYB's COO part.
double atomic_ms(const std::string& variant, const RowLengthPmf& pmf, const StorageInputs& in, double vb,
                 const DeviceParams& p) {
    // TODO(08-format-choice step 3): min(E(X), W) lanes queued per atomic, or atomic_line_ms if longer; 0 without atomics
    kit::todo("08-format-choice", 3, "predict_kernel: atomics");
}

/// CTC_m and CTC_a: the multiplications and the additions on the GPU's lanes.
void compute_terms(KernelPrediction& k, const RowLengthPmf& pmf, const StorageInputs& in, count_t value_bytes,
                   const DeviceParams& p) {
    // TODO(08-format-choice step 3): products / (C x F_S); CTC_a = CTC_m, but csr-vector's warp sums ceil(E(X)/W) per row
    kit::todo("08-format-choice", 3, "predict_kernel: compute terms");
}

/// The longest chain of dependent steps, and the launches.
void serial_terms(KernelPrediction& k, const RowLengthPmf& pmf, const StorageInputs& in, const DeviceParams& p) {
    // TODO(08-format-choice step 3): a thread's, a warp's or the atomics' walk along the longest row; HYB's two launches
    kit::todo("08-format-choice", 3, "predict_kernel: chain and launches");
}

/// One SpMV's time from its terms.
double total_ms(const KernelPrediction& k) {
    // TODO(08-format-choice step 3): launches + max(AM + gathers, sectors, atomics, serial) + CTC_m + CTC_a
    kit::todo("08-format-choice", 3, "predict_kernel: total");
}

/// Marks the prediction infeasible where the kit's container would refuse the conversion.
void check_feasible(KernelPrediction& k, const RowLengthPmf& pmf, const StorageInputs& in) {
    // TODO(08-format-choice step 3): ELL and DIA refuse unless padding_accepted; dense as dense_refusal says
    kit::todo("08-format-choice", 3, "predict_kernel: feasibility");
}

}  // namespace

KernelPrediction predict_kernel(const std::string& variant, const RowLengthPmf& pmf, const StorageInputs& in,
                                count_t value_bytes, const DeviceParams& p) {
    KernelPrediction k;
    k.variant = variant;
    if (variant == "coo-atomic" || variant == "coo-segmented")
        k.format = ModelFormat::coo;
    else if (variant == "csr-scalar" || variant == "csr-vector")
        k.format = ModelFormat::csr;
    else if (variant == "ell")
        k.format = ModelFormat::ell;
    else if (variant == "hyb")
        k.format = ModelFormat::hyb;
    else if (variant == "dia-naive" || variant == "dia-vec4")
        k.format = ModelFormat::dia;
    else if (variant == "gemv-streamed")
        k.format = ModelFormat::dense;
    else
        throw Error("predict_kernel: the model does not cover variant '" + variant + "'");
    const double vb = static_cast<double>(value_bytes);
    k.stream_gbs = stream_rate(variant, k.format, pmf, in, lane_bytes_of(variant, k.format, vb), p);
    memory_terms(k, pmf, in, value_bytes, p);
    k.atomic_ms = atomic_ms(variant, pmf, in, vb, p);
    compute_terms(k, pmf, in, value_bytes, p);
    serial_terms(k, pmf, in, p);
    k.total_ms = total_ms(k);
    check_feasible(k, pmf, in);
    return k;
}

std::size_t pick_fastest(const std::vector<KernelPrediction>& kernels) {
    // TODO(08-format-choice step 4): the feasible one with the smallest total_ms, the first on a tie; else kit::Error
    kit::todo("08-format-choice", 4, "pick_fastest");
}

}  // namespace kit::model
