/// @file
/// Lab 07, step 4: four rows per work-item with vector types. See handouts/07-dia-opencl.md.
/// REAL and REAL4 (float/float4 or double/double4) and DIA_CHUNK come from the host as -D
/// build options.
#ifdef KIT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/// x[col], x[col+1], x[col+2], x[col+3], with 0 for the columns outside [0, cols).
/// Inside the matrix one unaligned vload4 reads all four; only quads that straddle the
/// first or last column (the matrix borders) take the element-by-element path.
REAL4 x_quad(__global const REAL* x, const int col, const int cols) {
    // BEGIN SOLUTION(step 4: vload4 when col .. col + 3 are in [0, cols), else element by element)
    // STARTER: // KIT-TODO(07-dia-opencl step 4): the host refuses to run this file while this line is here; delete it once the kernel is written
    // STARTER: return (REAL4)(0);
    if (col >= 0 && col <= cols - 4) return vload4(0, x + col);
    REAL4 v = (REAL4)(0);
    if (col >= 0 && col < cols) v.s0 = x[col];
    if (col + 1 >= 0 && col + 1 < cols) v.s1 = x[col + 1];
    if (col + 2 >= 0 && col + 2 < cols) v.s2 = x[col + 2];
    if (col + 3 >= 0 && col + 3 < cols) v.s3 = x[col + 3];
    return v;
    // END SOLUTION
}

/// y[row..row+3] += v for the rows that exist: the last group may hold 1 to 3 rows when
/// rows is not a multiple of 4, and y has no padding to absorb a full vstore4.
void add_quad(__global REAL* y, const int row, const int rows, const REAL4 v) {
    // BEGIN SOLUTION(step 4: vload4 + vstore4 for a full group; a partial one row by row)
    if (row + 4 <= rows) {
        vstore4(vload4(0, y + row) + v, 0, y + row);
        return;
    }
    if (row < rows) y[row] += v.s0;
    if (row + 1 < rows) y[row + 1] += v.s1;
    if (row + 2 < rows) y[row + 2] += v.s2;
    // END SOLUTION
}

/// Each work-item computes rows 4g..4g+3 (g = get_global_id(0)) as one REAL4: per
/// diagonal one aligned 16-byte load of the matrix, one quad of x. The aligned layout makes
/// this legal: pitch % 4 == 0 and row % 4 == 0, so A + d * pitch + row is a multiple of
/// 4 elements and can be read through a REAL4 pointer; padding slots past the last row
/// hold 0. Offsets come from local memory in chunks, as in step 3.
__kernel void dia_vec4(const int rows, const int cols, const int diags, const int pitch,
                       __global const int* offsets, __global const REAL* A, __global const REAL* x,
                       __global REAL* y) {
    // BEGIN SOLUTION(step 4: 4 rows a work-item; step 3's chunks; REAL4 values * x_quad; add_quad)
    __local int chunk_offsets[DIA_CHUNK];
    const int row = get_global_id(0) * 4;
    const bool active = row < rows;  // no early return: the barriers need the whole group
    REAL4 sum = (REAL4)(0);
    __global const REAL4* a = (__global const REAL4*)(A + row);
    const int pitch4 = pitch / 4;  // the pitch in REAL4 units
    for (int base = 0; base < diags; base += DIA_CHUNK) {
        const int n = min(DIA_CHUNK, diags - base);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = get_local_id(0); i < n; i += get_local_size(0)) chunk_offsets[i] = offsets[base + i];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (active)
            for (int k = 0; k < n; ++k, a += pitch4) sum += *a * x_quad(x, row + chunk_offsets[k], cols);
    }
    if (active) add_quad(y, row, rows, sum);
    // END SOLUTION
}
