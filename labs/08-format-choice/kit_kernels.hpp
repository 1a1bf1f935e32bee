/// @file kit_kernels.hpp
/// @brief The kit's model of every CUDA SpMV kernel it ships, built on the paper's (step 3).
///
/// The paper's terms (predict_kernel) describe a kernel that streams its bytes. On the real
/// matrices most users bring (thousands of entries, not millions) a cold SpMV is all start-up:
/// launches, and loads that wait for the loads before them (a row offset, then a column index,
/// then x, then y for y += sum). The kit adds, to every kernel: its launches per call (launch_us,
/// less the four dependent rounds that csr-scalar's launch on the 4x4 example holds), and its
/// dependent DRAM rounds at latency_ns each; and it predicts the kernels the paper does not cover (csr-lanes,
/// csr-merge, csr5, the BCSR kernels, the DIA kernels of lab 07, SELL, the dense kernels) from
/// the paper kernel they resemble, with their own bytes, launches and rounds. Where calibrate
/// timed a kernel on a small matrix (fixed_cost_matrix), that time replaces the model's own
/// figure for that matrix (apply_fixed_costs). Handout 08, "The kit's model", gives each term with the measurement behind it.
#pragma once

#include <string>
#include <vector>

#include "formats/coo.hpp"
#include "model/format_model.hpp"

namespace kit::model {

/// @brief One launch's own cost: launch_us less csr-scalar's four dependent rounds (row offset,
/// column index and value, x, y) on the 4x4 example that calibrate timed with it (at least a
/// fifth of launch_us). @param p [in] device parameters
double pure_launch_us(const DeviceParams& p);

/// @brief The slowest of a prediction's stream terms (AM with the gathers, sectors, atomics,
/// the serial chain): what its loop rounds (KernelPrediction::loop_ms) run beside.
/// @param k [in] a kit kernel's prediction
double stream_ms(const KernelPrediction& k);

/// @brief The prediction of `variant` in `kit` (ModelReport::kit), or nullptr if it has none.
/// @param kit [in] the kit's predictions  @param variant [in] registry name of a kernel
const KernelPrediction* find_prediction(const std::vector<KernelPrediction>& kit, const std::string& variant);

/// @brief Every CUDA SpMV kernel of the kit, predicted by the kit's model (ModelReport::kit).
/// @param A [in] normalized hub matrix  @param paper [in] the report with the paper's predictions
/// (ModelReport::kernels, every covered variant) and the storage inputs filled in
/// @param value_bytes [in] 4 or 8  @param p [in] device parameters
std::vector<KernelPrediction> predict_kit_kernels(const CooMatrix& A, const ModelReport& paper, count_t value_bytes,
                                                  const DeviceParams& p);

/// @brief Whether calibrate times `variant`'s fixed cost on one dense 64 x 64 block rather
/// than the 4x4 example: lab 09's blocked kernels (gemv-blocked, gemv-streamed, gemv-tuned and
/// their -t forms), whose one thread block per block row does on 4 rows a fraction of the work
/// it does on 10 to 50 (the streamed ones on a second stream, whose fork and join cost 4 to 6 us
/// depending on what the process ran before). gemv-thread stays on the 4x4 example: on the
/// block its thread walks 64 columns, a chain the model prices lower, and that difference would
/// land on every matrix.
/// @param variant [in] registry name of a kernel
bool timed_on_dense_block(const std::string& variant);

/// @brief The matrix on which calibrate times a kernel's fixed cost: the dense block where
/// timed_on_dense_block(), else the 4x4 example. @param variant [in] registry name of a kernel
CooMatrix fixed_cost_matrix(const std::string& variant);

/// @brief Charges each kernel the fixed cost calibrate measured (DeviceParams::fixed_us()): the
/// kernel's time on its fixed_cost_matrix(), plus what the model predicts beyond its own
/// prediction for that matrix. A model of launches and rounds predicts every small matrix at
/// the same floor for kernels that differ there by half a microsecond (coo-segmented's and the
/// dense kernels' set-up against coo-atomic's); the measurement tells them apart. No-op when
/// the precision's map is empty; kernels that launch nothing (an empty matrix) keep their
/// prediction.
/// @param kit [in,out] ModelReport::kit  @param precision [in] the working precision
/// @param p [in] device parameters
void apply_fixed_costs(std::vector<KernelPrediction>& kit, Precision precision, const DeviceParams& p);

}  // namespace kit::model
