/// @file
/// Lab 02, step 2: the CSR scalar kernel in OpenCL C. See handouts/02-csr.md.
/// REAL (float or double) comes from the host as a -D build option.
#ifdef KIT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/// Each work-item computes y[row] += A[row,:] * x for one row.
__kernel void csr_scalar(const int rows, __global const int* row_ptr, __global const int* col_idx,
                         __global const REAL* vals, __global const REAL* x, __global REAL* y) {
    // TODO(02-csr step 2): row = get_global_id(0); guard row < rows; sum the row's products into y[row]
    // KIT-TODO(02-csr step 2): the host refuses to run this file while this line is here; delete it once the kernel is written
}
