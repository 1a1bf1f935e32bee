// Lab 03 hidden tests (tier 3): every kernel on the DIA gallery.
//
// The DIA gallery is the hostile gallery minus the matrices whose DIA fill the container
// refuses (random patterns, a dense row, a single column: hundreds of mostly empty
// diagonals), plus matrices DIA is made for and edge cases of its own: stencils, the
// radius grid of the AMD case study, bands wider than a shared-memory chunk, diagonals
// that cross one row only, rectangular bands. Refused matrices are listed in the log.
#include <cstdio>

#include "dia_kernels.hpp"
#include "io/generators.hpp"
#include "test_support.hpp"

using kit::Backend;
using kit::CooMatrix;
using namespace kit::testing;

namespace {

// Entries (i, i + o) for every offset o in [lowest, highest] that lands inside the matrix.
CooMatrix band(kit::index_t rows, kit::index_t cols, kit::index_t lowest, kit::index_t highest) {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (kit::index_t i = 0; i < rows; ++i)
        for (kit::index_t o = lowest; o <= highest; ++o)
            if (i + o >= 0 && i + o < cols) A.add(i, i + o, 1.0);
    return A;
}

ProblemList dia_shaped_matrices() {
    std::vector<std::pair<std::string, CooMatrix>> m;
    m.emplace_back("stencil2d 33x31 (1023 rows)", kit::generate_stencil2d(33, 31));
    m.emplace_back("stencil3d 9^3, 27 points", kit::generate_stencil3d(9, 27));
    m.emplace_back("radius grid 45x37, radius 5 (81 diagonals)", kit::generate_radius_grid(45, 37, 5));
    m.emplace_back("band 700x700, offsets -300..300 (601 diagonals)", band(700, 700, -300, 300));
    m.emplace_back("wide band 40x300, offsets 0..259", band(40, 300, 0, 259));
    m.emplace_back("tall band 300x40, offsets -270..-1", band(300, 40, -270, -1));
    m.emplace_back("single row 1x600, 600 diagonals", band(1, 600, 0, 599));
    CooMatrix corners;  // two diagonals that each cross one row, at the far ends
    corners.rows = corners.cols = 100;
    corners.add(0, 99, 1.0);
    corners.add(99, 0, 1.0);
    m.emplace_back("corners of 100x100 (offsets -99, 99)", corners);
    ProblemList out;
    unsigned seed = 300;
    for (auto& [name, A] : m) {
        A.normalize();
        kit::randomize_values(A, seed);  // equal values would hide a kernel that mixes diagonals up
        out.emplace_back(name, random_vectors(std::move(A), seed++));
    }
    return out;
}

ProblemList dia_gallery() {
    static const ProblemList gallery = [] {
        std::vector<std::string> refused;
        ProblemList all = accepted_by(
            hostile_gallery(), [](const CooMatrix& A) { kit::Dia<double>::from_coo(A); }, refused);
        for (const std::string& why : refused) std::printf("note: left out of the DIA gallery: %s\n", why.c_str());
        for (auto& p : dia_shaped_matrices()) all.push_back(std::move(p));
        return all;
    }();
    return gallery;
}

::testing::AssertionResult passes_dia_gallery(const std::string& name, Backend backend) {
    const ProblemList gallery = dia_gallery();
    // Most of the hostile gallery must stay in (empty, tiny, rectangular, one row...), or
    // the test would check little.
    if (gallery.size() < 14)
        return ::testing::AssertionFailure() << "the DIA gallery has only " << gallery.size() << " matrices";
    return passes_problems(name, backend, gallery);
}

}  // namespace

TEST(Step1_DiaCpu, DiaGallery) { EXPECT_TRUE(passes_dia_gallery("dia", Backend::cpu)); }

TEST(Step2_DiaNaiveCuda, DiaGallery) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(passes_dia_gallery("dia-naive", Backend::cuda));
}

TEST(Step3_DiaSharedCuda, DiaGallery) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(passes_dia_gallery("dia-shared", Backend::cuda));
}

// The GPU gates: a CUDA step earns its points only if its kernel, on 5.2 million entries,
// beats the kit's single-threaded CPU loop by kit::testing::kGpuFloorSpeedup (manifest: gates).
KIT_GPU_FLOOR_TEST(Step2_DiaNaiveCuda, "dia-naive", kit::testing::gpu_floor_matrix())
KIT_GPU_FLOOR_TEST(Step3_DiaSharedCuda, "dia-shared", kit::testing::gpu_floor_matrix())
