// Lab 04 hidden tests (tier 3).
//
// ELL: the hostile gallery minus the matrices whose padding the container refuses (a
// dense row, power-law rows), plus ELL edge cases. The refused ones are listed in the log.
// HYB never refuses: it runs the whole hostile gallery plus matrices with many long rows.
#include <cstdio>

#include "ell_kernels.hpp"
#include "io/generators.hpp"
#include "test_support.hpp"

using kit::Backend;
using kit::CooMatrix;
using namespace kit::testing;

namespace {

ProblemList with_random_vectors(std::vector<std::pair<std::string, CooMatrix>> m, unsigned seed) {
    ProblemList out;
    for (auto& [name, A] : m) {
        A.normalize();
        kit::randomize_values(A, seed);
        out.emplace_back(name, random_vectors(std::move(A), seed++));
    }
    return out;
}

ProblemList ell_shaped_matrices() {
    std::vector<std::pair<std::string, CooMatrix>> m;
    m.emplace_back("stencil2d 33x31: equal rows, 1023 of them", kit::generate_stencil2d(33, 31));
    m.emplace_back("random 1000x1000, rows of 0..16", kit::generate_random(1000, 1000, 8, 41));
    CooMatrix last_only;  // width 1 but only the last row is occupied: 69 padded rows
    last_only.rows = last_only.cols = 70;
    last_only.add(69, 3, 1.0);
    m.emplace_back("70x70, only the last row", last_only);
    CooMatrix one_longer = kit::generate_stencil2d(16, 16);  // one row one slot wider than the others
    for (kit::index_t c = 100; c < 106; ++c) one_longer.add(37, c, 1.0);
    m.emplace_back("stencil2d 16x16 with one row of 11", one_longer);
    return with_random_vectors(std::move(m), 400);
}

ProblemList hyb_shaped_matrices() {
    std::vector<std::pair<std::string, CooMatrix>> m;
    m.emplace_back("power law 20000, longest row 5000", kit::generate_power_law(20000, 5000, 1.0, 43));
    m.emplace_back("dense-rows 5000 with 3 full rows", kit::generate_dense_rows(5000, 4, 3, 47));
    m.emplace_back("stencil3d 12^3, 7 points (all in ELL)", kit::generate_stencil3d(12, 7));
    return with_random_vectors(std::move(m), 500);
}

const ProblemList& ell_gallery() {
    static const ProblemList gallery = [] {
        std::vector<std::string> refused;
        ProblemList all = accepted_by(
            hostile_gallery(), [](const CooMatrix& A) { kit::Ell<double>::from_coo(A); }, refused);
        for (const std::string& why : refused) std::printf("note: left out of the ELL gallery: %s\n", why.c_str());
        for (auto& p : ell_shaped_matrices()) all.push_back(std::move(p));
        return all;
    }();
    return gallery;
}

::testing::AssertionResult passes_ell_gallery(const std::string& name, Backend backend) {
    // Most of the hostile gallery must stay in, or the test would check little.
    if (ell_gallery().size() < 14)
        return ::testing::AssertionFailure() << "the ELL gallery has only " << ell_gallery().size() << " matrices";
    return passes_problems(name, backend, ell_gallery());
}

::testing::AssertionResult passes_hyb_gallery(const std::string& name, Backend backend) {
    ProblemList all = hostile_gallery();
    for (auto& p : hyb_shaped_matrices()) all.push_back(std::move(p));
    return passes_problems(name, backend, all);
}

}  // namespace

TEST(Step1_EllCpu, EllGallery) { EXPECT_TRUE(passes_ell_gallery("ell", Backend::cpu)); }

TEST(Step2_EllCuda, EllGallery) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(passes_ell_gallery("ell", Backend::cuda));
}

TEST(Step3_HybCpu, HybGallery) { EXPECT_TRUE(passes_hyb_gallery("hyb", Backend::cpu)); }

TEST(Step3_HybCuda, HybGallery) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(passes_hyb_gallery("hyb", Backend::cuda));
}

// The GPU gates: a CUDA step earns its points only if its kernel, on 5.2 million entries,
// beats the kit's single-threaded CPU loop by kit::testing::kGpuFloorSpeedup (manifest: gates).
KIT_GPU_FLOOR_TEST(Step2_EllCuda, "ell", kit::testing::gpu_floor_matrix())
KIT_GPU_FLOOR_TEST(Step3_HybCuda, "hyb", kit::testing::gpu_floor_matrix())
