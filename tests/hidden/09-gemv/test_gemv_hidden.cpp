// Lab 09 hidden tests (tier 3): sizes that are not multiples of the block, 1 x n and n x 1,
// rectangular, lda > rows, alpha and beta other than 1 (beta = 0 with a NaN y), both
// transposes, float and double; the hostile gallery where the dense conversion accepts it;
// and every built shape of the tuned kernel.
#include "gemv_test_support.hpp"

using kit::Backend;
using kit::Transpose;
using namespace kit::testing;
using namespace gemv_test;

namespace {

std::vector<ApiCase> hostile_cases() {
    std::vector<ApiCase> out;
    const struct {
        const char* what;
        kit::index_t m, n, pad;
        double alpha, beta;
    } shapes[] = {
        {"1 x 300", 1, 300, 0, 1.0, 1.0},
        {"300 x 1", 300, 1, 0, 2.5, -1.0},
        {"65 x 129 (one past the block)", 65, 129, 3, -0.75, 0.0},
        {"127 x 63 (one short of the block)", 127, 63, 0, 1.0, 0.25},
        {"200 x 1000 wide", 200, 1000, 0, 0.5, 2.0},
        {"1000 x 200 tall", 1000, 200, 24, -2.0, 1.0},
        {"256 x 192 (whole blocks)", 256, 192, 0, 1.0, 0.0},
        {"33 x 33, lda 64", 33, 33, 31, 1.0, -0.5},
        {"3 x 5", 3, 5, 1, 4.0, 0.5},
        {"1 x 1", 1, 1, 0, -1.0, 3.0},
    };
    for (const auto& s : shapes)
        for (Transpose op : {Transpose::no, Transpose::yes}) {
            std::string label = std::string(s.what) + (op == Transpose::yes ? ", transposed" : "") + ", lda " +
                                std::to_string(s.m + s.pad) + ", alpha " + std::to_string(s.alpha) + ", beta " +
                                std::to_string(s.beta);
            out.push_back({label, s.m, s.n, s.m + s.pad, s.alpha, s.beta, op});
        }
    return out;
}

/// The gallery matrices the dense conversion accepts (the others are refused, a finding).
ProblemList dense_gallery() {
    std::vector<std::string> refused;
    return accepted_by(
        hostile_gallery(), [](const kit::CooMatrix& A) { (void)kit::Dense<double>::from_coo(A); }, refused);
}

::testing::AssertionResult pair_passes(const std::string& variant, Backend b, const ProblemList& problems,
                                       const kit::RunOptions& opt = {}) {
    for (const std::string& name : {variant, variant + "-t"}) {
        auto r = passes_problems(name, b, problems, opt);
        if (!r) return r;
    }
    return ::testing::AssertionSuccess();
}

}  // namespace

TEST(Step1_GemvCpu, HostileApi) {
    EXPECT_TRUE(passes_api("cpu::gemv", Backend::cpu, 1, hostile_cases(), GEMV_CPU_CALL));
}
TEST(Step1_GemvCpu, HostileGallery) { EXPECT_TRUE(pair_passes("gemv", Backend::cpu, dense_gallery())); }

TEST(Step2_GemvThreadCuda, HostileApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_thread", Backend::cuda, 2, hostile_cases(), GEMV_THREAD_CALL));
#endif
}

TEST(Step3_GemvBlockedCuda, HostileApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_blocked<64,4>", Backend::cuda, 3, hostile_cases(), GEMV_BLOCKED_CALL));
#endif
}
TEST(Step3_GemvBlockedCuda, HostileGallery) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(pair_passes("gemv-blocked", Backend::cuda, dense_gallery()));
}

TEST(Step4_GemvStreamedCuda, HostileApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    EXPECT_TRUE(passes_api("cuda::gemv_streamed<64,4>", Backend::cuda, 4, hostile_cases(), GEMV_STREAMED_CALL));
#endif
}
TEST(Step4_GemvStreamedCuda, HostileGallery) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    EXPECT_TRUE(pair_passes("gemv-streamed", Backend::cuda, dense_gallery()));
}

TEST(Step5_GemvTunedCuda, EveryShape) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    const std::vector<kit::GemvShape> shapes = observe([] { return kit::cuda::gemv_shapes(); });
    ASSERT_GE(shapes.size(), 4u) << "the sweep needs several shapes";
    const ProblemList problems = {{"dense 130 x 97", dense_problem(130, 97, 5)},
                                  {"dense 1 x 200", dense_problem(1, 200, 6)},
                                  {"dense 300 x 1", dense_problem(300, 1, 8)}};
    for (const kit::GemvShape s : shapes) {
        kit::RunOptions opt;
        opt.tunables = kit::gemv_tunables(s);
        if (s.columns_per_warp == 0) {
            EXPECT_TRUE(pair_passes("gemv-tuned", Backend::cuda, problems, opt)) << "shape " << kit::to_string(s);
            continue;
        }
        // a warp-columns shape: the transposed kernel only, and A x refuses it
        EXPECT_TRUE(passes_problems("gemv-tuned-t", Backend::cuda, problems, opt)) << "shape " << kit::to_string(s);
        const kit::Reference ref(problems[0].second.A, problems[0].second.x, problems[0].second.y);
        const kit::CheckedRun n = observed_run_checked(*kit::registry().find("gemv-tuned", Backend::cuda), ref, opt);
        EXPECT_EQ(n.status, kit::RunStatus::refused) << "shape " << kit::to_string(s) << " with A x: " << n.message;
    }
#endif
}
TEST(Step5_GemvTunedCuda, UnknownShapeRefused) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    kit::DenseView<float> A{0, 0, 1, nullptr};
    EXPECT_THROW(
        observe([&] {
            kit::cuda::gemv_tuned<float>(kit::GemvShape{48, 3}, Transpose::no, 1.0f, A, nullptr, 1.0f, nullptr);
        }),
        kit::ConversionRefused);
#endif
}

TEST(Step5_GemvWarpColumnsCuda, HostileApi) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    std::vector<ApiCase> transposed;
    for (const ApiCase& c : hostile_cases())
        if (c.op == Transpose::yes) transposed.push_back(c);
    EXPECT_TRUE(passes_api("cuda::gemv_warp_columns<2>", Backend::cuda, 5, transposed, GEMV_WARP_COLUMNS_CALL));
#endif
}

// x one value past a 16-byte boundary: the kernel must not read x with 16-byte loads then.
TEST(Step5_GemvWarpColumnsCuda, UnalignedX) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    const auto shifted_x = [](auto op, auto alpha, auto A, auto x, auto beta, auto y) {
        using T = decltype(alpha);
        const kit::index_t nx = kit::gemv_x_length(op, A);
        kit::DeviceBuffer<T> buffer(static_cast<std::size_t>(nx) + 1);
        CUDA_CHECK(
            cudaMemcpy(buffer.data() + 1, x, static_cast<std::size_t>(nx) * sizeof(T), cudaMemcpyDeviceToDevice));
        kit::cuda::gemv_warp_columns<T, 2>(op, alpha, A, buffer.data() + 1, beta, y);
    };
    const std::vector<ApiCase> cases = {
        {"200 x 96 transposed, x unaligned", 200, 96, 200, 1.0, 1.0, Transpose::yes},
        {"1000 x 37 transposed, x unaligned", 1000, 37, 1000, -0.5, 2.0, Transpose::yes}};
    EXPECT_TRUE(passes_api("cuda::gemv_warp_columns<2>", Backend::cuda, 5, cases, shifted_x));
#endif
}

// The GPU gates: a CUDA step earns its points only if its kernel, on a dense 2048 x 2048
// matrix, beats the kit's single-threaded CPU loop by kit::testing::kGpuFloorSpeedup (manifest: gates).
static kit::CooMatrix dense_floor_matrix() { return dense_problem(2048, 2048, 5).A; }
KIT_GPU_FLOOR_TEST(Step2_GemvThreadCuda, "gemv-thread", dense_floor_matrix())
KIT_GPU_FLOOR_TEST(Step3_GemvBlockedCuda, "gemv-blocked", dense_floor_matrix())
KIT_GPU_FLOOR_TEST(Step4_GemvStreamedCuda, "gemv-streamed", dense_floor_matrix())
KIT_GPU_FLOOR_TEST(Step5_GemvTunedCuda, "gemv-tuned", dense_floor_matrix())
TEST(Step5_GemvWarpColumnsCuda, GpuDidTheWork) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    kit::RunOptions opt;
    opt.tunables = kit::gemv_tunables(kit::GemvShape{0, 0, 2});
    EXPECT_TRUE(kit::testing::gpu_did_the_work("gemv-tuned-t", dense_floor_matrix(), opt));
}
