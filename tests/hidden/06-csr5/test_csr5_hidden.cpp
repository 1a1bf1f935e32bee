// Lab 06 hidden tests (tier 3): the hostile gallery with default and small tiles, and the
// cases that break CSR5 in particular: empty rows inside and across tiles, tiles made of one
// long row, nnz below one tile or exactly a multiple of it, a single row or column.
// Every case runs in float and double against the oracle, with the bound-derived tolerance
// (the carries are added with atomics on the GPU, so the order of the additions may vary).
#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "csr5_kernels.hpp"
#include "csr5_run.hpp"
#include "io/generators.hpp"
#include "observe.hpp"
#include "test_support.hpp"

using kit::Backend;
using kit::CooMatrix;
using kit::index_t;
using namespace kit::testing;

namespace {

struct TileShape {
    int omega;
    int sigma;
};

kit::RunOptions with_tiles(TileShape s) {
    kit::RunOptions opt;
    opt.tunables[kit::kCsr5Omega] = s.omega;
    opt.tunables[kit::kCsr5Sigma] = s.sigma;
    return opt;
}

Problem problem_of(CooMatrix A, unsigned seed) {
    kit::randomize_values(A, seed);
    A.normalize();
    return random_vectors(std::move(A), seed);
}

// Row lengths 0 or 1..5, with every third row empty and a run of 40 empty rows (100..139),
// so empty rows fall inside tiles and whole tile boundaries fall inside runs of them.
CooMatrix empty_rows_matrix() {
    CooMatrix A;
    A.rows = A.cols = 300;
    for (index_t i = 0; i < A.rows; ++i) {
        if (i % 3 == 0 || (i >= 100 && i < 140)) continue;
        for (index_t k = 0; k <= (i * 7) % 5; ++k) A.add(i, (i * 13 + k * 29) % A.cols, 1.0);
    }
    return A;
}

// One row of 600 entries among short rows: with 128-entry tiles, whole tiles lie in it.
CooMatrix long_row_matrix() {
    CooMatrix A;
    A.rows = 50;
    A.cols = 600;
    for (index_t i = 0; i < A.rows; ++i)
        if (i == 10)
            for (index_t c = 0; c < A.cols; ++c) A.add(i, c, 1.0);
        else
            for (index_t c : {i, i + 7}) A.add(i, c, 1.0);
    return A;
}

// rows x per_row entries in a rows x cols matrix, the same length in every row.
CooMatrix uniform_rows(index_t rows, index_t cols, index_t per_row) {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (index_t i = 0; i < rows; ++i)
        for (index_t k = 0; k < per_row; ++k) A.add(i, (i + k * 3) % cols, 1.0);
    return A;
}

struct EdgeCase {
    std::string name;
    Problem problem;
    TileShape shape;
};

// Tile sizes below are omega * sigma; sigma 0 means the (4, 32, 256, 4) rule.
std::vector<EdgeCase> edge_cases() {
    std::vector<EdgeCase> out;
    const CooMatrix holes = empty_rows_matrix();
    for (TileShape s : {TileShape{4, 4}, TileShape{2, 3}, TileShape{32, 0}, TileShape{8, 1}})
        out.push_back({"empty rows inside and across tiles", problem_of(holes, 1), s});
    out.push_back({"tiles made of one long row (tile 128)", problem_of(long_row_matrix(), 2), {32, 4}});
    out.push_back({"tiles made of one long row (tile 16)", problem_of(long_row_matrix(), 3), {4, 4}});
    out.push_back({"nnz 20 below one tile of 128", problem_of(uniform_rows(10, 10, 2), 4), {32, 0}});
    out.push_back({"nnz 256 = 2 tiles of 128, no tail", problem_of(uniform_rows(128, 128, 2), 5), {32, 0}});
    out.push_back({"nnz 32 = 2 tiles of 16, no tail", problem_of(uniform_rows(16, 16, 2), 6), {4, 4}});
    out.push_back({"rows as long as a tile (16)", problem_of(uniform_rows(20, 40, 16), 7), {4, 4}});
    out.push_back({"single row 1x2000 (sigma 4)", problem_of(uniform_rows(1, 2000, 2000), 8), {32, 0}});
    out.push_back({"single column 700x1", problem_of(uniform_rows(700, 1, 1), 9), {32, 0}});
    out.push_back({"single column 700x1, tile 4", problem_of(uniform_rows(700, 1, 1), 10), {2, 2}});
    out.push_back(
        {"random 1000x1000, 40 per row (sigma 32)", problem_of(kit::generate_random(1000, 1000, 40, 11), 11), {32, 0}});
    return out;
}

::testing::AssertionResult passes_edge_cases(Backend backend, const std::vector<EdgeCase>& cases) {
    for (const auto& c : cases)
        for (auto p : {kit::Precision::f32, kit::Precision::f64}) {
            auto r = matches_oracle("csr5", backend, p, c.problem, false, with_tiles(c.shape));
            if (!r)
                return ::testing::AssertionFailure() << "case '" << c.name << "' (omega " << c.shape.omega << ", sigma "
                                                     << c.shape.sigma << "): " << r.message();
        }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult passes_gallery_with(Backend backend, const std::vector<TileShape>& shapes) {
    for (TileShape s : shapes) {
        auto r = passes_problems("csr5", backend, hostile_gallery(), with_tiles(s));
        if (!r)
            return ::testing::AssertionFailure() << "omega " << s.omega << ", sigma " << s.sigma << ": " << r.message();
    }
    return ::testing::AssertionSuccess();
}

// Checks cpu::csr5_tile on every complete tile against sums taken from the untransposed CSR:
// the entries of the tile's first row go to the carry, every other row's to y.
::testing::AssertionResult every_tile_matches_csr(const CooMatrix& hub, TileShape shape) {
    const auto csr = kit::Csr<double>::from_coo(hub);
    const auto m = kit::Csr5<double>::from_csr(csr, {shape.omega, shape.sigma});
    std::vector<double> x(hub.cols);
    for (index_t j = 0; j < hub.cols; ++j) x[j] = 1.0 + 0.25 * (j % 7);
    const index_t size = m.omega * m.sigma;
    for (index_t t = 0; t < m.full_tiles(); ++t) {
        std::vector<double> y(hub.rows, 0.0), expected(hub.rows, 0.0), magnitude(hub.rows, 0.0);
        double carry = 0;
        try {
            // The carry and y after the call, as the student's program recorded them.
            std::tie(carry, y) = observe([&] {
                std::vector<double> y_out = y;
                const double carry_out = kit::cpu::csr5_tile(m.view(), t, x.data(), y_out.data());
                return std::pair<double, std::vector<double>>(carry_out, std::move(y_out));
            });
        } catch (const std::exception& e) {
            return ::testing::AssertionFailure() << e.what();
        }
        if (y.size() != static_cast<std::size_t>(hub.rows))
            return ::testing::AssertionFailure()
                   << "06-csr5 step 1: tile " << t << " left " << y.size() << " values of y, expected " << hub.rows;
        const index_t tile_row = kit::csr5_tile_row(m.tile_ptr[t]);
        for (index_t r = 0; r < hub.rows; ++r)
            for (index_t k = std::max(csr.row_ptr[r], t * size); k < std::min(csr.row_ptr[r + 1], (t + 1) * size);
                 ++k) {
                expected[r] += csr.vals[k] * x[csr.col_idx[k]];
                magnitude[r] += std::abs(csr.vals[k] * x[csr.col_idx[k]]);
            }
        const double expected_carry = expected[tile_row];
        expected[tile_row] = 0;
        const double eps = 1e-15 * (size + 4);
        if (std::abs(carry - expected_carry) > eps * magnitude[tile_row])
            return ::testing::AssertionFailure() << "06-csr5 step 1: tile " << t << " returned carry " << carry
                                                 << ", expected " << expected_carry << " (row " << tile_row << ")";
        for (index_t r = 0; r < hub.rows; ++r)
            if (std::abs(y[r] - expected[r]) > eps * magnitude[r] || (r == tile_row && y[r] != 0))
                return ::testing::AssertionFailure() << "06-csr5 step 1: tile " << t << " wrote y[" << r
                                                     << "] = " << y[r] << ", expected " << expected[r];
    }
    return ::testing::AssertionSuccess();
}

}  // namespace

TEST(Step1_Csr5TileCpu, EveryTileAgainstCsr) {
    CooMatrix holes = empty_rows_matrix(), long_row = long_row_matrix(), random = kit::generate_random(200, 90, 6, 3);
    for (CooMatrix* A : {&holes, &long_row, &random}) {
        kit::randomize_values(*A, 4);
        A->normalize();
    }
    for (TileShape s : {TileShape{4, 4}, TileShape{3, 5}, TileShape{32, 4}, TileShape{1, 2}}) {
        EXPECT_TRUE(every_tile_matches_csr(holes, s)) << "empty rows, omega " << s.omega << " sigma " << s.sigma;
        EXPECT_TRUE(every_tile_matches_csr(long_row, s)) << "long row, omega " << s.omega << " sigma " << s.sigma;
        EXPECT_TRUE(every_tile_matches_csr(random, s)) << "random, omega " << s.omega << " sigma " << s.sigma;
    }
}

KIT_GALLERY_TEST(Step2_Csr5Cpu, HostileGallery, "csr5", Backend::cpu)
KIT_GALLERY_TEST(Step4_Csr5Cuda, HostileGallery, "csr5", Backend::cuda)

TEST(Step2_Csr5Cpu, HostileGallerySmallTiles) {
    EXPECT_TRUE(passes_gallery_with(Backend::cpu, {{1, 1}, {3, 5}, {4, 4}, {7, 32}, {16, 2}}));
}

TEST(Step2_Csr5Cpu, EdgeCases) { EXPECT_TRUE(passes_edge_cases(Backend::cpu, edge_cases())); }

TEST(Step4_Csr5Cuda, HostileGallerySmallTiles) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(passes_gallery_with(Backend::cuda, {{1, 1}, {2, 3}, {4, 4}, {8, 7}, {16, 32}, {32, 1}}));
}

TEST(Step4_Csr5Cuda, EdgeCases) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(passes_edge_cases(Backend::cuda, edge_cases()));
}

// Below one tile everything is tail: these pass with step 3 alone.
TEST(Step3_Csr5TailCuda, BelowOneTile) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    CooMatrix tail_holes;  // every fourth row empty
    tail_holes.rows = tail_holes.cols = 60;
    for (index_t i = 0; i < 60; ++i)
        if (i % 4 != 0) tail_holes.add(i, (i * 11) % 60, 1.0);
    EXPECT_TRUE(passes_edge_cases(
        Backend::cuda, {{"nnz 20 below one tile of 128", problem_of(uniform_rows(10, 10, 2), 21), {32, 0}},
                        {"empty rows in the tail", problem_of(tail_holes, 22), {32, 0}},
                        {"one row of 700 (tile 32 x 32)", problem_of(uniform_rows(1, 700, 700), 23), {32, 32}},
                        {"single column 100x1", problem_of(uniform_rows(100, 1, 1), 24), {32, 0}}}));
}

// The GPU gates: a CUDA step earns its points only if its kernel, on 5.2 million entries,
// beats the kit's single-threaded CPU loop by kit::testing::kGpuFloorSpeedup (manifest: gates).
KIT_GPU_FLOOR_TEST(Step4_Csr5Cuda, "csr5", kit::testing::gpu_floor_matrix())
