// Lab 02 hidden tests (tier 3): the hostile gallery for every kernel.
#include "test_support.hpp"

using kit::Backend;

KIT_GALLERY_TEST(Step1_CsrScalarCuda, HostileGallery, "csr-scalar", Backend::cuda)
KIT_GALLERY_TEST(Step1_CsrVectorCuda, HostileGallery, "csr-vector", Backend::cuda)
KIT_GALLERY_TEST(Step2_CsrScalarOpenCL, HostileGallery, "csr-scalar", Backend::opencl)
KIT_GALLERY_TEST(Step3_CsrAdaptiveCuda, HostileGallery, "csr-adaptive", Backend::cuda)
