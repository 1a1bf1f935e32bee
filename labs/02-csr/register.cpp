// Lab 02 variants: csr-scalar, csr-vector, csr-adaptive on CUDA; csr-scalar on OpenCL.
#include "variants.hpp"

namespace kit {

void register_lab_02_csr_cuda(Registry& r);
void register_lab_02_csr_opencl(Registry& r);

void register_lab_02_csr(Registry& r) {
#if KIT_HAVE_CUDA
    register_lab_02_csr_cuda(r);
#endif
#if KIT_HAVE_OPENCL
    register_lab_02_csr_opencl(r);
#endif
    (void)r;
}

}  // namespace kit
