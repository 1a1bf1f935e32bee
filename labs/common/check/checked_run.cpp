#include "check/checked_run.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "measure/bytes_model.hpp"
#include "core/kit_error.hpp"

namespace kit {

std::string to_string(RunStatus s) {
    switch (s) {
        case RunStatus::ok:
            return "ok";
        case RunStatus::wrong:
            return "WRONG";
        case RunStatus::todo:
            return "TODO";
        case RunStatus::refused:
            return "REFUSED";
        case RunStatus::skipped:
            return "SKIPPED";
        case RunStatus::error:
            return "ERROR";
    }
    return "ERROR";
}

std::string where(const Variant& v, Precision p) {
    return v.lab + " step " + std::to_string(v.step) + " (" + v.name + " on " + to_string(v.backend) + " in " +
           to_string(p) + ")";
}

namespace {

/// Why a precision whose largest finite value is `max` cannot hold this problem, or nothing.
/// A value of A, x or y beyond the range is rounded to infinity on the way in; a row whose
/// sum of |a_ij x_j| passes it may overflow in a partial sum whatever the order of additions.
std::optional<std::string> range_problem(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                         const RowBounds& rows, double max, const char* precision) {
    auto too_big = [max](double v) { return !(std::fabs(v) <= max); };  // NaN counts as too big
    std::ostringstream why;
    why.precision(6);
    for (std::size_t k = 0; k < A.vals.size(); ++k)
        if (too_big(A.vals[k])) {
            why << "A(" << A.row_idx[k] << "," << A.col_idx[k] << ") = " << A.vals[k] << " is outside the " << precision
                << " range (largest " << max << "); run in double, or scale the matrix";
            return why.str();
        }
    for (std::size_t j = 0; j < x.size(); ++j)
        if (too_big(x[j])) {
            why << "x[" << j << "] = " << x[j] << " is outside the " << precision << " range";
            return why.str();
        }
    for (std::size_t i = 0; i < y.size(); ++i)
        if (too_big(y[i]) || too_big(rows.magnitude[i])) {
            why << "row " << i << ": |y| + sum |a x| = " << rows.magnitude[i] << " is outside the " << precision
                << " range (largest " << max << "), so a correct kernel may overflow; "
                << (max < std::numeric_limits<double>::max() ? "run in double, or scale the matrix"
                                                             : "scale the matrix or the vectors");
            return why.str();
        }
    return std::nullopt;
}

}  // namespace

ReadOptions checked_run_read_options() {
    // Per row: the Reference's y, answer and two tolerances (4 doubles); the row bounds computed on
    // the way (RowBounds: 3); the kernel's copy of y, its result and the result in double (3); and
    // a row pointer. Per column: the Reference's x and the kernel's copy.
    constexpr double kRowDoubles = 4 + 3 + 3;
    constexpr double kColDoubles = 2;
    ReadOptions opt;
    opt.row_bytes = kRowDoubles * sizeof(double) + sizeof(count_t);
    opt.col_bytes = kColDoubles * sizeof(double);
    opt.row_use = "its vectors, the oracle's answer and tolerances, and the kernel's copies";
    return opt;
}

Reference::Reference(CooMatrix A, std::vector<double> x, std::vector<double> y)
    : A_(std::move(A)), x_(std::move(x)), y_(std::move(y)) {
    expected_ = oracle_spmv(A_, x_, y_);
    const RowBounds rows = row_bounds(A_, x_, y_);
    tol_f32_ = spmv_tolerance(rows, eps_of(Precision::f32));
    tol_f64_ = spmv_tolerance(rows, eps_of(Precision::f64));
    why_not_f32_ = range_problem(A_, x_, y_, rows, std::numeric_limits<float>::max(), "float");
    why_not_f64_ = range_problem(A_, x_, y_, rows, std::numeric_limits<double>::max(), "double");
}

CheckedRun run_checked(const Variant& v, const Reference& ref, const RunOptions& opt, Comparison cmp) {
    return run_checked(v, ref, opt, cmp, [&] { return v.run(ref.matrix(), ref.x(), ref.y(), opt); });
}

CheckedRun run_checked(const Variant& v, const Reference& ref, const RunOptions& opt, Comparison cmp,
                       const std::function<RunResult()>& act) {
    CheckedRun out;
    auto give_up = [&](RunStatus s, const std::string& why) {
        out.status = s;
        out.message = why;
        return out;
    };
    if (auto why = backend_unavailable(v.backend)) return give_up(RunStatus::skipped, *why);
    if (const auto& why = ref.unrepresentable(opt.precision)) return give_up(RunStatus::refused, *why);
    try {
        out.result = act();
    } catch (const TodoError& e) {
        return give_up(RunStatus::todo, e.what());
    } catch (const ConversionRefused& e) {
        return give_up(RunStatus::refused, e.what());
    } catch (const BackendUnavailable& e) {
        return give_up(RunStatus::skipped, e.what());
    } catch (const std::exception& e) {
        return give_up(RunStatus::error, where(v, opt.precision) + ": " + e.what());
    }
    const std::vector<double>& expected = ref.expected();
    if (out.result.y.size() != expected.size())
        return give_up(RunStatus::wrong, where(v, opt.precision) + ": y has " + std::to_string(out.result.y.size()) +
                                             " entries, expected " + std::to_string(expected.size()));
    static const std::vector<double> exact;  // an empty tolerance asks compare_with_oracle for equality
    out.mismatch =
        compare_with_oracle(expected, out.result.y, cmp == Comparison::exact ? exact : ref.tolerance(opt.precision));
    if (out.mismatch.row >= 0)
        return give_up(RunStatus::wrong, where(v, opt.precision) + ": " + describe(out.mismatch));
    out.status = RunStatus::ok;
    // The rates of both timing modes, derived here once for every caller.
    const double flops = static_cast<double>(spmv_flops(ref.matrix().nnz()));
    const double bytes = static_cast<double>(out.result.bytes);
    if (const double ms = out.result.median_ms(); ms > 0) {
        out.gflops = flops / (ms * 1e6);
        out.gbytes = bytes / (ms * 1e6);
    }
    if (const double ms = out.result.steady_ms; ms > 0) {
        out.steady_gflops = flops / (ms * 1e6);
        out.steady_gbytes = bytes / (ms * 1e6);
    }
    return out;
}

}  // namespace kit
