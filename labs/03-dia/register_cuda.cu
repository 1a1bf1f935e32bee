// Lab 03 CUDA variants: one thread per row, offsets from global memory or staged in shared memory.
#include "cuda_run.hpp"
#include "device_formats.hpp"
#include "dia_kernels.hpp"

namespace kit {

namespace lab03 {  // defined in register.cpp
count_t dia_bytes_of(const Dia<float>& m, count_t value_bytes);
count_t dia_bytes_of(const Dia<double>& m, count_t value_bytes);
RunFunction with_dia_note(RunFunction run);
}  // namespace lab03

void register_lab_03_dia_cuda(Registry& r) {
    const auto bytes = [](const auto& m, count_t vb) { return lab03::dia_bytes_of(m, vb); };
    r.add({"dia-naive", Backend::cuda, "03-dia", 2, "each thread computes one row, reading offsets from global memory",
           lab03::with_dia_note(cuda_variant<Dia, DeviceDia>([](auto A, auto x, auto y) { cuda::dia_naive_spmv(A, x, y); },
                                                      bytes))});
    r.add({"dia-shared", Backend::cuda, "03-dia", 3,
           "each thread computes one row; the block stages offsets in shared memory, 256 at a time",
           lab03::with_dia_note(cuda_variant<Dia, DeviceDia>([](auto A, auto x, auto y) { cuda::dia_shared_spmv(A, x, y); },
                                                      bytes))});
}

}  // namespace kit
