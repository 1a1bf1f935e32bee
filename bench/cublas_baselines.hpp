/// @file cublas_baselines.hpp
/// @brief cuBLAS's GEMV as variants, timed exactly like the kit's kernels (kit::run_on_cuda).
///
/// Baselines (backend cuda, lab "cublas"), both y <- y + A x with alpha = beta = 1:
/// - `cublas-gemv`:   cublasSgemv/cublasDgemv, CUBLAS_OP_N on A stored column-major
/// - `cublas-gemv-t`: CUBLAS_OP_T on A^T stored column-major (the transposed GEMV)
/// The dense copy refuses as kit::Dense does (labs/common/formats/dense.hpp); bytes are kit::dense_bytes.
/// Both share one cuBLAS handle, made on their first run and destroyed with the last of them:
/// keep the variant list alive no longer than CUDA (a local in a function does).
#pragma once

#include <vector>

#include "registry/variants.hpp"

namespace bench {

/// @brief Appends the two cuBLAS variants. @param out [in,out] variant list
void add_cublas_variants(std::vector<kit::Variant>& out);

}  // namespace bench
