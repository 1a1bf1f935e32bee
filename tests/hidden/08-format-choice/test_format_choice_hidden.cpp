// Lab 08 hidden tier: the empty matrix, empty rows, one dense row, rectangular shapes, and
// the whole hostile gallery, each checked against the kit's containers as built.
#include <gtest/gtest.h>

#include <algorithm>

#include "formats/bcsr.hpp"
#include "measure/bytes_model.hpp"
#include "formats/coo.hpp"
#include "formats/csr.hpp"
#include "formats/dia.hpp"
#include "formats/ell.hpp"
#include "format_choice.hpp"
#include "format_choice_test_support.hpp"
#include "formats/hyb.hpp"
#include "core/kit_error.hpp"
#include "observe.hpp"
#include "test_support.hpp"

using namespace kit;
using namespace kit::model;
using format_choice_test::inputs_of;
using format_choice_test::pmf_of;
using kit::testing::observe;

namespace {

CooMatrix matrix(index_t rows, index_t cols, const std::vector<std::pair<index_t, index_t>>& entries) {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (auto [r, c] : entries) A.add(r, c, 1.0 + r + c);
    A.normalize();
    return A;
}

/// An n x n diagonal whose row 0 holds all n columns: one dense row among rows of one.
CooMatrix diagonal_with_full_first_row(index_t n) {
    std::vector<std::pair<index_t, index_t>> e;
    for (index_t c = 0; c < n; ++c) e.push_back({0, c});
    for (index_t r = 1; r < n; ++r) e.push_back({r, r});
    return matrix(n, n, e);
}

// Every format: the prediction equals the container's bytes, or the container refuses and
// the time model calls the kernel infeasible.
void expect_storage_matches(const CooMatrix& A) {
    const RowLengthPmf pmf = pmf_of(A);
    const StorageInputs in = inputs_of(A, pmf);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::coo, pmf, in, 8); }),
              coo_bytes_of(Coo<double>::from_coo(A), 8));
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::csr, pmf, in, 8); }),
              csr_bytes_of(Csr<double>::from_coo(A), 8));
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::hyb, pmf, in, 4); }),
              hyb_bytes_of(Hyb<float>::from_coo(A), 4));
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::bcsr, pmf, in, 8); }),
              bcsr_bytes_of(Bcsr<double>::from_coo(A, 2, 2), 8));
    const bool ell_ok = observe([&] { return predict_kernel("ell", pmf, in, 8, h100_defaults()); }).feasible;
    const bool dia_ok = observe([&] { return predict_kernel("dia-naive", pmf, in, 8, h100_defaults()); }).feasible;
    if (ell_ok)
        EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::ell, pmf, in, 8); }),
                  ell_bytes_of(Ell<double>::from_coo(A), 8));
    else
        EXPECT_THROW(Ell<double>::from_coo(A), ConversionRefused);
    if (dia_ok)
        EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::dia, pmf, in, 8); }),
                  dia_bytes_of(Dia<double>::from_coo(A), 8));
    else
        EXPECT_THROW(Dia<double>::from_coo(A), ConversionRefused);
}

}  // namespace

TEST(Step1_PmfHidden, EmptyMatrix) {
    const RowLengthPmf pmf = observe([&] { return row_length_pmf(0, 0, {0}); });
    const HybSplit s = observe([&] { return hyb_split(pmf, 0); });

    EXPECT_TRUE(pmf.rows_with.empty() || pmf.rows_with == std::vector<count_t>{});
    EXPECT_EQ(pmf.nnz, 0);
    EXPECT_EQ(observe([&] { return mean_row_length(pmf); }), 0.0);
    EXPECT_EQ(s.p_le, 0.0);
    EXPECT_EQ(s.nnz_ell + s.nnz_coo, 0);
    EXPECT_THROW(observe([&] { return row_length_pmf(3, 3, {0, 1}); }), Error);
    EXPECT_THROW(observe([&] { return row_length_pmf(2, 2, {0, 2, 1}); }), Error);
}

TEST(Step1_PmfHidden, EmptyRows) {
    // Rows 1 and 3 of five are empty; row 4 holds three entries.
    const CooMatrix A = matrix(5, 5, {{0, 0}, {2, 1}, {2, 2}, {4, 0}, {4, 2}, {4, 4}});

    const RowLengthPmf pmf = pmf_of(A);
    const HybSplit s = observe([&] { return hyb_split(pmf, 1); });

    EXPECT_EQ(pmf.rows_with, (std::vector<count_t>{2, 1, 1, 1}));
    EXPECT_DOUBLE_EQ(observe([&] { return mean_row_length(pmf); }), 6.0 / 5.0);
    EXPECT_EQ(s.p_le, 3.0 / 5.0);
    EXPECT_EQ(s.nnz_ell, 3);
    EXPECT_EQ(s.nnz_coo, 3);
    EXPECT_EQ(hyb_width_of(pmf), Hyb<double>::from_coo(A).ell.width);
}

TEST(Step1_PmfHidden, OneDenseRow) {
    // A 3000 x 3000 diagonal whose row 0 is full: K = 1, the dense row goes to COO.
    const CooMatrix A = diagonal_with_full_first_row(3000);

    const RowLengthPmf pmf = pmf_of(A);
    const HybSplit s = observe([&] { return hyb_split(pmf, hyb_width_of(pmf)); });
    const Hyb<double> hyb = Hyb<double>::from_coo(A);

    EXPECT_EQ(pmf.longest(), 3000);
    // pmf is the student's (replayed in the judge): index it only where it has the entries.
    ASSERT_GT(pmf.rows_with.size(), 3000u);
    EXPECT_EQ(pmf.rows_with[1], 2999);
    EXPECT_EQ(pmf.rows_with[3000], 1);
    EXPECT_EQ(s.K, hyb.ell.width);
    EXPECT_EQ(s.nnz_coo, 2999);
    EXPECT_EQ(s.nnz_coo, static_cast<count_t>(hyb.coo.vals.size()));
}

TEST(Step2_StorageHidden, EmptyRowsAndRectangular) {
    expect_storage_matches(matrix(0, 0, {}));
    expect_storage_matches(matrix(5, 5, {{0, 0}, {2, 1}, {2, 2}, {4, 0}, {4, 2}, {4, 4}}));
    expect_storage_matches(matrix(3, 7, {{0, 6}, {1, 0}, {1, 5}, {2, 2}}));
    expect_storage_matches(matrix(7, 3, {{6, 0}, {0, 2}, {5, 1}, {3, 0}, {3, 1}, {3, 2}}));
    expect_storage_matches(matrix(33, 1, {{0, 0}, {32, 0}}));
}

TEST(Step2_StorageHidden, Gallery) {
    for (const auto& [name, problem] : kit::testing::hostile_gallery()) {
        SCOPED_TRACE(name);
        expect_storage_matches(problem.A);
    }
}

TEST(Step3_TimeHidden, OneDenseRow) {
    // One row of 20000 entries among 19999 rows of one: ELL would pad every row to 20000 and
    // is refused; one thread walking the dense row makes csr-scalar's chain the longest.
    const CooMatrix A = diagonal_with_full_first_row(20000);
    const RowLengthPmf pmf = pmf_of(A);
    const StorageInputs in = inputs_of(A, pmf);

    const DeviceParams p = h100_defaults();
    const KernelPrediction ell = observe([&] { return predict_kernel("ell", pmf, in, 8, p); });
    const KernelPrediction scalar = observe([&] { return predict_kernel("csr-scalar", pmf, in, 8, p); });
    const KernelPrediction vector = observe([&] { return predict_kernel("csr-vector", pmf, in, 8, p); });
    const KernelPrediction atomic = observe([&] { return predict_kernel("coo-atomic", pmf, in, 8, p); });

    EXPECT_FALSE(ell.feasible);
    EXPECT_FALSE(ell.why_not.empty());
    // Chains: one thread takes 20000 steps; one warp ceil(20000 / 32) = 625 warp steps (more
    // than 20000 rows at row_ns); coo-atomic serialises 20000 atomics on y[0].
    EXPECT_NEAR(scalar.serial_ms, 20000 * p.step_ns * 1e-6, 1e-12);
    EXPECT_NEAR(vector.serial_ms, std::max(625 * p.warp_step_ns, 20000 * p.row_ns) * 1e-6, 1e-12);
    EXPECT_NEAR(atomic.serial_ms, 20000 * p.atomic_ns * 1e-6, 1e-12);
    EXPECT_GT(scalar.total_ms, vector.total_ms);
}

TEST(Step4_PickHidden, EmptyMatrix) {
    // model_report is given, but it calls every student function: the whole report is observed.
    const CooMatrix A = matrix(0, 0, {});
    const ModelReport r = observe([&] { return model_report(A, Precision::f32, h100_defaults()); });

    EXPECT_EQ(r.pmf.nnz, 0);
    ASSERT_EQ(r.kernels.size(), covered_variants().size());
    EXPECT_FALSE(r.pick.empty());
    EXPECT_FALSE(r.reason.empty());
}
