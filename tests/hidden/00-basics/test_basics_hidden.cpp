// Lab 00 hidden tests (tier 3): the hostile gallery.
#include "test_support.hpp"

using kit::Backend;

KIT_GALLERY_TEST(Step1_CsrCpu, HostileGallery, "csr", Backend::cpu)
KIT_GALLERY_TEST(Step2_CsrCuda, HostileGallery, "csr", Backend::cuda)
