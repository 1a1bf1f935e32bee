// Lab 00 hidden tests (tier 3): the hostile gallery.
#include "test_support.hpp"

using kit::Backend;

KIT_GALLERY_TEST(Step1_CsrCpu, HostileGallery, "csr", Backend::cpu)
KIT_GALLERY_TEST(Step2_CsrCuda, HostileGallery, "csr", Backend::cuda)

// The GPU gates: a CUDA step earns its points only if its kernel, on 5.2 million entries,
// beats the kit's single-threaded CPU loop by kit::testing::kGpuFloorSpeedup (manifest: gates).
KIT_GPU_FLOOR_TEST(Step2_CsrCuda, "csr", kit::testing::gpu_floor_matrix())
