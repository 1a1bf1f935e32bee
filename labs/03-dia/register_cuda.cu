// Lab 03 CUDA variants: one thread per row, offsets from global memory or staged in shared memory.
#include "measure/bytes_model.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"
#include "dia_kernels.hpp"

namespace kit {

void register_lab_03_dia_cuda(Registry& r) {
    const auto bytes = [](const auto& m, count_t vb) { return dia_bytes_of(m, vb); };
    const auto note = [](const auto& m) { return describe_layout(m); };
    r.add({"dia-naive", Backend::cuda, "03-dia", 2, "each thread computes one row, reading offsets from global memory",
           cuda_variant<Dia, DeviceDia>([](auto A, auto x, auto y) { cuda::dia_naive_spmv(A, x, y); }, bytes, note)});
    r.add({"dia-shared", Backend::cuda, "03-dia", 3,
           "each thread computes one row; the block stages offsets in shared memory, " +
               std::to_string(kDiaOffsetChunk) + " at a time",
           cuda_variant<Dia, DeviceDia>([](auto A, auto x, auto y) { cuda::dia_shared_spmv(A, x, y); }, bytes, note)});
}

}  // namespace kit
