/// @file format_choice_test_support.hpp
/// @brief Lab 08 test helpers shared by the public and hidden tiers: a matrix's PMF and the
/// storage inputs the PMF does not carry, both from the lab's given functions.
#pragma once

#include "coo.hpp"
#include "format_choice.hpp"

namespace format_choice_test {

/// @brief The row-length PMF of a normalized hub matrix. @param A [in] matrix
inline kit::model::RowLengthPmf pmf_of(const kit::CooMatrix& A) {
    return kit::model::row_length_pmf(A.rows, A.cols, kit::model::row_offsets_of(A));
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
