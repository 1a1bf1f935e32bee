// Lab 07 hidden tests (tier 3): a gallery of DIA-suitable matrices for every step. The
// general hostile gallery is not used: its random matrices are refused by the DIA fill limit.
#include <vector>

#include "dia_path_problems.hpp"

using kit::Backend;
using kit::CooMatrix;
using namespace kit::testing;

namespace {

/// rows x cols with the given diagonals (offset = col - row), every slot inside the matrix filled.
CooMatrix banded(int rows, int cols, const std::vector<int>& offsets) {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (int r = 0; r < rows; ++r)
        for (int o : offsets)
            if (r + o >= 0 && r + o < cols) A.add(r, r + o, 1.0);
    return A;
}

std::vector<int> offset_range(int lo, int hi) {
    std::vector<int> o;
    for (int k = lo; k <= hi; ++k) o.push_back(k);
    return o;
}

std::vector<std::pair<std::string, Problem>> dia_gallery() {
    std::vector<std::pair<std::string, CooMatrix>> m;
    m.emplace_back("empty 0x0", CooMatrix{});
    m.emplace_back("5x5 with no entries", banded(5, 5, {}));
    m.emplace_back("1x1", banded(1, 1, {0}));
    for (int n : {2, 3, 5, 33, 130}) m.emplace_back("tridiagonal " + std::to_string(n), banded(n, n, {-1, 0, 1}));
    m.emplace_back("only the corners of 50x50 (offsets -49, 49)", banded(50, 50, {-49, 49}));
    m.emplace_back("wide 37x91 banded", banded(37, 91, {-3, 0, 2, 50, 90}));
    m.emplace_back("tall 91x37 banded", banded(91, 37, {-90, -41, -1, 0, 3}));
    m.emplace_back("single row 1x9", banded(1, 9, {0, 3, 8}));
    m.emplace_back("single column 9x1", banded(9, 1, {-8, -2, 0}));
    m.emplace_back("band of 600 diagonals (3 offset chunks), 700x700", banded(700, 700, offset_range(-300, 299)));
    m.emplace_back("radius grid 1x1 r5", kit::generate_radius_grid(1, 1, 5));
    m.emplace_back("radius grid 3x2 r5 (grid narrower than the radius)", kit::generate_radius_grid(3, 2, 5));
    m.emplace_back("radius grid 7x1 r5", kit::generate_radius_grid(7, 1, 5));
    m.emplace_back("radius grid 29x13 r3 (rows % 4 == 1)", kit::generate_radius_grid(29, 13, 3));
    m.emplace_back("radius grid 30x21 r11 (377 diagonals)", kit::generate_radius_grid(30, 21, 11));
    m.emplace_back("stencil2d 17x9", kit::generate_stencil2d(17, 9));
    m.emplace_back("stencil3d 7^3, 27 points", kit::generate_stencil3d(7, 27));
    std::vector<std::pair<std::string, Problem>> out;
    unsigned seed = 300;
    for (auto& [name, A] : m) {
        kit::randomize_values(A, seed);
        A.normalize();
        out.emplace_back(name, random_vectors(std::move(A), seed++));
    }
    return out;
}

::testing::AssertionResult passes_dia_gallery(const std::string& name, Backend backend, bool float_only) {
    for (const auto& [label, problem] : dia_gallery()) {
        auto r = float_only ? float_only_matches(name, backend, problem, false)
                            : matches_oracle(name, backend, kit::Precision::f32, problem);
        if (r && !float_only) r = matches_oracle(name, backend, kit::Precision::f64, problem);
        if (!r) return ::testing::AssertionFailure() << "DIA gallery matrix '" << label << "': " << r.message();
    }
    return ::testing::AssertionSuccess();
}

}  // namespace

#define DIA_GALLERY_TEST(Suite, variant, backend, float_only)                                                  \
    TEST(Suite, DiaGallery) {                                                                                  \
        KIT_REQUIRE_BACKEND(backend);                                                                          \
        if (float_only) {                                                                                      \
            if (auto why = unavailable_in_float(variant, backend, example4x4_problem())) GTEST_SKIP() << *why; \
        }                                                                                                      \
        EXPECT_TRUE(passes_dia_gallery(variant, backend, float_only));                                         \
    }

DIA_GALLERY_TEST(Step0_DiaLoopCpu, "dia-loop", Backend::cpu, false)
DIA_GALLERY_TEST(Step1_DiaNaiveOpenCL, "dia-naive", Backend::opencl, false)
DIA_GALLERY_TEST(Step2_DiaAlignedOpenCL, "dia-aligned", Backend::opencl, false)
DIA_GALLERY_TEST(Step3_DiaLocalOpenCL, "dia-local", Backend::opencl, false)
DIA_GALLERY_TEST(Step4_DiaVec4OpenCL, "dia-vec4", Backend::opencl, false)
DIA_GALLERY_TEST(Step5_DiaImageOpenCL, "dia-image", Backend::opencl, true)
DIA_GALLERY_TEST(Step4_DiaVec4Cuda, "dia-vec4", Backend::cuda, false)
DIA_GALLERY_TEST(Step5_DiaLdgCuda, "dia-ldg", Backend::cuda, false)
DIA_GALLERY_TEST(Step5_DiaTextureCuda, "dia-texture", Backend::cuda, true)

// The GPU gates: a CUDA step earns its points only if its kernel, on 5.2 million entries,
// beats the kit's single-threaded CPU loop by kit::testing::kGpuFloorSpeedup (manifest: gates).
KIT_GPU_FLOOR_TEST(Step4_DiaVec4Cuda, "dia-vec4", kit::testing::gpu_floor_matrix())
KIT_GPU_FLOOR_TEST(Step5_DiaLdgCuda, "dia-ldg", kit::testing::gpu_floor_matrix())
KIT_GPU_FLOOR_TEST(Step5_DiaTextureCuda, "dia-texture", kit::testing::gpu_floor_matrix())
