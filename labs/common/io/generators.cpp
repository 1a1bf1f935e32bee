#include "io/generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>

#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"

namespace kit {
namespace {

/// Nearest double to v's 12-significant-digit decimal: removes the last-bit noise of
/// products like 0.016*256 so generated files show the short decimals of the model.
double short_decimal(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return std::strtod(buf, nullptr);
}

void require(bool ok, const std::string& what) {
    if (!ok) throw Error("generator: " + what);
}

/// Refuses, before anything is allocated, a matrix whose entries would not fit the kit's
/// 32-bit indices or the memory this process may use (building and sorting take about
/// kBytesPerEntryPeak bytes per entry). `entries` is the count, or its expected value.
void require_entries(double entries, const std::string& what) {
    constexpr double limit = std::numeric_limits<index_t>::max();
    char figures[160];
    if (entries > limit) {
        std::snprintf(figures, sizeof figures, "%.3g entries, more than the kit's 32-bit limit of %.0f", entries,
                      limit);
        throw Error("generator: " + what + " would have " + figures + "; choose smaller sizes");
    }
    const double need = entries * static_cast<double>(kBytesPerEntryPeak);
    const double have = static_cast<double>(memory_budget());
    if (need > have) {
        std::snprintf(figures, sizeof figures, "%.3g entries, about %.1f GiB to build and sort, more than the %.1f GiB",
                      entries, need / (1u << 30), have / (1u << 30));
        throw Error("generator: " + what + " would have " + figures +
                    " this process may use (machine memory, cgroup and ulimit); choose smaller sizes");
    }
}

/// Stateless pseudo-random value in [-1, 1] for entry `i` (splitmix64 of seed and i): a
/// generator that calls it fills its values in one pass, with no shared engine.
double hashed_value(std::uint64_t seed, std::uint64_t i) {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (i + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

}  // namespace

CooMatrix generate_rdb(const RdbParams& p) {
    require(p.m >= 1 && p.m <= 20000, "rdb needs 1 <= m <= 20000, got " + std::to_string(p.m));
    const int m = p.m;
    require_entries(12.0 * m * m, "rdb with m = " + std::to_string(m));
    const double tau1 = short_decimal(p.c * (m + 1.0) * (m + 1.0));
    const double tau2 = short_decimal(2.0 * tau1);
    const double a2 = short_decimal(p.alpha * p.alpha);
    const double diag_u = short_decimal(-4.0 * tau1 + (p.beta - 1.0));
    const double diag_v = short_decimal(-4.0 * tau2 - a2);
    const double minus_beta = short_decimal(-p.beta);

    CooMatrix A;
    A.rows = A.cols = 2 * m * m;
    const int di[4] = {-1, 0, 0, 1}, dj[4] = {0, -1, 1, 0};
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            const index_t k = i * m + j, u = 2 * k, v = 2 * k + 1;
            for (int species = 0; species < 2; ++species) {
                const index_t r = species == 0 ? u : v;
                const double tau = species == 0 ? tau1 : tau2;
                for (int n = 0; n < 4; ++n) {
                    const int ni = i + di[n], nj = j + dj[n];
                    if (ni >= 0 && ni < m && nj >= 0 && nj < m) A.add(r, 2 * (ni * m + nj) + species, tau);
                }
                A.add(r, r, species == 0 ? diag_u : diag_v);
                A.add(r, species == 0 ? v : u, species == 0 ? a2 : minus_beta);
            }
        }
    }
    A.normalize();
    return A;
}

CooMatrix generate_stencil2d(int nx, int ny) {
    require(nx >= 1 && ny >= 1 && static_cast<count_t>(nx) * ny <= (count_t{1} << 30),
            "stencil2d needs 1 <= nx, ny and nx*ny <= 2^30");
    require_entries(5.0 * nx * ny, "stencil2d " + std::to_string(nx) + " x " + std::to_string(ny));
    CooMatrix A;
    A.rows = A.cols = nx * ny;
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const index_t r = y * nx + x;
            if (y > 0) A.add(r, r - nx, -1.0);
            if (x > 0) A.add(r, r - 1, -1.0);
            A.add(r, r, 4.0);
            if (x + 1 < nx) A.add(r, r + 1, -1.0);
            if (y + 1 < ny) A.add(r, r + nx, -1.0);
        }
    return A;  // generated in row-major order already
}

namespace {

/// Adds row (x, y, z) of the 3-D stencil on an n^3 grid: its 7 or 27 neighbours inside the grid,
/// in column order.
void add_stencil3d_row(CooMatrix& A, int n, int points, int x, int y, int z) {
    const index_t r = (z * n + y) * n + x;
    const auto inside = [n](int v) { return v >= 0 && v < n; };
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int manhattan = std::abs(dx) + std::abs(dy) + std::abs(dz);
                if (points == 7 && manhattan > 1) continue;
                const int X = x + dx, Y = y + dy, Z = z + dz;
                if (!inside(X) || !inside(Y) || !inside(Z)) continue;
                A.add(r, (Z * n + Y) * n + X, manhattan == 0 ? points - 1.0 : -1.0);
            }
}

}  // namespace

CooMatrix generate_stencil3d(int n, int points) {
    require(points == 7 || points == 27, "stencil3d supports 7 or 27 points, got " + std::to_string(points));
    require(n >= 1 && static_cast<count_t>(n) * n * n <= (count_t{1} << 30), "stencil3d needs 1 <= n and n^3 <= 2^30");
    require_entries(static_cast<double>(points) * n * n * n, "stencil3d with n = " + std::to_string(n));
    CooMatrix A;
    A.rows = A.cols = n * n * n;
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) add_stencil3d_row(A, n, points, x, y, z);
    return A;
}

CooMatrix generate_band(int n, int diagonals, int spacing) {
    require(n >= 1 && diagonals >= 1 && spacing >= 1, "band needs n, diagonals and spacing >= 1");
    require(diagonals <= 2 * n - 1, "band of " + std::to_string(n) + " rows holds at most " +
                                        std::to_string(2 * n - 1) + " diagonals, got " + std::to_string(diagonals));
    require_entries(static_cast<double>(n) * diagonals,
                    "band of " + std::to_string(n) + " rows and " + std::to_string(diagonals) + " diagonals");
    CooMatrix A;
    A.rows = A.cols = n;
    const count_t first = -(diagonals / 2), last = diagonals - diagonals / 2 - 1;  // in units of spacing
    for (index_t r = 0; r < n; ++r)
        for (count_t d = first; d <= last; ++d) {
            const count_t c = r + d * spacing;  // 64-bit: d * spacing may pass 2^31
            if (c >= 0 && c < n) A.add(r, static_cast<index_t>(c), d == 0 ? diagonals : -1.0);
        }
    return A;  // generated in row-major order already
}

CooMatrix generate_radius_grid(int nx, int ny, int radius) {
    require(nx >= 1 && ny >= 1 && radius >= 0 && static_cast<count_t>(nx) * ny <= (count_t{1} << 28),
            "radius grid needs nx, ny >= 1, radius >= 0 and nx*ny <= 2^28");
    // about pi r^2 + 2 pi r + 1 neighbours inside the disc (Gauss circle problem), fewer at the edges
    require_entries(
        static_cast<double>(nx) * ny * (3.15 * radius * radius + 6.3 * radius + 1),
        "radius grid " + std::to_string(nx) + " x " + std::to_string(ny) + ", radius " + std::to_string(radius));
    CooMatrix A;
    A.rows = A.cols = nx * ny;
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            const index_t r = y * nx + x;
            for (int dy = -radius; dy <= radius; ++dy)
                for (int dx = -radius; dx <= radius; ++dx) {
                    if (dx * dx + dy * dy > radius * radius) continue;
                    const int X = x + dx, Y = y + dy;
                    if (X < 0 || Y < 0 || X >= nx || Y >= ny) continue;
                    // weights fall off with distance, like an affinity matrix
                    A.add(r, Y * nx + X, dx == 0 && dy == 0 ? 1.0 : 1.0 / (1.0 + dx * dx + dy * dy));
                }
        }
    return A;
}

CooMatrix generate_power_law(int n, int max_len, double exponent, std::uint64_t seed) {
    require(n >= 1 && max_len >= 1 && max_len <= n && exponent > 0,
            "power-law needs n >= 1, 1 <= max_len <= n, exponent > 0");
    double entries = 0;  // exact: row lengths depend only on the ranks, which are 1..n in some order
    for (int i = 0; i < n; ++i) entries += std::max(1, static_cast<int>(max_len / std::pow(i + 1.0, exponent)));
    require_entries(entries, "power-law with n = " + std::to_string(n));
    std::mt19937_64 rng(seed);
    std::vector<int> rank(n);
    for (int i = 0; i < n; ++i) rank[i] = i;
    std::shuffle(rank.begin(), rank.end(), rng);
    std::uniform_int_distribution<index_t> column(0, n - 1);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    CooMatrix A;
    A.rows = A.cols = n;
    for (int i = 0; i < n; ++i) {
        const int len = std::max(1, static_cast<int>(max_len / std::pow(rank[i] + 1.0, exponent)));
        for (int k = 0; k < len; ++k) A.add(i, column(rng), value(rng));
    }
    A.normalize();  // random columns may repeat; they are summed
    return A;
}

CooMatrix generate_dense_rows(int n, int row_len, int dense_rows, std::uint64_t seed) {
    require(n >= 1 && row_len >= 1 && dense_rows >= 0 && dense_rows <= n,
            "dense-rows needs n >= 1, row_len >= 1, 0 <= dense_rows <= n");
    require_entries(static_cast<double>(n - dense_rows) * row_len + static_cast<double>(dense_rows) * n,
                    "dense-rows with n = " + std::to_string(n));
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<index_t> column(0, n - 1);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    CooMatrix A;
    A.rows = A.cols = n;
    const int stride = dense_rows > 0 ? n / dense_rows : n + 1;
    for (int i = 0; i < n; ++i) {
        if (dense_rows > 0 && i % stride == stride / 2 && i / stride < dense_rows) {
            for (int j = 0; j < n; ++j) A.add(i, j, value(rng));
            continue;
        }
        A.add(i, i, 2.0);
        for (int k = 1; k < row_len; ++k) A.add(i, column(rng), value(rng));
    }
    A.normalize();
    return A;
}

CooMatrix generate_random(int rows, int cols, int per_row, std::uint64_t seed) {
    require(rows >= 0 && cols >= 0 && per_row >= 0, "random needs non-negative sizes");
    if (cols > 0)  // row lengths are uniform on 0..2*per_row: rows * per_row entries on average
        require_entries(static_cast<double>(rows) * per_row, "random " + std::to_string(rows) + " x " +
                                                                 std::to_string(cols) + " with " +
                                                                 std::to_string(per_row) + " per row");
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    if (cols == 0) return A;
    std::uniform_int_distribution<index_t> column(0, cols - 1);
    std::uniform_int_distribution<int> length(0, 2 * per_row);
    for (int i = 0; i < rows; ++i) {
        const int len = length(rng);
        for (int k = 0; k < len; ++k) A.add(i, column(rng), value(rng));
    }
    A.normalize();
    return A;
}

CooMatrix example4x4() {
    CooMatrix A;
    A.rows = A.cols = 4;
    const double dense[4][4] = {{1, 7, 0, 0}, {0, 2, 8, 0}, {5, 0, 3, 9}, {0, 6, 0, 4}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            if (dense[i][j] != 0) A.add(i, j, dense[i][j]);
    return A;
}

CooMatrix generate_dense(index_t rows, index_t cols, std::uint64_t seed) {
    require(rows >= 1 && cols >= 1, "dense needs at least 1 row and 1 column");
    require_entries(static_cast<double>(rows) * cols, "dense " + std::to_string(rows) + " x " + std::to_string(cols));
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    const std::size_t entries = static_cast<std::size_t>(rows) * cols;
    A.row_idx.reserve(entries);
    A.col_idx.reserve(entries);
    A.vals.reserve(entries);
    for (index_t i = 0; i < rows; ++i)
        for (index_t j = 0; j < cols; ++j) A.add(i, j, hashed_value(seed, A.vals.size()));
    return A;
}

void randomize_values(CooMatrix& A, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    for (double& v : A.vals) v = value(rng);
}

RandomXY random_xy(index_t cols, index_t rows, std::uint64_t seed) {
    require(cols >= 0 && rows >= 0, "random_xy needs non-negative lengths");
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    RandomXY v{std::vector<double>(static_cast<std::size_t>(cols)),
               std::vector<double>(static_cast<std::size_t>(rows))};
    for (double& e : v.x) e = u(rng);
    for (double& e : v.y) e = u(rng);
    return v;
}

}  // namespace kit
