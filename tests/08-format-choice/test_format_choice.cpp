// Lab 08 public tests. Tier 1: the 4x4 example, by hand. Tier 2: rdb450 (b_4 = 8, b_5 = 104,
// b_6 = 338), its PMF and storage checked against numbers counted from the file and against
// the kit's containers as built.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "formats/bcsr.hpp"
#include "measure/bytes_model.hpp"
#include "formats/coo.hpp"
#include "formats/csr.hpp"
#include "formats/dense.hpp"
#include "formats/dia.hpp"
#include "formats/ell.hpp"
#include "format_choice.hpp"
#include "io/generators.hpp"
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

// The containers' bytes models, as built, in precision T.
template <class T>
void expect_storage_matches_containers(const CooMatrix& A) {
    const RowLengthPmf pmf = pmf_of(A);
    const StorageInputs in = inputs_of(A, pmf);
    const count_t vb = sizeof(T);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::coo, pmf, in, vb); }),
              coo_bytes_of(Coo<T>::from_coo(A), vb));
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::csr, pmf, in, vb); }),
              csr_bytes_of(Csr<T>::from_coo(A), vb));
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::ell, pmf, in, vb); }),
              ell_bytes_of(Ell<T>::from_coo(A), vb));
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::hyb, pmf, in, vb); }),
              hyb_bytes_of(Hyb<T>::from_coo(A), vb));
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::dia, pmf, in, vb); }),
              dia_bytes_of(Dia<T>::from_coo(A), vb));
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::bcsr, pmf, in, vb); }),
              bcsr_bytes_of(Bcsr<T>::from_coo(A, 2, 2), vb));
    if (!dense_refusal(A.rows, A.cols, std::max<index_t>(1, A.rows), A.nnz())) {
        EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::dense, pmf, in, vb); }),
                  dense_bytes_of(Dense<T>::from_coo(A), vb));
    }
}

// Easy numbers for the time model: 1 GB/s, 32 B transactions, 1 GHz, one lane, 1 us launches.
DeviceParams unit_device() {
    DeviceParams p;
    p.bandwidth_gbs = 1;
    p.transaction_bytes = 32;
    p.clock_ghz = 1;
    p.sms = 1;
    p.lanes_per_sm = 1;
    p.warp = 32;
    p.launch_us = 1;
    p.step_ns = 1;
    p.warp_step_ns = 1;
    p.row_ns = 0.25;
    p.atomic_ns = 1;
    p.gather_gbs = 1;
    p.pcie_gbs = 1;
    return p;
}

// The H100 defaults on a GPU of one SM holding 128 threads (4 warps of 32).
DeviceParams gpu_of_128_threads() {
    DeviceParams p = h100_defaults();
    p.sms = 1;
    p.warps_per_sm = 4;
    p.warp = 32;
    return p;
}

}  // namespace

TEST(Step1_Pmf, Example4x4) {
    const CooMatrix A = kit::testing::example4x4_problem().A;

    const RowLengthPmf pmf = pmf_of(A);
    const HybSplit s = observe([&] { return hyb_split(pmf, 2); });

    // Rows hold 2, 2, 3 and 2 entries.
    EXPECT_EQ(pmf.rows_with, (std::vector<count_t>{0, 0, 3, 1}));
    EXPECT_EQ(pmf.nnz, 9);
    EXPECT_EQ(observe([&] { return mean_row_length(pmf); }), 2.25);
    EXPECT_EQ(hyb_width_of(pmf), Hyb<double>::from_coo(A).ell.width);
    EXPECT_EQ(s.p_le, 0.75);
    EXPECT_EQ(s.p_gt, 0.25);
    EXPECT_EQ(s.e_le, 2.0);
    EXPECT_EQ(s.e_gt, 3.0);
    EXPECT_EQ(s.nnz_le, 6);
    EXPECT_EQ(s.nnz_gt, 3);
    EXPECT_EQ(s.nnz_ell, 8);
    EXPECT_EQ(s.nnz_coo, 1);
}

TEST(Step1_Pmf, Rdb450) {
    const CooMatrix A = kit::testing::rdb450_problem().A;

    const RowLengthPmf pmf = pmf_of(A);
    const HybSplit s5 = observe([&] { return hyb_split(pmf, 5); });
    const index_t K = hyb_width_of(pmf);
    const HybSplit sk = observe([&] { return hyb_split(pmf, K); });
    const Hyb<double> hyb = Hyb<double>::from_coo(A);

    EXPECT_EQ(pmf.rows_with, (std::vector<count_t>{0, 0, 0, 0, 8, 104, 338}));
    EXPECT_EQ(pmf.nnz, 2580);
    EXPECT_NEAR(observe([&] { return mean_row_length(pmf); }), 2580.0 / 450.0, 1e-13);
    EXPECT_EQ(s5.nnz_le, 4 * 8 + 5 * 104);
    EXPECT_EQ(s5.nnz_gt, 6 * 338);
    EXPECT_EQ(s5.nnz_coo, 338);
    EXPECT_NEAR(s5.e_le, 552.0 / 112.0, 1e-13);
    // The paper's identity NNZ(X <= K) = E(X | X <= K) x N x P(X <= K), and its twin.
    EXPECT_NEAR(s5.e_le * 450 * s5.p_le, static_cast<double>(s5.nnz_le), 1e-9);
    EXPECT_NEAR(s5.e_gt * 450 * s5.p_gt, static_cast<double>(s5.nnz_gt), 1e-9);
    EXPECT_EQ(K, hyb.ell.width);
    EXPECT_EQ(sk.nnz_ell, hyb.ell.nnz());
    EXPECT_EQ(sk.nnz_coo, static_cast<count_t>(hyb.coo.vals.size()));
}

TEST(Step2_Storage, Example4x4) {
    const CooMatrix A = kit::testing::example4x4_problem().A;
    const RowLengthPmf pmf = pmf_of(A);
    const StorageInputs in = inputs_of(A, pmf);

    // By hand, doubles, pitch 32, vectors 4*8 + 2*4*8 = 96 B; diagonals {0, 1, -2}; four 2x2 blocks.
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::coo, pmf, in, 8); }), 9 * 16 + 96);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::csr, pmf, in, 8); }), 5 * 4 + 9 * 12 + 96);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::ell, pmf, in, 8); }), 3 * 32 * 12 + 96);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::hyb, pmf, in, 8); }), 2 * 32 * 12 + 1 * 16 + 96);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::dia, pmf, in, 8); }), 3 * 4 + 3 * 32 * 8 + 96);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::bcsr, pmf, in, 8); }), 3 * 4 + 4 * 4 + 4 * 4 * 8 + 96);
    expect_storage_matches_containers<float>(A);
    expect_storage_matches_containers<double>(A);
}

TEST(Step2_Storage, Rdb450) {
    const CooMatrix A = kit::testing::rdb450_problem().A;
    const RowLengthPmf pmf = pmf_of(A);
    const StorageInputs in = inputs_of(A, pmf);

    // Counted from the file: 7 diagonals, 1065 nonempty 2x2 blocks; pitch 480; vectors 10800 B.
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::csr, pmf, in, 8); }), 451 * 4 + 2580 * 12 + 10800);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::ell, pmf, in, 8); }), 6 * 480 * 12 + 10800);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::dia, pmf, in, 8); }), 7 * 4 + 7 * 480 * 8 + 10800);
    EXPECT_EQ(observe([&] { return predicted_bytes(ModelFormat::bcsr, pmf, in, 8); }),
              226 * 4 + 1065 * 4 + 1065 * 32 + 10800);
    expect_storage_matches_containers<float>(A);
    expect_storage_matches_containers<double>(A);
}

TEST(Step3_Time, Example4x4) {
    const CooMatrix A = kit::testing::example4x4_problem().A;
    const RowLengthPmf pmf = pmf_of(A);
    const StorageInputs in = inputs_of(A, pmf);

    const KernelPrediction k = observe([&] { return predict_kernel("csr-vector", pmf, in, 8, unit_device()); });

    // DS = 224 B: 7 transactions of 32 B at 1 GB/s; no gathers (the entries lie on 3 diagonals,
    // so x is read in order); 9 products on one lane at 1 GHz; the paper's additions
    // (4 x 32 / 1) x ceil(2.25 / 32) cycles; a chain of max(ceil(3 / 32) = 1 warp step of 1 ns,
    // 4 rows of 0.25 ns) = 1 ns; one launch.
    EXPECT_EQ(k.bytes, 224);
    EXPECT_NEAR(k.am_ms, 224e-9 * 1e3, 1e-15);
    EXPECT_EQ(k.gather_ms, 0);
    EXPECT_NEAR(k.ctc_m_ms, 9e-9 * 1e3, 1e-15);
    EXPECT_NEAR(k.ctc_a_ms, 128e-9 * 1e3, 1e-15);
    EXPECT_NEAR(k.serial_ms, 1e-9 * 1e3, 1e-15);
    EXPECT_NEAR(k.launch_ms, 1e-3, 1e-15);
    EXPECT_NEAR(k.ddt_ms, 224e-9 * 1e3, 1e-15);
    EXPECT_NEAR(k.total_ms, 1e-3 + 224e-6 + 9e-6 + 128e-6, 1e-12);
    EXPECT_TRUE(k.feasible);
    EXPECT_THROW(observe([&] { return predict_kernel("csr5", pmf, in, 8, unit_device()); }), Error);
}

TEST(Step3_Time, Rdb450) {
    const CooMatrix A = kit::testing::rdb450_problem().A;
    const RowLengthPmf pmf = pmf_of(A);
    const StorageInputs in = inputs_of(A, pmf);
    const DeviceParams p = h100_defaults();

    for (const std::string& v : covered_variants()) {
        const KernelPrediction k = observe([&] { return predict_kernel(v, pmf, in, 8, p); });
        SCOPED_TRACE(v);
        EXPECT_EQ(k.feasible, v != "gemv-streamed");  // 202500 dense values for 2580 nonzeros: refused
        EXPECT_EQ(k.bytes, observe([&] { return predicted_bytes(k.format, pmf, in, 8); }));
        // In double every covered kernel loads at least 8 bytes per lane and step, which fills
        // DRAM at the defaults, but 450 rows are too few threads for the kernels that walk rows.
        // The COO kernels stream at coo_gbs, below the bandwidth at the defaults.
        const bool walks_rows = v == "csr-scalar" || v == "ell" || v == "hyb" || k.format == ModelFormat::dia;
        const bool coo = k.format == ModelFormat::coo;
        EXPECT_EQ(k.stream_gbs == p.bandwidth_gbs, !walks_rows && !coo);
        if (coo) {
            EXPECT_EQ(k.stream_gbs, std::min(p.bandwidth_gbs, p.coo_gbs));
        }
        // AM is DS at the stream rate, rounded up to whole transactions.
        EXPECT_GE(k.am_ms, static_cast<double>(k.bytes) / (k.stream_gbs * 1e9) * 1e3);
        EXPECT_LT(k.am_ms, static_cast<double>(k.bytes + 32) / (k.stream_gbs * 1e9) * 1e3);
        EXPECT_NEAR(k.total_ms,
                    k.launch_ms + std::max({k.am_ms + k.gather_ms, k.sector_ms, k.atomic_ms, k.serial_ms}) +
                        k.ctc_m_ms + k.ctc_a_ms,
                    1e-15);
    }
    // HYB at K = 6 holds no COO part: one launch, as ELL. (Each observed call is a statement of
    // its own, so that the calls keep their order in the student's program and in the judge.)
    const KernelPrediction hyb = observe([&] { return predict_kernel("hyb", pmf, in, 8, p); });
    const KernelPrediction ell = observe([&] { return predict_kernel("ell", pmf, in, 8, p); });
    EXPECT_EQ(hyb.launch_ms, ell.launch_ms);
    // Float halves the value bytes, so every term that reads values shrinks.
    const KernelPrediction vector_f32 = observe([&] { return predict_kernel("csr-vector", pmf, in, 4, p); });
    const KernelPrediction vector_f64 = observe([&] { return predict_kernel("csr-vector", pmf, in, 8, p); });
    EXPECT_LT(vector_f32.am_ms, vector_f64.am_ms);
}

TEST(Step3_Time, LaneBytesAndOccupancySetTheStreamRate) {
    const CooMatrix A = kit::testing::rdb450_problem().A;
    const RowLengthPmf pmf = pmf_of(A);
    const StorageInputs in = inputs_of(A, pmf);
    DeviceParams p = gpu_of_128_threads();
    p.bandwidth_gbs = 3000;
    p.narrow_gbs = 1000;
    p.latency_ns = 4;

    // Little's law: min(threads, 128) x bytes in flight / 4 ns.
    EXPECT_EQ(occupancy_gbs(p, 64, 10), 160);
    EXPECT_EQ(occupancy_gbs(p, 1000, 10), 320);
    EXPECT_EQ(occupancy_gbs(p, 0, 10), 2.5);  // a launch has at least one thread
    // Stream rate, float: min(3000, 1000 x lane bytes / 4, occupancy for the kernels that walk
    // rows). rdb450 has 7 diagonals and rows of at most 6 entries. dia-naive: 4-byte lanes,
    // 1000; 128 of 450 threads, 7 values in 1 + 3 rounds (unrolled by 4): 7 x 4 / 4 = 7 bytes in
    // flight, 224. dia-vec4: 16-byte lanes, 4000; ceil(450 / 4) = 113 threads, 7 quads in 3 + 1
    // rounds (unrolled by 2): 28 bytes, 791. ell: 8-byte lanes, 2000; 128 threads, width 6 in
    // 1 + 2 rounds: 16 bytes, 512. coo-segmented: 12-byte lanes, 3000, no occupancy term, and
    // COO's own rate coo_gbs when that is lower.
    ASSERT_EQ(in.diagonals, 7);
    ASSERT_EQ(pmf.longest(), 6);
    EXPECT_EQ(observe([&] { return predict_kernel("dia-naive", pmf, in, 4, p); }).stream_gbs, 224);
    EXPECT_EQ(observe([&] { return predict_kernel("dia-vec4", pmf, in, 4, p); }).stream_gbs, 791);
    EXPECT_EQ(observe([&] { return predict_kernel("ell", pmf, in, 4, p); }).stream_gbs, 512);
    p.coo_gbs = 5000;
    EXPECT_EQ(observe([&] { return predict_kernel("coo-segmented", pmf, in, 4, p); }).stream_gbs, 3000);
    p.coo_gbs = 2200;
    EXPECT_EQ(observe([&] { return predict_kernel("coo-segmented", pmf, in, 4, p); }).stream_gbs, 2200);
    EXPECT_EQ(observe([&] { return predict_kernel("coo-atomic", pmf, in, 4, p); }).stream_gbs, 2200);
    EXPECT_EQ(observe([&] { return predict_kernel("csr-vector", pmf, in, 4, p); }).stream_gbs,
              2000);  // 8-byte lanes; not COO
    // With 0.5 ns, dia-naive's 1792 passes its narrow lanes' 1000.
    p.latency_ns = 0.5;
    EXPECT_EQ(observe([&] { return predict_kernel("dia-naive", pmf, in, 4, p); }).stream_gbs, 1000);
    p.latency_ns = 4;
    const KernelPrediction naive = observe([&] { return predict_kernel("dia-naive", pmf, in, 4, p); });
    const KernelPrediction vec4 = observe([&] { return predict_kernel("dia-vec4", pmf, in, 4, p); });
    // AM: whole 32-byte transactions at the stream rate.
    EXPECT_NEAR(naive.am_ms, std::ceil(naive.bytes / 32.0) * 32 / 224e9 * 1e3, 1e-15);
    EXPECT_NEAR(vec4.am_ms, std::ceil(vec4.bytes / 32.0) * 32 / 791e9 * 1e3, 1e-15);
    EXPECT_EQ(vec4.serial_ms, naive.serial_ms);  // one step per diagonal either way
    EXPECT_EQ(vec4.bytes, naive.bytes);          // the same DIA container
}

TEST(Step3_Time, TripsLeftOverFromTheUnrolledLoopWaitOneRoundEach) {
    // Bands of 1024 rows with 7 and 8 diagonals (offsets -3..3 and -4..3), float. With the
    // bandwidth and the width limit out of the way, Little's law sets the stream rate: 128
    // resident threads x bytes in flight / 4 ns.
    DeviceParams p = gpu_of_128_threads();
    p.bandwidth_gbs = 1e6;
    p.narrow_gbs = 1e6;
    p.latency_ns = 4;
    const CooMatrix A7 = kit::generate_band(1024, 7, 1), A8 = kit::generate_band(1024, 8, 1);
    const RowLengthPmf pmf7 = pmf_of(A7), pmf8 = pmf_of(A8);
    const StorageInputs in7 = inputs_of(A7, pmf7), in8 = inputs_of(A8, pmf8);

    // dia-naive: 8 diagonals in 2 rounds of 4 loads, 16 bytes in flight, 512 GB/s; 7 in
    // 1 + 3 rounds, 7 bytes, 224: fewer bytes, and slower.
    EXPECT_EQ(observe([&] { return predict_kernel("dia-naive", pmf8, in8, 4, p); }).stream_gbs, 512);
    EXPECT_EQ(observe([&] { return predict_kernel("dia-naive", pmf7, in7, 4, p); }).stream_gbs, 224);
    // ELL, 8-byte lanes: width 7 in 4 rounds, 14 bytes, 448.
    EXPECT_EQ(observe([&] { return predict_kernel("ell", pmf7, in7, 4, p); }).stream_gbs, 448);
    // dia-vec4 unrolls by 2: 256 threads (all 128 resident), 7 quads in 3 + 1 rounds, 28 bytes.
    EXPECT_EQ(observe([&] { return predict_kernel("dia-vec4", pmf7, in7, 4, p); }).stream_gbs, 896);
    // csr-scalar averages over the rows: band 8 has rows of 4, 5, 6, 7 at the top, 7, 6, 5 at
    // the bottom and 1017 of 8, which take 1, 2, 3, 4, 4, 3, 2 and 2 rounds: 8176 entries in 2053
    // rounds, so 8176 x 8 / 2053 bytes in flight per thread.
    ASSERT_EQ(A8.nnz(), 8176);
    EXPECT_NEAR(observe([&] { return predict_kernel("csr-scalar", pmf8, in8, 4, p); }).stream_gbs,
                128 * (8176.0 * 8 / 2053) / 4, 1e-9);
}

TEST(Step3_Time, LongRowsPaySectorsAndAtomicsAndDenseIsOneKernel) {
    // 2048 rows of 64 entries: 64 warps x 32 rows x 64 entries x 12 B overflow a 256 KiB L1,
    // so csr-scalar reads its values and indices from L2 at sector_gbs. rdb450 (5.7 per row) fits.
    std::vector<std::pair<index_t, index_t>> e;
    for (index_t r = 0; r < 2048; ++r)
        for (index_t c = 0; c < 64; ++c) e.push_back({r, (r * 7 + c * 31) % 2048});
    CooMatrix A;
    A.rows = A.cols = 2048;
    for (const auto& [r, c] : e) A.add(r, c, 1.0);
    A.normalize();
    const RowLengthPmf pmf = pmf_of(A);
    // An atomic on a line of y as cheap as 0.01 ns: the queue of all atomics on y's few lines
    // (given code, atomic_line_ms, tested in tests/08-format-choice/kit) stays shorter than the
    // lanes' queue this test checks (with the defaults it is the longer on both matrices).
    DeviceParams p = h100_defaults();
    p.line_atomic_ns_float = p.line_atomic_ns_double = 0.01;

    const KernelPrediction scalar = observe([&] { return predict_kernel("csr-scalar", pmf, inputs_of(A, pmf), 8, p); });
    const CooMatrix rdb = kit::testing::rdb450_problem().A;
    const RowLengthPmf rdb_pmf = pmf_of(rdb);
    const KernelPrediction short_rows =
        observe([&] { return predict_kernel("csr-scalar", rdb_pmf, inputs_of(rdb, rdb_pmf), 8, p); });
    const KernelPrediction dense =
        observe([&] { return predict_kernel("gemv-streamed", rdb_pmf, inputs_of(rdb, rdb_pmf), 8, p); });

    EXPECT_NEAR(scalar.sector_ms, A.nnz() * 12.0 / (p.sector_gbs * 1e9) * 1e3, 1e-12);
    // Its entries scatter over 4000 diagonals: every x read is a gather. rdb450's 7 diagonals
    // read x in order.
    EXPECT_NEAR(scalar.gather_ms, A.nnz() * 8.0 / (p.gather_gbs * 1e9) * 1e3, 1e-12);
    EXPECT_EQ(short_rows.gather_ms, 0);
    EXPECT_EQ(short_rows.sector_ms, 0);
    EXPECT_EQ(observe([&] { return predict_kernel("csr-vector", pmf, inputs_of(A, pmf), 8, p); }).sector_ms, 0);
    // coo-atomic: each warp's 32 lanes land on one row's y entry (rows of 64), or on about
    // 5.7 lanes each (rdb450's mean row length).
    EXPECT_NEAR(observe([&] { return predict_kernel("coo-atomic", pmf, inputs_of(A, pmf), 8, p); }).atomic_ms,
                A.nnz() * 32.0 / p.atomic_lanes_per_ns * 1e-6, 1e-12);
    EXPECT_NEAR(observe([&] { return predict_kernel("coo-atomic", rdb_pmf, inputs_of(rdb, rdb_pmf), 8, p); }).atomic_ms,
                2580 * (2580.0 / 450) / p.atomic_lanes_per_ns * 1e-6, 1e-12);
    EXPECT_EQ(observe([&] { return predict_kernel("coo-segmented", pmf, inputs_of(A, pmf), 8, p); }).atomic_ms, 0);
    // rdb450 as a dense matrix: 202500 values for 2580 nonzeros, refused like the container.
    EXPECT_EQ(dense.format, ModelFormat::dense);
    EXPECT_FALSE(dense.feasible);
    EXPECT_NE(dense.why_not.find("values per nonzero"), std::string::npos) << dense.why_not;
    // A dense 4x4 example: every value, x read in order (no gathers).
    const CooMatrix ex = kit::testing::example4x4_problem().A;
    const RowLengthPmf ex_pmf = pmf_of(ex);
    const KernelPrediction small =
        observe([&] { return predict_kernel("gemv-streamed", ex_pmf, inputs_of(ex, ex_pmf), 8, unit_device()); });
    EXPECT_TRUE(small.feasible);
    EXPECT_EQ(small.bytes, dense_bytes(4, 4, 8));
    EXPECT_EQ(small.gather_ms, 0);
    EXPECT_NEAR(small.ctc_m_ms, 16e-9 * 1e3, 1e-15);  // 16 products on one lane at 1 GHz
}

TEST(Step4_Pick, Example) {
    std::vector<KernelPrediction> k(4);
    k[0].total_ms = 3;
    k[1].total_ms = 1;
    k[1].feasible = false;
    k[2].total_ms = 2;
    k[3].total_ms = 2;

    EXPECT_EQ(observe([&] { return pick_fastest(k); }),
              2u);  // the infeasible 1 ms is skipped; the first 2 ms wins the tie
    for (auto& p : k) p.feasible = false;
    EXPECT_THROW(observe([&] { return pick_fastest(k); }), Error);
    EXPECT_THROW(observe([&] { return pick_fastest({}); }), Error);
}

TEST(Step4_Pick, Rdb450) {
    const CooMatrix A = kit::testing::rdb450_problem().A;

    // model_report is given, but it calls every student function: the whole report is observed.
    const ModelReport r = observe([&] { return model_report(A, Precision::f64, h100_defaults()); });

    EXPECT_EQ(r.pmf.nnz, 2580);
    EXPECT_EQ(r.storage.size(), 7u);
    ASSERT_EQ(r.kernels.size(), covered_variants().size());  // predicted whether or not CUDA is built in
    // The pick is pick_fastest over the kit's model (every CUDA kernel, the paper's terms with
    // launches and dependent rounds added), which covers the paper's kernels too.
    for (const std::string& v : covered_variants())
        EXPECT_TRUE(std::any_of(r.kit.begin(), r.kit.end(), [&](const KernelPrediction& k) { return k.variant == v; }))
            << v;
    double best = 1e300;
    for (const KernelPrediction& k : r.kit)
        if (k.feasible) best = std::min(best, k.total_ms);
    bool found = false;
    for (const KernelPrediction& k : r.kit)
        if (k.variant == r.pick) {
            found = true;
            EXPECT_EQ(k.total_ms, best);
        }
    EXPECT_TRUE(found) << r.pick;
    EXPECT_FALSE(r.reason.empty());
}

TEST(Step3_Time, LongRowsQueueAtomicsOnFewLinesOfY) {
    // 2 rows of 4096 entries and 30 rows of 4. With 128 resident threads (one entry each) and
    // 128-byte lines, a long row fills the window alone: its 4096 atomics queue on one line,
    // 1 ns apart. A row of 4 shares the window with 31 others, whose y entries lie on
    // 32 / 16 = 2 lines in double (16 per line) and on 1 in float (32 per line).
    CooMatrix A;
    A.rows = 32;
    A.cols = 4096;
    for (index_t r = 0; r < 2; ++r)
        for (index_t c = 0; c < 4096; ++c) A.add(r, c, 1.0);
    for (index_t r = 2; r < 32; ++r)
        for (index_t c = 0; c < 4; ++c) A.add(r, c * 7, 1.0);
    A.normalize();
    const RowLengthPmf pmf = pmf_of(A);
    const StorageInputs in = inputs_of(A, pmf);
    DeviceParams p = gpu_of_128_threads();
    p.atomic_ns = 1;
    p.line_bytes = 128;
    p.atomic_lanes_per_ns = 1000;
    // y's own 2 lines (1 in float) at 0.5 ns an atomic: 8312 / 2 x 0.5 = 2078 ns in double,
    // 4156 in float, shorter than the window's queue checked here (kit tests check that one).
    p.line_atomic_ns_float = p.line_atomic_ns_double = 0.5;

    // Lane queue: 8312 entries x min(E(X) = 259.75, 32) / 1000 lanes per ns = 266 ns, less
    // than the line queue.
    EXPECT_NEAR(observe([&] { return predict_kernel("coo-atomic", pmf, in, 8, p); }).atomic_ms,
                (2 * 4096 + 30 * 4 / 2.0) * 1e-6, 1e-15);
    EXPECT_NEAR(observe([&] { return predict_kernel("coo-atomic", pmf, in, 4, p); }).atomic_ms,
                (2 * 4096 + 30 * 4) * 1e-6, 1e-15);
    // HYB adds only the long rows' entries past its ELL width K atomically, one line each.
    const double K = static_cast<double>(in.hyb_width);
    ASSERT_EQ(K, 4);
    EXPECT_NEAR(observe([&] { return predict_kernel("hyb", pmf, in, 8, p); }).atomic_ms, 2 * (4096 - K) * 1e-6, 1e-15);
    // Few lanes per ns: the lane queue is the longer one.
    p.atomic_lanes_per_ns = 0.01;
    EXPECT_NEAR(observe([&] { return predict_kernel("coo-atomic", pmf, in, 8, p); }).atomic_ms, 8312 * 32 / 0.01 * 1e-6,
                1e-9);
}
