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
    // BEGIN SOLUTION(step 3: offsets in __local chunks of DIA_CHUNK, between barriers (no early return))
    // STARTER: // KIT-TODO(07-dia-opencl step 3): the host refuses to run this file while this line is here; delete it once the kernel is written
    __local int chunk_offsets[DIA_CHUNK];
    const int row = get_global_id(0);
    // Rows past the end still reach every barrier: a work-item that returned early would
    // leave the rest of its group waiting (undefined behaviour).
    const bool active = row < rows;
    REAL sum = 0;
    __global const REAL* a = A + row;
    for (int base = 0; base < diags; base += DIA_CHUNK) {
        const int n = min(DIA_CHUNK, diags - base);
        barrier(CLK_LOCAL_MEM_FENCE);  // the whole group is done with the previous chunk
        for (int i = get_local_id(0); i < n; i += get_local_size(0)) chunk_offsets[i] = offsets[base + i];
        barrier(CLK_LOCAL_MEM_FENCE);  // the chunk is complete before anyone reads it
        if (active)
            for (int k = 0; k < n; ++k, a += pitch) {
                const int col = row + chunk_offsets[k];
                if (col >= 0 && col < cols) sum += *a * x[col];
            }
    }
    if (active) y[row] += sum;
    // END SOLUTION
}
