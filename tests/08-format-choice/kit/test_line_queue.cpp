// The given queue of atomics on few lines of y (kit::model::atomic_line_ms, time_model.cpp):
// a y of few lines queues all of coo-atomic's atomics on them, line_atomic_ns_float or _double
// apart, even when its rows are short. Not graded (a kit test of lab 08's build).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "format_choice_test_support.hpp"
#include "time_model.hpp"

using namespace kit;
using namespace kit::model;
using format_choice_test::pmf_of;

namespace {

// 1024 rows of exactly 32 entries (the sparse layers of a neural network look like this).
CooMatrix rows_of_32() {
    CooMatrix A;
    A.rows = A.cols = 1024;
    for (index_t r = 0; r < 1024; ++r)
        for (index_t c = 0; c < 32; ++c) A.add(r, (r + 32 * c) % 1024, 1.0);
    A.normalize();
    return A;
}

DeviceParams queue_params() {
    DeviceParams p = h100_defaults();
    p.line_bytes = 128;
    p.atomic_ns = 1;
    p.line_atomic_ns_float = 3;
    p.line_atomic_ns_double = 4;
    return p;
}

}  // namespace

TEST(LineQueue, AFewLinesOfYTakeAllTheAtomics) {
    const CooMatrix A = rows_of_32();
    ASSERT_EQ(A.nnz(), 32768);
    const RowLengthPmf pmf = pmf_of(A);
    const DeviceParams p = queue_params();
    // float: 1024 rows on 1024 / 32 = 32 lines, 1024 atomics each, 3 ns apart.
    EXPECT_NEAR(atomic_line_ms(pmf, 0, 4, p), 1024 * 3 * 1e-6, 1e-12);
    // double: 64 lines of 16 entries, 512 atomics each, 4 ns apart.
    EXPECT_NEAR(atomic_line_ms(pmf, 0, 8, p), 512 * 4 * 1e-6, 1e-12);
    // HYB with K = 30 adds 2 entries of each row atomically: 2048 on 32 lines in float.
    EXPECT_NEAR(atomic_line_ms(pmf, 30, 4, p), 2048.0 / 32 * 3 * 1e-6, 1e-12);
}

TEST(LineQueue, ALargeYSpreadsThemAndTheWindowDecides) {
    // 2^20 rows of 8: y spans 32768 lines in float, 2^23 / 32768 = 256 atomics a line (768 ns);
    // the resident window (132 x 64 x 32 threads, one entry each) holds 33792 rows on 1056
    // lines, so each row's 8 atomics cost 8 / 1056 ns: 2^23 / 1056 ns in all, the longer.
    constexpr index_t n = 1 << 20;
    CooMatrix A;
    A.rows = A.cols = n;
    for (index_t r = 0; r < n; ++r)
        for (index_t k = 0; k < 8; ++k) A.add(r, (r + 4096 * k) % n, 1.0);
    A.normalize();
    const DeviceParams p = queue_params();
    ASSERT_EQ(resident_threads(p), 132 * 64 * 32);
    EXPECT_NEAR(atomic_line_ms(pmf_of(A), 0, 4, p), 8388608.0 / 1056 * 1e-6, 1e-12);
}

TEST(LineQueue, NoRowsNoQueue) {
    CooMatrix A;
    A.rows = A.cols = 0;
    EXPECT_EQ(atomic_line_ms(pmf_of(A), 0, 8, queue_params()), 0);
}

TEST(LineQueue, CalibrationFilesCarryBothLineTimes) {
    DeviceParams p = queue_params();
    p.line_atomic_ns_float = 2.5;
    p.line_atomic_ns_double = 3.75;
    p.sms = 7;
    const std::string path = ::testing::TempDir() + "line_queue_params.txt";
    write_device_params(path, p, "a test's parameters");
    const DeviceParams back = read_device_params(path);
    EXPECT_EQ(back.line_atomic_ns_float, 2.5);
    EXPECT_EQ(back.line_atomic_ns_double, 3.75);
    EXPECT_EQ(back.sms, 7);
    EXPECT_EQ(back.atomic_ns, 1);
    std::remove(path.c_str());
}
