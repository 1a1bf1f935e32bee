// The rdb450 generator against SuiteSparse's published metadata for Bai/rdb450, and the
// committed matrices/rdb450.mtx against the generator.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "io/generators.hpp"
#include "io/matrix_market.hpp"

namespace {

using Dense = std::vector<std::vector<double>>;

Dense to_dense(const kit::CooMatrix& A) {
    Dense D(A.rows, std::vector<double>(A.cols, 0.0));
    for (std::size_t k = 0; k < A.vals.size(); ++k) D[A.row_idx[k]][A.col_idx[k]] += A.vals[k];
    return D;
}

std::vector<double> multiply(const Dense& D, const std::vector<double>& v, bool transpose) {
    const std::size_t n = D.size();
    std::vector<double> out(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) out[transpose ? j : i] += D[i][j] * v[transpose ? i : j];
    return out;
}

double normalize(std::vector<double>& v) {
    double s = 0;
    for (double e : v) s += e * e;
    s = std::sqrt(s);
    for (double& e : v) e /= s;
    return s;
}

/// LU with partial pivoting, in place; solves A z = b or A^T z = b afterwards.
struct LU {
    Dense a;
    std::vector<std::size_t> piv;
    explicit LU(Dense m) : a(std::move(m)), piv(a.size()) {
        const std::size_t n = a.size();
        for (std::size_t i = 0; i < n; ++i) piv[i] = i;
        for (std::size_t k = 0; k < n; ++k) {
            std::size_t p = k;
            for (std::size_t i = k + 1; i < n; ++i)
                if (std::fabs(a[i][k]) > std::fabs(a[p][k])) p = i;
            std::swap(a[k], a[p]);
            std::swap(piv[k], piv[p]);
            for (std::size_t i = k + 1; i < n; ++i) {
                a[i][k] /= a[k][k];
                for (std::size_t j = k + 1; j < n; ++j) a[i][j] -= a[i][k] * a[k][j];
            }
        }
    }
    std::vector<double> solve(const std::vector<double>& b) const {  // A z = b, with P A = L U
        const std::size_t n = a.size();
        std::vector<double> z(n);
        for (std::size_t i = 0; i < n; ++i) z[i] = b[piv[i]];
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < i; ++j) z[i] -= a[i][j] * z[j];
        for (std::size_t i = n; i-- > 0;) {
            for (std::size_t j = i + 1; j < n; ++j) z[i] -= a[i][j] * z[j];
            z[i] /= a[i][i];
        }
        return z;
    }
    std::vector<double> solve_transposed(const std::vector<double>& b) const {  // A^T z = b
        const std::size_t n = a.size();
        std::vector<double> w = b;
        for (std::size_t i = 0; i < n; ++i) {  // U^T w = b
            for (std::size_t j = 0; j < i; ++j) w[i] -= a[j][i] * w[j];
            w[i] /= a[i][i];
        }
        for (std::size_t i = n; i-- > 0;)  // L^T v = w
            for (std::size_t j = i + 1; j < n; ++j) w[i] -= a[j][i] * w[j];
        std::vector<double> z(n);
        for (std::size_t i = 0; i < n; ++i) z[piv[i]] = w[i];
        return z;
    }
};

const kit::CooMatrix& rdb450() {
    static const kit::CooMatrix A = kit::generate_rdb({});
    return A;
}

}  // namespace

TEST(Rdb450, SizeAndNonzerosMatchSuiteSparse) {
    const kit::CooMatrix& A = rdb450();

    EXPECT_EQ(A.rows, 450);
    EXPECT_EQ(A.cols, 450);
    EXPECT_EQ(A.nnz(), 2580);
}

TEST(Rdb450, ValuesAreTheModelsShortDecimals) {
    const kit::CooMatrix& A = rdb450();
    const auto at = [&](int i, int j) {
        for (std::size_t k = 0; k < A.vals.size(); ++k)
            if (A.row_idx[k] == i && A.col_idx[k] == j) return A.vals[k];
        return 0.0;
    };

    EXPECT_EQ(at(0, 0), -11.934);  // tau1*(-4) + (beta-1)
    EXPECT_EQ(at(1, 1), -36.768);  // tau2*(-4) - alpha^2
    EXPECT_EQ(at(0, 2), 4.096);    // tau1 to the u of the next node
    EXPECT_EQ(at(1, 3), 8.192);    // tau2 to the v of the next node
    EXPECT_EQ(at(0, 1), 4.0);      // alpha^2
    EXPECT_EQ(at(1, 0), -5.45);    // -beta
    EXPECT_EQ(at(0, 30), 4.096);   // the grid neighbour one row of nodes down: +2m
}

TEST(Rdb450, NumericSymmetryIs0789) {
    const Dense D = to_dense(rdb450());
    int off_diagonal = 0, matched = 0;

    for (int i = 0; i < 450; ++i)
        for (int j = 0; j < 450; ++j)
            if (i != j && D[i][j] != 0) {
                ++off_diagonal;
                if (D[j][i] == D[i][j]) ++matched;
            }

    EXPECT_NEAR(static_cast<double>(matched) / off_diagonal, 0.789, 0.0005);
}

TEST(Rdb450, TwoNormIs69_14905) {
    const Dense D = to_dense(rdb450());
    std::vector<double> v(450, 1.0);
    normalize(v);
    double sigma2 = 0;

    for (int it = 0; it < 2000; ++it) {  // power iteration on A^T A
        v = multiply(D, multiply(D, v, false), true);
        sigma2 = normalize(v);
    }

    EXPECT_NEAR(std::sqrt(sigma2), 69.14905, 5e-5);
}

TEST(Rdb450, SmallestSingularValueIs0_1009230) {
    const LU lu(to_dense(rdb450()));
    std::vector<double> v(450);
    for (int i = 0; i < 450; ++i) v[i] = 1.0 + 0.001 * i;
    normalize(v);
    double inv_sigma2 = 0;

    for (int it = 0; it < 3000; ++it) {  // inverse iteration: (A^T A)^-1 v = A^-1 A^-T v
        v = lu.solve(lu.solve_transposed(v));
        inv_sigma2 = normalize(v);
    }

    EXPECT_NEAR(1.0 / std::sqrt(inv_sigma2), 0.1009230, 5e-7);
}

TEST(Rdb450, CommittedFileIsTheGeneratorsOutput) {
    std::ostringstream generated;
    kit::write_matrix_market(generated, rdb450());
    std::ifstream committed(std::string(KIT_MATRICES_DIR) + "/rdb450.mtx");
    std::string line, body;
    while (std::getline(committed, line))
        if (line.empty() || line[0] != '%') body += line + "\n";
    std::string expected;
    std::istringstream g(generated.str());
    while (std::getline(g, line))
        if (line.empty() || line[0] != '%') expected += line + "\n";

    EXPECT_EQ(body, expected) << "matrices/rdb450.mtx differs from 'spmv-kit gen rdb --name rdb450'";
}

TEST(RdbFamily, SiblingsHaveTheirSizes) {
    EXPECT_EQ(kit::generate_rdb({10, 0.016}).rows, 200);
    EXPECT_EQ(kit::generate_rdb({25, 0.016}).rows, 1250);
    EXPECT_EQ(kit::generate_rdb({50, 0.004}).rows, 5000);
    EXPECT_EQ(kit::generate_rdb({15, 0.004}).vals[0], 0.354);  // rdb450l: -4 * 0.004*256 + 4.45
}
