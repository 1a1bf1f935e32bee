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
    // TODO(07-dia-opencl step 4): vload4 when col .. col + 3 are in [0, cols), else element by element
    // KIT-TODO(07-dia-opencl step 4): the host refuses to run this file while this line is here; delete it once the kernel is written
    return (REAL4)(0);
}

/// y[row..row+3] += v for the rows that exist: the last group may hold 1 to 3 rows when
/// rows is not a multiple of 4, and y has no padding to absorb a full vstore4.
void add_quad(__global REAL* y, const int row, const int rows, const REAL4 v) {
    // TODO(07-dia-opencl step 4): vload4 + vstore4 for a full group; a partial one row by row
}

/// Each work-item computes rows 4g..4g+3 (g = get_global_id(0)) as one REAL4: per
/// diagonal one aligned 16-byte load of the matrix, one quad of x. The aligned layout makes
/// this legal: pitch % 4 == 0 and row % 4 == 0, so A + d * pitch + row is a multiple of
/// 4 elements and can be read through a REAL4 pointer; padding slots past the last row
/// hold 0. Offsets come from local memory in chunks, as in step 3.
__kernel void dia_vec4(const int rows, const int cols, const int diags, const int pitch,
                       __global const int* offsets, __global const REAL* A, __global const REAL* x,
                       __global REAL* y) {
    // TODO(07-dia-opencl step 4): 4 rows a work-item; step 3's chunks; REAL4 values * x_quad; add_quad
}
