// Lab 08's given code: the figures the PMF does not hold, and the flow that ties the steps together.
#include <algorithm>
#include <cstdio>

#include "formats/dense.hpp"
#include "formats/dia.hpp"
#include "formats/ell.hpp"
#include "format_choice.hpp"
#include "core/kit_error.hpp"
#include "kit_kernels.hpp"
#include "model/matrix_stats.hpp"

namespace kit::model {

const std::vector<std::string>& covered_variants() {
    // dia-vec4 after dia-naive: on a tie the pick is the simpler kernel.
    static const std::vector<std::string> names = {"coo-atomic", "coo-segmented", "csr-scalar", "csr-vector",   "ell",
                                                   "hyb",        "dia-naive",     "dia-vec4",   "gemv-streamed"};
    return names;
}

index_t hyb_width_of(const RowLengthPmf& pmf) {
    // kit::hyb_ell_width with relative_speed 3 and no break-even: the largest k that at
    // least rows / 3 rows reach; walking b_i from the top counts the rows with >= k entries.
    const double needed = static_cast<double>(pmf.rows) / 3.0;
    count_t at_least = 0;
    for (index_t k = pmf.longest(); k > 0; --k) {
        at_least += pmf.rows_with[static_cast<std::size_t>(k)];
        if (static_cast<double>(at_least) >= needed) return k;
    }
    return 0;
}

count_t count_blocks(const CooMatrix& A, int r, int c) {
    if (r < 1 || c < 1) throw Error("count_blocks: block sizes must be at least 1");
    return nonempty_blocks(A, r, c);  // one block row at a time over sorted columns: no hash set per entry
}

index_t count_diagonals(const CooMatrix& A) { return occupied_diagonals(A); }

std::vector<index_t> row_offsets_of(const CooMatrix& A) {
    std::vector<index_t> ptr(static_cast<std::size_t>(A.rows) + 1, 0);
    for (count_t k = 0; k < A.nnz(); ++k) ++ptr[static_cast<std::size_t>(A.row_idx[k]) + 1];
    for (std::size_t i = 1; i < ptr.size(); ++i) ptr[i] += ptr[i - 1];
    return ptr;
}

namespace {

/// The PMF from the offsets of the nonempty rows only, their count being the rows it sees,
/// with the empty rows then added to b_0: the same PMF as from all rows + 1 offsets, in
/// memory proportional to the entries (a 10^9 x 1 matrix with 3 entries costs 4 offsets,
/// not 4 GB). A is normalized, so each row's entries are one run.
RowLengthPmf pmf_by_entries(const CooMatrix& A) {
    std::vector<index_t> ptr{0};
    const std::size_t n = A.vals.size();
    for (std::size_t k = 0; k < n;) {
        std::size_t e = k;
        while (e < n && A.row_idx[e] == A.row_idx[k]) ++e;
        ptr.push_back(static_cast<index_t>(e));
        k = e;
    }
    const auto nonempty = static_cast<index_t>(ptr.size() - 1);
    RowLengthPmf pmf = row_length_pmf(nonempty, A.cols, ptr);
    if (A.rows > nonempty) {
        if (pmf.rows_with.empty()) pmf.rows_with.assign(1, 0);
        pmf.rows_with[0] += A.rows - nonempty;
    }
    pmf.rows = A.rows;
    return pmf;
}

}  // namespace

bool padding_accepted(count_t slots, count_t nnz) {
    // The containers' own default limits, which ELL and DIA share.
    constexpr EllLimits ell{};
    constexpr DiaLimits dia{};
    static_assert(ell.max_fill == dia.max_fill && ell.floor_slots == dia.floor_slots, "ELL and DIA limits differ");
    return static_cast<double>(slots) <= ell.max_fill * static_cast<double>(nnz) + static_cast<double>(ell.floor_slots);
}

ModelReport model_report(const CooMatrix& A, Precision precision, const DeviceParams& device) {
    if (!A.is_normalized()) throw Error("model_report: hub matrix is not normalized (call normalize())");
    const count_t vb = value_bytes_of(precision);
    const DeviceParams params = device.for_values(static_cast<double>(vb));  // the chain of this precision
    ModelReport out;
    out.pmf = pmf_by_entries(A);
    out.mean = mean_row_length(out.pmf);
    out.inputs.diagonals = count_diagonals(A);
    out.inputs.bcsr_blocks = count_blocks(A, out.inputs.bcsr_r, out.inputs.bcsr_c);
    out.inputs.hyb_width = hyb_width_of(out.pmf);
    out.hyb = hyb_split(out.pmf, out.inputs.hyb_width);
    const count_t pitch = out.inputs.pitch_for(A.rows);
    for (ModelFormat f : {ModelFormat::coo, ModelFormat::csr, ModelFormat::ell, ModelFormat::hyb, ModelFormat::dia,
                          ModelFormat::bcsr, ModelFormat::dense}) {
        FormatStorage s{f, predicted_bytes(f, out.pmf, out.inputs, vb), true};
        if (f == ModelFormat::ell) s.feasible = padding_accepted(pitch * out.pmf.longest(), A.nnz());
        if (f == ModelFormat::dia) s.feasible = padding_accepted(pitch * out.inputs.diagonals, A.nnz());
        if (f == ModelFormat::dense) s.feasible = !dense_refusal(A.rows, A.cols, std::max<index_t>(1, A.rows), A.nnz());
        out.storage.push_back(s);
    }
    // Every covered kernel is predicted, built in or not: the model describes the GPU the
    // parameters name, and `spmv-kit info` is as useful on a laptop without CUDA.
    for (const std::string& name : covered_variants())
        out.kernels.push_back(predict_kernel(name, out.pmf, out.inputs, vb, params));
    // The pick is the kit's model's: the paper's terms with launches and dependent rounds
    // added, over every CUDA kernel of the kit (kit_kernels.hpp).
    out.kit = predict_kit_kernels(A, out, vb, params);
    apply_fixed_costs(out.kit, precision, params);
    const KernelPrediction& best = out.kit[pick_fastest(out.kit)];
    out.pick = best.variant;
    const KernelPrediction* second = nullptr;
    for (const KernelPrediction& k : out.kit)
        if (k.feasible && &k != &best && (!second || k.total_ms < second->total_ms)) second = &k;
    char line[256];
    std::snprintf(line, sizeof line, "predicted %.4g ms (%s: %lld B), next %s at %.4g ms", best.total_ms,
                  to_string(best.format).c_str(), static_cast<long long>(best.bytes),
                  second ? second->variant.c_str() : "none", second ? second->total_ms : 0.0);
    out.reason = line;
    return out;
}

}  // namespace kit::model
