/// @file
/// Lab 07, step 2: the aligned DIA kernel with simplified indexing. See handouts/07-dia-opencl.md.
/// REAL (float or double) comes from the host as a -D build option.
#ifdef KIT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/// Each work-item computes y[row] += A[row,:] * x for one row, walking all diagonals.
/// Aligned layout: every diagonal is `pitch` slots long, pitch a multiple of 32, so
/// diagonal d starts on a 128-byte boundary (float) and a work-group's loads from it fill
/// whole cache lines. The index d * pitch + row becomes a pointer that steps by pitch.
__kernel void dia_aligned(const int rows, const int cols, const int diags, const int pitch,
                          __global const int* offsets, __global const REAL* A, __global const REAL* x,
                          __global REAL* y) {
    // BEGIN SOLUTION(step 2: as step 1, with a pointer a = A + row advancing by pitch per diagonal)
    // STARTER: // KIT-TODO(07-dia-opencl step 2): the host refuses to run this file while this line is here; delete it once the kernel is written
    const int row = get_global_id(0);
    if (row >= rows) return;
    REAL sum = 0;
    __global const REAL* a = A + row;
    for (int d = 0; d < diags; ++d, a += pitch) {
        const int col = row + offsets[d];
        if (col >= 0 && col < cols) sum += *a * x[col];
    }
    y[row] += sum;
    // END SOLUTION
}
