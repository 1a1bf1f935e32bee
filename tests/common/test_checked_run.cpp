// The one checked run: statuses, the range a precision can check, and equal infinities.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "check/checked_run.hpp"
#include "io/generators.hpp"
#include "check/oracle.hpp"

namespace {

// test_common links no lab: a COO loop in the working precision stands in for a kernel.
const kit::Variant& cpu_csr() {
    static const kit::Variant v{"coo-loop",
                                kit::Backend::cpu,
                                "test",
                                0,
                                "one loop over the entries",
                                [](const kit::CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                   const kit::RunOptions& opt) {
                                    return kit::dispatch_precision(opt.precision, [&](auto tag) {
                                        using T = decltype(tag);
                                        const std::vector<T> vals(A.vals.begin(), A.vals.end());
                                        return kit::run_on_cpu<T>(x, y, opt, [&](const T* xp, T* yp) {
                                            for (std::size_t k = 0; k < vals.size(); ++k)
                                                yp[A.row_idx[k]] += vals[k] * xp[A.col_idx[k]];
                                        });
                                    });
                                }};
    return v;
}

kit::CooMatrix one_row(double a, double b) {
    kit::CooMatrix A;
    A.rows = 1;
    A.cols = 2;
    A.add(0, 0, a);
    A.add(0, 1, b);
    return A;
}

}  // namespace

TEST(CheckedRun, EqualInfinitiesAreNoError) {
    const double inf = std::numeric_limits<double>::infinity();

    const kit::Mismatch same = kit::compare_with_oracle({inf, -inf, 1.0}, {inf, -inf, 1.0}, {0.5, 0.5, 0.5});
    const kit::Mismatch other = kit::compare_with_oracle({inf}, {-inf}, {0.5});

    EXPECT_EQ(same.row, -1);
    EXPECT_EQ(same.max_error, 0.0);
    EXPECT_EQ(other.row, 0);
}

TEST(CheckedRun, FloatRunOfAMatrixOutsideTheFloatRangeIsRefusedNotWrong) {
    const kit::Reference ref(one_row(4.8e38, 1.0), {1.0, 1.0}, {0.0});
    kit::RunOptions opt;
    opt.precision = kit::Precision::f32;

    const kit::CheckedRun f32 = kit::run_checked(cpu_csr(), ref, opt);
    opt.precision = kit::Precision::f64;
    const kit::CheckedRun f64 = kit::run_checked(cpu_csr(), ref, opt);

    EXPECT_EQ(f32.status, kit::RunStatus::refused) << f32.message;
    EXPECT_NE(f32.message.find("float range"), std::string::npos) << f32.message;
    EXPECT_EQ(f64.status, kit::RunStatus::ok) << f64.message;
}

TEST(CheckedRun, RowSumsBeyondDoubleAreRefusedWithTheRow) {
    const kit::Reference ref(one_row(1e308, 1e308), {1.0, 1.0}, {0.0});
    kit::RunOptions opt;

    const kit::CheckedRun c = kit::run_checked(cpu_csr(), ref, opt);

    EXPECT_EQ(c.status, kit::RunStatus::refused) << c.message;
    EXPECT_NE(c.message.find("row 0"), std::string::npos) << c.message;
}

TEST(CheckedRun, ExactComparisonAndRatesOnTheExample) {
    const kit::Reference ref(kit::example4x4(), {1, 2, 3, 4}, {1, 2, 3, 4});
    kit::RunOptions opt;
    opt.repeats = 3;
    opt.steady_calls = 4;

    const kit::CheckedRun c = kit::run_checked(cpu_csr(), ref, opt, kit::Comparison::exact);

    ASSERT_EQ(c.status, kit::RunStatus::ok) << c.message;
    EXPECT_EQ(c.result.y, (std::vector<double>{16, 30, 53, 32}));
    EXPECT_EQ(c.result.times_ms.size(), 3u);
    EXPECT_GT(c.result.steady_ms, 0.0);
    EXPECT_GT(c.gflops, 0.0);
    EXPECT_GT(c.steady_gflops, 0.0);
}

TEST(CheckedRun, MachineEpsilonHasOneDefinition) {
    EXPECT_EQ(kit::eps_of(kit::Precision::f32), static_cast<double>(std::numeric_limits<float>::epsilon()));
    EXPECT_EQ(kit::eps_of(kit::Precision::f64), std::numeric_limits<double>::epsilon());
}

// ---------------------------------------------------------------- the bottom of the range

namespace {

/// 3 x 1 with one entry `a` in the last row, x = {x0}, y = 0: the issue's `3 1 1` / `3 1 a`.
kit::Reference last_row_only(double a, double x0) {
    kit::CooMatrix A;
    A.rows = 3;
    A.cols = 1;
    A.add(2, 0, a);
    return kit::Reference(std::move(A), {x0}, {0.0, 0.0, 0.0});
}

kit::CheckedRun run_in(kit::Precision p, const kit::Reference& ref) {
    kit::RunOptions opt;
    opt.precision = p;
    opt.repeats = 0;
    opt.steady_calls = 0;
    return kit::run_checked(cpu_csr(), ref, opt);
}

}  // namespace

TEST(CheckedRun, RowWhoseExactResultIsBelowFloatsRangeIsNotWrongInFloat) {
    const kit::Reference below = last_row_only(1e-301, 2.697);          // 0 in float: the false WRONG of issue 42
    const kit::Reference subnormal = last_row_only(1.234567e-40, 1.0);  // a float subnormal (or 0 when flushed)

    const kit::CheckedRun a = run_in(kit::Precision::f32, below);
    const kit::CheckedRun b = run_in(kit::Precision::f32, subnormal);

    EXPECT_EQ(below.expected()[2], 1e-301 * 2.697);
    EXPECT_EQ(a.status, kit::RunStatus::ok) << a.message;
    EXPECT_EQ(a.result.y[2], 0.0);  // float really did lose it: the tolerance, not the kernel, decides
    EXPECT_EQ(b.status, kit::RunStatus::ok) << b.message;
}

TEST(CheckedRun, UnderflowFloorDoesNotHideAnErrorInRange) {
    // 1e-30 is a normal float: a kernel that returns 0 for it is wrong in float; 1e-301 is a
    // normal double: a double kernel that returns 0 for it is wrong in double.
    const std::vector<double> tol_f32 = last_row_only(1e-30, 1.0).tolerance(kit::Precision::f32);
    const std::vector<double> tol_f64 = last_row_only(1e-301, 1.0).tolerance(kit::Precision::f64);
    const kit::Mismatch f32 = kit::compare_with_oracle({0, 0, 1e-30}, {0, 0, 0}, tol_f32);
    const kit::Mismatch f64 = kit::compare_with_oracle({0, 0, 1e-301}, {0, 0, 0}, tol_f64);

    EXPECT_EQ(f32.row, 2) << kit::describe(f32);
    EXPECT_EQ(f64.row, 2) << kit::describe(f64);
    EXPECT_LT(tol_f32[2], 1e-35);   // the floor is FLT_MIN-sized, far below the value
    EXPECT_LT(tol_f64[2], 1e-305);  // and DBL_MIN-sized in double
}

TEST(Oracle, ToleranceFloorIsTheSmallestNormalOfTheWorkingPrecision) {
    kit::CooMatrix A;
    A.rows = 1;
    A.cols = 2;
    A.add(0, 0, 3.0);
    A.add(0, 1, 1e-301);
    const double feps = kit::eps_of(kit::Precision::f32), deps = kit::eps_of(kit::Precision::f64);

    const auto f32 =
        kit::spmv_tolerance(A, {0.0, 2.0}, {0.0}, feps);  // |a x| = 2e-301; operands (3 + 0) + (1e-301 + 2)
    const auto f64 = kit::spmv_tolerance(A, {0.0, 2.0}, {0.0}, deps);

    EXPECT_EQ(kit::smallest_normal_for(feps), static_cast<double>(std::numeric_limits<float>::min()));
    EXPECT_EQ(kit::smallest_normal_for(deps), std::numeric_limits<double>::min());
    const double fmin = std::numeric_limits<float>::min(), dmin = std::numeric_limits<double>::min();
    EXPECT_DOUBLE_EQ(f32[0], 6 * feps * 2e-301 + fmin * (5.0 + 2 * 2 + 2));
    EXPECT_DOUBLE_EQ(f64[0], 6 * deps * 2e-301 + dmin * (5.0 + 2 * 2 + 2));
}
