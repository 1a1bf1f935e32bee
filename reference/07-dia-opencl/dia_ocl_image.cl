/// @file
/// Lab 07, step 5: x read through an image, so the texture cache serves its reuse.
/// See handouts/07-dia-opencl.md. Float only: an image pixel here is a float4 (CL_RGBA,
/// CL_FLOAT). DIA_CHUNK comes from the host as a -D build option.

/// Unnormalised integer coordinates, no filtering, and CLK_ADDRESS_CLAMP: a pixel outside
/// the image reads as the border colour (0,0,0,0), which is what x is outside [0, cols).
__constant sampler_t x_sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

/// Image coordinates of pixel p: a power-of-two width turns p % width and p / width into a
/// mask and a shift. A negative p lands on a negative (or, with a logical shift, huge)
/// image row: outside the image either way, so it reads as zeros.
int2 pixel_xy(const int p, const int log2_width, const int width_mask) {
    return (int2)(p & width_mask, p >> log2_width);
}

/// x[col..col+3] from the image. Pixel p holds x[4p..4p+3], so the quad starting at col
/// lies in pixel floor(col / 4) alone when col % 4 == 0, and otherwise straddles that pixel
/// and the next: 1, 2 or 3 of its values come from the first, the rest from the second.
float4 x_quad_image(__read_only image2d_t x, const int col, const int log2_width, const int width_mask) {
    // BEGIN SOLUTION(step 5: shift = col & 3; read pixel (col - shift) / 4 and the next; swizzle)
    // STARTER: // KIT-TODO(07-dia-opencl step 5): the host refuses to run this file while this line is here; delete it once the kernel is written
    // STARTER: return (float4)(0.0f);
    const int shift = col & 3;        // col mod 4, also for negative col (two's complement)
    const int p = (col - shift) / 4;  // an exact division: floor(col / 4) for any sign
    const float4 lo = read_imagef(x, x_sampler, pixel_xy(p, log2_width, width_mask));
    if (shift == 0) return lo;
    const float4 hi = read_imagef(x, x_sampler, pixel_xy(p + 1, log2_width, width_mask));
    if (shift == 1) return (float4)(lo.yzw, hi.x);
    if (shift == 2) return (float4)(lo.zw, hi.xy);
    return (float4)(lo.w, hi.xyz);
    // END SOLUTION
}

/// y[row..row+3] += v for the rows that exist (as in step 4).
void add_quad(__global float* y, const int row, const int rows, const float4 v) {
    // BEGIN SOLUTION(step 5: as step 4's add_quad)
    if (row + 4 <= rows) {
        vstore4(vload4(0, y + row) + v, 0, y + row);
        return;
    }
    if (row < rows) y[row] += v.s0;
    if (row + 1 < rows) y[row + 1] += v.s1;
    if (row + 2 < rows) y[row + 2] += v.s2;
    // END SOLUTION
}

/// Each work-item computes rows 4g..4g+3 (g = get_global_id(0)), as in step 4, but reads
/// x through the image: the matrix value is the only per-multiply-add load that must come
/// from DRAM. The image also removes the border branches: its clamp supplies the zeros.
__kernel void dia_image(const int rows, const int diags, const int pitch, __global const int* offsets,
                        __global const float* A, __read_only image2d_t x, const int log2_width,
                        const int width_mask, __global float* y) {
    // BEGIN SOLUTION(step 5: step 4's kernel with x_quad_image in place of x_quad)
    __local int chunk_offsets[DIA_CHUNK];
    const int row = get_global_id(0) * 4;
    const bool active = row < rows;  // no early return: the barriers need the whole group
    float4 sum = (float4)(0.0f);
    __global const float4* a = (__global const float4*)(A + row);
    const int pitch4 = pitch / 4;
    for (int base = 0; base < diags; base += DIA_CHUNK) {
        const int n = min(DIA_CHUNK, diags - base);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = get_local_id(0); i < n; i += get_local_size(0)) chunk_offsets[i] = offsets[base + i];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (active)
            for (int k = 0; k < n; ++k, a += pitch4)
                sum += *a * x_quad_image(x, row + chunk_offsets[k], log2_width, width_mask);
    }
    if (active) add_quad(y, row, rows, sum);
    // END SOLUTION
}
