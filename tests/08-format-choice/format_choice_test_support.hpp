/// @file format_choice_test_support.hpp
/// @brief Lab 08 test helpers shared by the public and hidden tiers: a matrix's PMF and the
/// storage inputs the PMF does not carry, both from the lab's given functions, and the codecs
/// of the lab's records for kit::testing::observe (every call into the student's
/// format_choice.cpp, or into given code that reaches it such as model_report, is observed).
#pragma once

#include "formats/coo.hpp"
#include "format_choice.hpp"
#include "observe.hpp"

// The records the student's functions return, field by field in declaration order
// (labs/common/model/format_model.hpp); ModelReport's members need theirs first.
KIT_OBSERVABLE(kit::model::RowLengthPmf, rows, cols, nnz, rows_with)
KIT_OBSERVABLE(kit::model::HybSplit, K, p_le, p_gt, e_le, e_gt, nnz_le, nnz_gt, nnz_ell, nnz_coo)
KIT_OBSERVABLE(kit::model::StorageInputs, diagonals, bcsr_r, bcsr_c, bcsr_blocks, hyb_width, pitch_multiple)
KIT_OBSERVABLE(kit::model::KernelPrediction, variant, format, bytes, ddt_ms, am_ms, stream_gbs, gather_ms, sector_ms,
               atomic_ms, ctc_m_ms, ctc_a_ms, serial_ms, launch_ms, launches, rounds, rounds_ms, loop_ms, fixed_ms,
               total_ms, feasible, why_not)
KIT_OBSERVABLE(kit::model::FormatStorage, format, bytes, feasible)
KIT_OBSERVABLE(kit::model::ModelReport, pmf, mean, hyb, inputs, storage, kernels, kit, pick, reason)

namespace format_choice_test {

/// @brief The row-length PMF of a normalized hub matrix (the student's row_length_pmf, observed).
/// @param A [in] matrix
inline kit::model::RowLengthPmf pmf_of(const kit::CooMatrix& A) {
    const std::vector<kit::index_t> row_ptr = kit::model::row_offsets_of(A);
    return kit::testing::observe([&] { return kit::model::row_length_pmf(A.rows, A.cols, row_ptr); });
}

/// @brief Diagonals, 2x2 blocks and the HYB width of A, as model_report finds them.
/// @param A [in] matrix  @param pmf [in] its PMF
inline kit::model::StorageInputs inputs_of(const kit::CooMatrix& A, const kit::model::RowLengthPmf& pmf) {
    kit::model::StorageInputs in;
    in.diagonals = kit::model::count_diagonals(A);
    in.bcsr_blocks = kit::model::count_blocks(A, 2, 2);
    in.hyb_width = kit::model::hyb_width_of(pmf);
    return in;
}

}  // namespace format_choice_test
