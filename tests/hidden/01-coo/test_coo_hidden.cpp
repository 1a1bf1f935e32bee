// Lab 01 hidden tests (tier 3): the hostile gallery, plus one row longer than many warps,
// which exercises the segmented kernel's carry between chunks and between warps.
#include "io/generators.hpp"
#include "test_support.hpp"

using kit::Backend;
using kit::Comparison;
using namespace kit::testing;

KIT_GALLERY_TEST(Step1_CooCpu, HostileGallery, "coo", Backend::cpu)
KIT_GALLERY_TEST(Step2_CooAtomicCuda, HostileGallery, "coo-atomic", Backend::cuda)
KIT_GALLERY_TEST(Step3_CooSegmentedCuda, HostileGallery, "coo-segmented", Backend::cuda)

KIT_PRECISION_SUITE(Step3_CooSegmentedCuda);

TYPED_TEST(Step3_CooSegmentedCuda, RowSpanningWarps) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = random_vectors(kit::generate_dense_rows(3000, 2, 2, 5), 41);

    const OracleRun run =
        run_against_oracle("coo-segmented", Backend::cuda, this->precision, problem, Comparison::bound);

    EXPECT_TRUE(matches_oracle(run));
}

// The GPU gates: a CUDA step earns its points only if its kernel, on 5.2 million entries,
// beats the kit's single-threaded CPU loop by kit::testing::kGpuFloorSpeedup (manifest: gates).
KIT_GPU_FLOOR_TEST(Step2_CooAtomicCuda, "coo-atomic", kit::testing::gpu_floor_matrix())
KIT_GPU_FLOOR_TEST(Step3_CooSegmentedCuda, "coo-segmented", kit::testing::gpu_floor_matrix())
