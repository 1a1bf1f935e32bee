// Lab 09 CUDA variants. Each has a "-t" twin that stores A^T and runs the transposed kernel.
// "gemv-tuned" reads its shape from the tunables (gemv_shape_from: gemv_block_size and
// gemv_thread_y, default 64 x 4, or gemv_columns_per_warp, transposed only).
#include "measure/bytes_model.hpp"
#include "gpu/cuda_run.hpp"
#include "gpu/device_formats.hpp"
#include "formats/dense.hpp"
#include "gemv_kernels.hpp"

#include <type_traits>

namespace kit {

namespace {

/// A CUDA GEMV variant: `call(shape, op, view, x, y)` with the shape the tunables select
/// (gemv_shape_from), which only the gemv-tuned variants read and name in their note.
template <class Call>
RunFunction cuda_gemv(Transpose op, Call call, bool tuned) {
    const bool transposed = op == Transpose::yes;
    return [op, call, tuned, transposed](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                         const RunOptions& opt) {
        const GemvShape shape = gemv_shape_from(opt.tunables);
        return cuda_variant<Dense, DeviceDense>(
            [&](auto view, auto xp, auto yp) { call(shape, op, view, xp, yp); },
            [transposed](const auto& m, count_t vb) { return dense_bytes_of(m, vb, transposed); },
            [&](const auto&) { return tuned ? "shape " + to_string(shape) : std::string(); },
            GemvDense{op})(A, x, y, opt);
    };
}

// The launchers behind each variant (the shape matters to the tuned pair only).
const auto launch_thread = [](GemvShape, Transpose op, auto A, auto x, auto y) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
    cuda::gemv_thread(op, T(1), A, x, T(1), y);
};
const auto launch_blocked = [](GemvShape, Transpose op, auto A, auto x, auto y) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
    cuda::gemv_blocked<T, 64, 4>(op, T(1), A, x, T(1), y);
};
const auto launch_streamed = [](GemvShape, Transpose op, auto A, auto x, auto y) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
    cuda::gemv_streamed<T, 64, 4>(op, T(1), A, x, T(1), y);
};
const auto launch_tuned = [](GemvShape shape, Transpose op, auto A, auto x, auto y) {
    using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
    cuda::gemv_tuned(shape, op, T(1), A, x, T(1), y);
};
// Every GEMV kernel reads a dense matrix; the transposed ones multiply by the stored A^T.
Variant& add(Registry& r, Variant v, Transpose op) {
    Variant& added = r.add(std::move(v));
    added.family = "dense";
    if (op == Transpose::yes) added.roles.insert(role::transposed);
    return added;
}

void register_tuned_pair(Registry& r) {
    // The tuned pair declares the shapes it is built for: powers of two in these ranges, as a
    // block (size and height) or as columns per warp (the transposed kernel only).
    const std::vector<Tunable> shapes = {
        {kGemvBlockSize, 32, 128, "square block side of the paper's blocks", true, "blocks"},
        {kGemvThreadY, 1, 16, "threads along a block's columns", true, "blocks"},
        {kGemvColumnsPerWarp, 1, 8, "transposed only: columns of A^T one warp reduces", true, "warp columns"}};
    for (Transpose op : {Transpose::no, Transpose::yes}) {
        Variant& tuned_variant =
            add(r,
                {op == Transpose::no ? "gemv-tuned" : "gemv-tuned-t", Backend::cuda, "09-gemv", 5,
                 op == Transpose::no ? "gemv-streamed with gemv_block_size x gemv_thread_y from the "
                                       "tunables (-t: or gemv_columns_per_warp)"
                                     : "A^T stored; transposed gemv-tuned",
                 cuda_gemv(op, launch_tuned, true)},
                op);
        tuned_variant.roles.insert(role::shape_tuned);
        tuned_variant.tunables = shapes;
    }
}

}  // namespace

void register_lab_09_gemv_cuda(Registry& r) {
    add(r,
        {"gemv-thread", Backend::cuda, "09-gemv", 2, "one thread per row of A (coalesced down each column)",
         cuda_gemv(Transpose::no, launch_thread, false)},
        Transpose::no);
    add(r,
        {"gemv-thread-t", Backend::cuda, "09-gemv", 2, "A^T stored; one thread per column (reads lda apart)",
         cuda_gemv(Transpose::yes, launch_thread, false)},
        Transpose::yes);
    add(r,
        {"gemv-blocked", Backend::cuda, "09-gemv", 3,
         "64-row block rows, 64x4 shape (16-byte loads), marching right, two prefetched chunks per block",
         cuda_gemv(Transpose::no, launch_blocked, false)},
        Transpose::no);
    add(r,
        {"gemv-blocked-t", Backend::cuda, "09-gemv", 3,
         "A^T stored; 64-column block columns, 64x4 shape, marching down",
         cuda_gemv(Transpose::yes, launch_blocked, false)},
        Transpose::yes);
    add(r,
        {"gemv-streamed", Backend::cuda, "09-gemv", 4,
         "full block rows unchecked; the partial one on a second stream; march split into slices",
         cuda_gemv(Transpose::no, launch_streamed, false)},
        Transpose::no);
    add(r,
        {"gemv-streamed-t", Backend::cuda, "09-gemv", 4, "A^T stored; transposed gemv-streamed",
         cuda_gemv(Transpose::yes, launch_streamed, false)},
        Transpose::yes);
    register_tuned_pair(r);
}

}  // namespace kit
