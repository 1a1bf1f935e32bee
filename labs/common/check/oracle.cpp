#include "check/oracle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/kit_error.hpp"

namespace kit {

std::vector<double> oracle_spmv(const CooMatrix& A, const std::vector<double>& x,
                                const std::vector<double>& y) {
    if (x.size() != static_cast<std::size_t>(A.cols) || y.size() != static_cast<std::size_t>(A.rows))
        throw Error("oracle_spmv: x or y has the wrong length");
    std::vector<double> out = y;
    for (std::size_t k = 0; k < A.vals.size(); ++k) out[A.row_idx[k]] += A.vals[k] * x[A.col_idx[k]];
    return out;
}

RowBounds row_bounds(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != static_cast<std::size_t>(A.cols) || y.size() != static_cast<std::size_t>(A.rows))
        throw Error("row_bounds: x or y has the wrong length");
    RowBounds b{std::vector<double>(y.size()), std::vector<double>(y.size(), 0.0)};
    for (std::size_t i = 0; i < y.size(); ++i) b.magnitude[i] = std::fabs(y[i]);
    for (std::size_t k = 0; k < A.vals.size(); ++k) {
        b.magnitude[A.row_idx[k]] += std::fabs(A.vals[k] * x[A.col_idx[k]]);
        b.length[A.row_idx[k]] += 1.0;
    }
    return b;
}

std::vector<double> spmv_tolerance(const RowBounds& rows, double eps) {
    std::vector<double> tol(rows.magnitude.size());
    for (std::size_t i = 0; i < tol.size(); ++i)
        tol[i] = (rows.length[i] + 4.0) * eps * rows.magnitude[i] + std::numeric_limits<double>::min();
    return tol;
}

std::vector<double> spmv_tolerance(const CooMatrix& A, const std::vector<double>& x,
                                   const std::vector<double>& y, double eps) {
    return spmv_tolerance(row_bounds(A, x, y), eps);
}

Mismatch compare_with_oracle(const std::vector<double>& expected, const std::vector<double>& actual,
                             const std::vector<double>& tol) {
    Mismatch m;
    if (expected.size() != actual.size()) {
        m.row = 0;
        m.bad_rows = static_cast<count_t>(expected.size());
        m.max_error = std::numeric_limits<double>::infinity();
        return m;
    }
    bool has_nan = false;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        // Equal values (equal infinities included, where inf - inf would give NaN) are no error.
        const double err = actual[i] == expected[i] ? 0.0 : std::fabs(actual[i] - expected[i]);
        const double allowed = tol.empty() ? 0.0 : tol[i];
        const bool bad = !(err <= allowed);  // written so that NaN counts as bad
        if (std::isnan(err)) has_nan = true;
        else m.max_error = std::max(m.max_error, err);
        if (bad) {
            if (m.row < 0) {
                m.row = static_cast<index_t>(i);
                m.expected = expected[i];
                m.actual = actual[i];
                m.tolerance = allowed;
            }
            ++m.bad_rows;
        }
    }
    if (has_nan) m.max_error = std::numeric_limits<double>::quiet_NaN();
    return m;
}

std::string describe(const Mismatch& m) {
    if (m.row < 0) return "all rows within tolerance";
    std::ostringstream s;
    s.precision(17);
    s << m.bad_rows << " row(s) wrong; first is row " << m.row << ": expected " << m.expected << ", got "
      << m.actual << " (allowed error " << m.tolerance << ")";
    return s.str();
}

}  // namespace kit
