/// @file
/// Lab 07, step 3: the offsets in local memory. See handouts/07-dia-opencl.md.
/// REAL (float or double) and DIA_CHUNK (offsets held in local memory at a time) come from
/// the host as -D build options.
#ifdef KIT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/// Each work-item computes y[row] += A[row,:] * x for one row (aligned layout, as step 2).
/// Every work-item of a group needs the same offsets, so the group copies them into local
/// memory once, DIA_CHUNK at a time, and the inner loop reads them on chip: per
/// multiply-add only the matrix value and the x value come from global memory.
/// Any number of diagonals works: the chunks repeat until all diagonals are done.
__kernel void dia_local(const int rows, const int cols, const int diags, const int pitch,
                        __global const int* offsets, __global const REAL* A, __global const REAL* x,
                        __global REAL* y) {
    // TODO(07-dia-opencl step 3): offsets in __local chunks of DIA_CHUNK, between barriers (no early return)
    // KIT-TODO(07-dia-opencl step 3): the host refuses to run this file while this line is here; delete it once the kernel is written
}
