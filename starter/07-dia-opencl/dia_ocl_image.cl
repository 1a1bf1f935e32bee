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
    // TODO(07-dia-opencl step 5): shift = col & 3; read pixel (col - shift) / 4 and the next; swizzle
    // KIT-TODO(07-dia-opencl step 5): the host refuses to run this file while this line is here; delete it once the kernel is written
    return (float4)(0.0f);
}

/// y[row..row+3] += v for the rows that exist (as in step 4).
void add_quad(__global float* y, const int row, const int rows, const float4 v) {
    // TODO(07-dia-opencl step 5): as step 4's add_quad
}

/// Each work-item computes rows 4g..4g+3 (g = get_global_id(0)), as in step 4, but reads
/// x through the image: the matrix value is the only per-multiply-add load that must come
/// from DRAM. The image also removes the border branches: its clamp supplies the zeros.
__kernel void dia_image(const int rows, const int diags, const int pitch, __global const int* offsets,
                        __global const float* A, __read_only image2d_t x, const int log2_width,
                        const int width_mask, __global float* y) {
    // TODO(07-dia-opencl step 5): step 4's kernel with x_quad_image in place of x_quad
}
