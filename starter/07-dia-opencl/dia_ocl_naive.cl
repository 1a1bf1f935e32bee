/// @file
/// Lab 07, step 1: the naive DIA kernel, as the case study first wrote it. See handouts/07-dia-opencl.md.
/// REAL (float or double) comes from the host as a -D build option.
#ifdef KIT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/// Each work-item computes y[row] += A[row,:] * x for one row, walking all diagonals.
/// Naive layout (pitch == rows): diagonal d of row `row` is A[d * rows + row]. Neighbouring
/// work-items read neighbouring values (dense), but diagonal d starts wherever d * rows
/// lands, so the loads are not aligned to 128 bytes. Every iteration also reads offsets[d]
/// from global memory: 4 + 4 + 4 bytes per multiply-add in float.
__kernel void dia_naive(const int rows, const int cols, const int diags, __global const int* offsets,
                        __global const REAL* A, __global const REAL* x, __global REAL* y) {
    // TODO(07-dia-opencl step 1): one work-item per row; A[d * rows + row] * x[row + offsets[d]] in range
    // KIT-TODO(07-dia-opencl step 1): the host refuses to run this file while this line is here; delete it once the kernel is written
}
