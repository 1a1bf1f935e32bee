/// @file gemv_kernels.hpp
/// @brief Lab 09 signatures: dense y <- alpha op(A) x + beta y (GEMV), column-major A, on the
/// CPU and in CUDA, after Abdelfattah, Keyes and Ltaief's memory-bound GEMV.
///
/// op(A) is A (Transpose::no: y has A.rows values, x has A.cols) or A^T (Transpose::yes: y
/// has A.cols values, x has A.rows). When the inner dimension is 0, y <- beta y. With
/// beta == 0, y is not read (BLAS convention: an uninitialised y is fine).
///
/// The blocked kernels cut A into square blocks of `BlockSize` (the paper's gemv_block_size)
/// and run (BlockSize / V) x ThreadY threads per thread block, V = 16 / sizeof(T) (thread_x =
/// BlockSize / V, thread_y = ThreadY): each thread reads V neighbouring rows of a column with one
/// 16-byte load. Each block is processed in two chunks of BlockSize/2 columns; a thread holds
/// elements_per_thread = BlockSize / (2 ThreadY) such loads of a chunk in registers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "formats/dense.hpp"

namespace kit {

/// @brief Which matrix multiplies x: A or its transpose.
enum class Transpose { no, yes };

/// @brief One launch shape of step 5: the paper's blocks (gemv_block_size x thread_y), or,
/// transposed only, one warp per group of columns (columns_per_warp > 0; no blocks then).
struct GemvShape {
    int block_size = 64;       ///< gemv_block_size: square block side (thread_x = block_size / V)
    int thread_y = 4;          ///< thread_y: rows of threads per thread block
    int columns_per_warp = 0;  ///< > 0: gemv_warp_columns with this many columns per warp (transposed only)
};

/// @brief "64x4", or "2col/warp" for a warp-columns shape: how the tools print a shape.
/// @param s [in] shape
inline std::string to_string(GemvShape s) {
    if (s.columns_per_warp > 0) return std::to_string(s.columns_per_warp) + "col/warp";
    return std::to_string(s.block_size) + "x" + std::to_string(s.thread_y);
}

// Names of the tunables that select a shape, declared with their ranges in register_cuda.cu.
inline const std::string kGemvBlockSize = "gemv_block_size";             ///< square block side
inline const std::string kGemvThreadY = "gemv_thread_y";                 ///< threads along a block's columns
inline const std::string kGemvColumnsPerWarp = "gemv_columns_per_warp";  ///< A^T x: columns one warp reduces

/// @brief The tunables that select shape s (`gemv_block_size`, `gemv_thread_y`, or
/// `gemv_columns_per_warp`), as every tool passes a shape to the gemv-tuned variants.
/// @param s [in] shape
inline std::map<std::string, int> gemv_tunables(GemvShape s) {
    if (s.columns_per_warp > 0) return {{kGemvColumnsPerWarp, s.columns_per_warp}};
    return {{kGemvBlockSize, s.block_size}, {kGemvThreadY, s.thread_y}};
}

/// @brief The shape the tunables select; 64 x 4 where they say nothing (inverse of gemv_tunables).
/// @param tunables [in] name -> value
inline GemvShape gemv_shape_from(const std::map<std::string, int>& tunables) {
    const auto get = [&](const std::string& name) {
        const auto it = tunables.find(name);
        return it == tunables.end() ? 0 : it->second;
    };
    GemvShape s;
    if (get(kGemvColumnsPerWarp) > 0) s.columns_per_warp = get(kGemvColumnsPerWarp);
    if (get(kGemvBlockSize) > 0) s.block_size = get(kGemvBlockSize);
    if (get(kGemvThreadY) > 0) s.thread_y = get(kGemvThreadY);
    return s;
}

/// @brief The conversion of a registered GEMV variant (the convert of cpu_variant and
/// cuda_variant): A made dense, or A^T stored for Transpose::yes, whose transposed GEMV is
/// again A x, so the kit's oracle checks both transposes.
struct GemvDense {
    Transpose op;  ///< which matrix is stored: A (no) or A^T (yes)
    /// @brief The dense matrix. @param A [in] hub matrix  @param opt [in] run options (unused)
    /// @param tag [in] T{}, the working precision
    template <class T, class Options>
    Dense<T> operator()(const CooMatrix& A, const Options& opt, T tag) const {
        (void)opt;
        (void)tag;
        return op == Transpose::no ? Dense<T>::from_coo(A) : Dense<T>::transposed_from_coo(A);
    }
};

/// @brief Length of y for op(A). @param op [in] transpose  @param A [in] matrix
template <class T>
index_t gemv_y_length(Transpose op, DenseView<T> A) {
    return op == Transpose::no ? A.rows : A.cols;
}
/// @brief Length of x for op(A). @param op [in] transpose  @param A [in] matrix
template <class T>
index_t gemv_x_length(Transpose op, DenseView<T> A) {
    return op == Transpose::no ? A.cols : A.rows;
}

}  // namespace kit

namespace kit::cpu {
/// @brief Step 1: y <- alpha op(A) x + beta y on the CPU, one dot product per element of y.
/// @param op [in] transpose  @param alpha [in] scale of op(A) x  @param A [in] matrix (host)
/// @param x [in] gemv_x_length values  @param beta [in] scale of y  @param y [in,out] gemv_y_length values
template <class T>
void gemv(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y);
}  // namespace kit::cpu

namespace kit::cuda {
/// @brief Step 2: one thread per element of y. Without transpose thread i walks row i (a
/// warp reads 32 consecutive values of one column: coalesced); with transpose thread j walks
/// column j (a warp reads 32 values lda apart: one transaction each).
/// @param op [in] transpose  @param alpha [in] scale  @param A [in] matrix (device)
/// @param x [in] device x  @param beta [in] scale of y  @param y [in,out] device y
template <class T>
void gemv_thread(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y);

/// @brief Step 3: the paper's block and thread strategies in one launch. One thread block
/// per block row (or block column, transposed) marches across A; each block is read in two
/// chunks, the next chunk prefetched into registers before the current one is used; partial
/// sums are reduced through shared memory. Every load is bounds-checked (zeros outside A).
/// Loads are 16 bytes wide (V rows) when lda is a multiple of V = 16 / sizeof(T), else scalar.
/// @param op [in] transpose  @param alpha [in] scale  @param A [in] matrix (device)
/// @param x [in] device x  @param beta [in] scale of y  @param y [in,out] device y
template <class T, int BlockSize, int ThreadY>
void gemv_blocked(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y);

/// @brief Step 4: arbitrary sizes as the paper does them. Full block rows (block columns,
/// transposed) run without bounds checks on rows; the last, partial one runs in a second
/// kernel on its own stream, concurrently. Both split their march into slices when there are
/// too few block rows to fill the GPU; the last slice of a block row to finish adds the
/// slices' partial sums in order (kernel::finish_slices), so every run gives the same y.
/// @param op [in] transpose  @param alpha [in] scale  @param A [in] matrix (device)
/// @param x [in] device x  @param beta [in] scale of y  @param y [in,out] device y
template <class T, int BlockSize, int ThreadY>
void gemv_streamed(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y);

/// @brief Step 5, transposed only: one warp per group of `ColumnsPerWarp` neighbouring
/// columns of A, no blocks and no slices (the shape cuBLAS uses on current GPUs). Each lane
/// reads V rows of a column with one 16-byte load and has 8 / ColumnsPerWarp such loads of
/// each column in flight (8 in all, the paper's bound on elements_per_thread); the 32 lanes'
/// sums are added with warp shuffles. Throws
/// kit::ConversionRefused for Transpose::no (a warp per row would read rows lda apart).
/// @param op [in] transpose (must be yes)  @param alpha [in] scale  @param A [in] matrix (device)
/// @param x [in] device x  @param beta [in] scale of y  @param y [in,out] device y
template <class T, int ColumnsPerWarp>
void gemv_warp_columns(Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y);

/// @brief Step 5: the shapes the tuning sweep tries (every instantiated BlockSize x ThreadY,
/// and every columns-per-warp of gemv_warp_columns).
std::vector<GemvShape> gemv_shapes();

/// @brief Step 5: gemv_streamed or gemv_warp_columns with a shape chosen at run time; throws
/// kit::ConversionRefused naming the supported shapes when `shape` is not one of gemv_shapes(),
/// and for a warp-columns shape with Transpose::no.
/// @param shape [in] one of gemv_shapes()  @param op [in] transpose  @param alpha [in] scale
/// @param A [in] matrix (device)  @param x [in] device x  @param beta [in] scale of y  @param y [in,out] device y
template <class T>
void gemv_tuned(GemvShape shape, Transpose op, T alpha, DenseView<T> A, const T* x, T beta, T* y);
}  // namespace kit::cuda
