// Lab 06 CUDA variant: "csr5", one warp (omega lanes) per tile, atomics for the carries.
#include "csr5_kernels.hpp"
#include "csr5_run.hpp"
#include "cuda_run.hpp"

namespace kit {
namespace {

/// CSR5 arrays in GPU memory, plus the scratch the tile kernel writes its carries to.
template <class T>
struct DeviceCsr5 {
    Csr5View<T> host;  // sizes and parameters; its pointers are host pointers and never used here
    DeviceBuffer<index_t> row_ptr, empty_offset_ptr, empty_offset, col_idx;
    DeviceBuffer<std::uint32_t> tile_ptr;
    DeviceBuffer<std::uint64_t> tile_desc;
    DeviceBuffer<T> vals, carry;
    explicit DeviceCsr5(const Csr5<T>& h)
        : host(h.view()), row_ptr(h.row_ptr), empty_offset_ptr(h.empty_offset_ptr), empty_offset(h.empty_offset),
          col_idx(h.col_idx), tile_ptr(h.tile_ptr), tile_desc(h.tile_desc), vals(h.vals),
          carry(static_cast<std::size_t>(h.full_tiles())) {}
    Csr5View<T> view() {
        Csr5View<T> v = host;
        v.row_ptr = row_ptr.data();
        v.tile_ptr = tile_ptr.data();
        v.tile_desc = tile_desc.data();
        v.empty_offset_ptr = empty_offset_ptr.data();
        v.empty_offset = empty_offset.data();
        v.col_idx = col_idx.data();
        v.vals = vals.data();
        v.carry = carry.data();  // scratch: the SpMV overwrites it on every call
        return v;
    }
};

RunResult run_csr5_cuda(const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                        const RunOptions& opt) {
    return dispatch_precision(opt.precision, [&](auto tag) {
        using T = decltype(tag);
        const Csr5<T> m = csr5_for_run<T>(A, opt);
        DeviceCsr5<T> dev(m);
        RunResult out = run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) { cuda::csr5_spmv(dev.view(), xp, yp); });
        describe_csr5_run(m, out);
        return out;
    });
}

}  // namespace

void register_lab_06_csr5_cuda(Registry& r) {
    r.add({"csr5", Backend::cuda, "06-csr5", 4,
           "omega lanes of a warp per tile, shuffle segmented sum; carries added atomically; tail one warp per row",
           run_csr5_cuda});
}

}  // namespace kit
