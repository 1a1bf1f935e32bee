// Lab 09 CUDA variants. Each has a "-t" twin that stores A^T and runs the transposed kernel.
// "gemv-tuned" reads its shape from the tunables (gemv_shape_from: gemv_block_size and
// gemv_thread_y, default 64 x 4, or gemv_columns_per_warp, transposed only).
#include "measure/bytes_model.hpp"
#include "gpu/cuda_run.hpp"
#include "formats/dense.hpp"
#include "gemv_kernels.hpp"

#include <type_traits>

namespace kit {

namespace {


template <class Call>
RunFunction cuda_gemv(Transpose op, Call call, bool tuned) {
    return [op, call, tuned](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                             const RunOptions& opt) {
        return dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const GemvShape shape = gemv_shape_from(opt.tunables);
            const Dense<T> host = op == Transpose::no ? Dense<T>::from_coo(A) : Dense<T>::transposed_from_coo(A);
            const DeviceBuffer<T> vals(host.vals);
            const DenseView<T> view{host.rows, host.cols, host.lda, vals.data()};
            RunResult out = run_on_cuda<T>(x, y, opt, [&](const T* xp, T* yp) { call(shape, op, view, xp, yp); });
            out.bytes = dense_bytes(A.rows, A.cols, sizeof(T));
            if (tuned) out.note = "shape " + to_string(shape);
            return out;
        });
    };
}

}  // namespace

void register_lab_09_gemv_cuda(Registry& r) {
    const auto thread = [](GemvShape, Transpose op, auto A, auto x, auto y) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
        cuda::gemv_thread_per_output(op, T(1), A, x, T(1), y);
    };
    const auto blocked = [](GemvShape, Transpose op, auto A, auto x, auto y) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
        cuda::gemv_blocked<T, 64, 4>(op, T(1), A, x, T(1), y);
    };
    const auto streamed = [](GemvShape, Transpose op, auto A, auto x, auto y) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
        cuda::gemv_streamed<T, 64, 4>(op, T(1), A, x, T(1), y);
    };
    const auto tuned = [](GemvShape shape, Transpose op, auto A, auto x, auto y) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
        cuda::gemv_tuned(shape, op, T(1), A, x, T(1), y);
    };
    r.add({"gemv-thread", Backend::cuda, "09-gemv", 2, "one thread per row of A (coalesced down each column)",
           cuda_gemv(Transpose::no, thread, false)});
    r.add({"gemv-thread-t", Backend::cuda, "09-gemv", 2, "A^T stored; one thread per column (reads lda apart)",
           cuda_gemv(Transpose::yes, thread, false)});
    r.add({"gemv-blocked", Backend::cuda, "09-gemv", 3,
           "64-row block rows, 64x4 shape (16-byte loads), marching right, two prefetched chunks per block",
           cuda_gemv(Transpose::no, blocked, false)});
    r.add({"gemv-blocked-t", Backend::cuda, "09-gemv", 3, "A^T stored; 64-column block columns, 64x4 shape, marching down",
           cuda_gemv(Transpose::yes, blocked, false)});
    r.add({"gemv-streamed", Backend::cuda, "09-gemv", 4,
           "full block rows unchecked; the partial one on a second stream; march split into slices",
           cuda_gemv(Transpose::no, streamed, false)});
    r.add({"gemv-streamed-t", Backend::cuda, "09-gemv", 4, "A^T stored; transposed gemv-streamed",
           cuda_gemv(Transpose::yes, streamed, false)});
    r.add({"gemv-tuned", Backend::cuda, "09-gemv", 5,
           "gemv-streamed with gemv_block_size x gemv_thread_y from the tunables (-t: or gemv_columns_per_warp)",
           cuda_gemv(Transpose::no, tuned, true)});
    r.add({"gemv-tuned-t", Backend::cuda, "09-gemv", 5, "A^T stored; transposed gemv-tuned",
           cuda_gemv(Transpose::yes, tuned, true)});
}

}  // namespace kit
