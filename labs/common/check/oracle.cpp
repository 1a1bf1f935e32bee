#include "check/oracle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/kit_error.hpp"

namespace kit {

std::vector<double> oracle_spmv(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != static_cast<std::size_t>(A.cols) || y.size() != static_cast<std::size_t>(A.rows))
        throw Error("oracle_spmv: x or y has the wrong length");
    std::vector<double> out = y;
    for (std::size_t k = 0; k < A.vals.size(); ++k) out[A.row_idx[k]] += A.vals[k] * x[A.col_idx[k]];
    return out;
}

RowBounds row_bounds(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != static_cast<std::size_t>(A.cols) || y.size() != static_cast<std::size_t>(A.rows))
        throw Error("row_bounds: x or y has the wrong length");
    RowBounds b{std::vector<double>(y.size()), std::vector<double>(y.size(), 0.0), std::vector<double>(y.size(), 0.0)};
    for (std::size_t i = 0; i < y.size(); ++i) b.magnitude[i] = std::fabs(y[i]);
    for (std::size_t k = 0; k < A.vals.size(); ++k) {
        const double a = std::fabs(A.vals[k]), xj = std::fabs(x[A.col_idx[k]]);
        b.magnitude[A.row_idx[k]] += a * xj;
        b.length[A.row_idx[k]] += 1.0;
        b.operands[A.row_idx[k]] += a + xj;
    }
    return b;
}

double smallest_normal_for(double eps) {
    return eps >= static_cast<double>(std::numeric_limits<float>::epsilon()) ? std::numeric_limits<float>::min()
                                                                             : std::numeric_limits<double>::min();
}

std::vector<double> spmv_tolerance(const RowBounds& rows, double eps) {
    std::vector<double> tol(rows.magnitude.size());
    const double tiny = smallest_normal_for(eps);
    const bool has_operands = rows.operands.size() == tol.size();  // RowBounds built by hand may lack them
    for (std::size_t i = 0; i < tol.size(); ++i) {
        const double operands = has_operands ? rows.operands[i] : 0.0;
        tol[i] = (rows.length[i] + 4.0) * eps * rows.magnitude[i] + tiny * (operands + 2.0 * rows.length[i] + 2.0);
    }
    return tol;
}

std::vector<double> spmv_tolerance(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                   double eps) {
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
        if (std::isnan(err))
            has_nan = true;
        else
            m.max_error = std::max(m.max_error, err);
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
    s << m.bad_rows << " row(s) wrong; first is row " << m.row << ": expected " << m.expected << ", got " << m.actual
      << " (allowed error " << m.tolerance << ")";
    return s.str();
}

}  // namespace kit
