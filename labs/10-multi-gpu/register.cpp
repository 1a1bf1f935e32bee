// Lab 10 variants: "dist-mpi" on the CPU (MPI builds, register_mpi.cpp) and "dist-nccl" on
// CUDA (builds with CUDA, MPI and NCCL, register_nccl.cu). Without MPI the lab has no variant,
// and its tests skip saying what is missing.
#include "registry/variants.hpp"

namespace kit {

void register_lab_10_multi_gpu_mpi(Registry& r);
void register_lab_10_multi_gpu_nccl(Registry& r);

void register_lab_10_multi_gpu(Registry& r) {
#if KIT_HAVE_MPI
    register_lab_10_multi_gpu_mpi(r);
#endif
#if KIT_HAVE_NCCL
    register_lab_10_multi_gpu_nccl(r);
#endif
    (void)r;
}

}  // namespace kit
