// Bandwidth kernels of the OpenCL backend: the read and copy streams of the ceiling, and the
// read pass that evicts the caches before a cold repeat (see bandwidth_ceiling.hpp).

// Each work-item reads 16-byte words n apart and folds them with xor; the result is stored
// only if it equals a value the buffers never produce, so the loads stay and the kernel
// leaves clean lines behind (no write-back when they are evicted).
__kernel void read_stream(__global const uint4* in, ulong n, __global uint* sink) {
    uint4 acc = (uint4)(0, 0, 0, 0);
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) acc ^= in[i];
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u) *sink = acc.x;
}

// Each work-item copies 16-byte words n apart.
__kernel void copy_stream(__global const uint4* in, __global uint4* out, ulong n) {
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = in[i];
}
