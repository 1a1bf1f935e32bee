#include "io/block_fem.hpp"

#include <random>
#include <string>

#include "core/kit_error.hpp"

namespace kit {
namespace {

/// Adds the dof rows of grid node (ix, iy): a dof x dof block of random values, magnitudes in
/// [0.125, 1) with random signs, for the node and each of its (up to 8) grid neighbours.
template <class Rng>
void add_node_rows(CooMatrix& A, int nx, int ny, int dof, int ix, int iy, Rng& rng) {
    std::uniform_real_distribution<double> magnitude(0.125, 1.0);
    for (int a = 0; a < dof; ++a)
        for (int jy = iy - 1; jy <= iy + 1; ++jy)
            for (int jx = ix - 1; jx <= ix + 1; ++jx) {
                if (jy < 0 || jy >= ny || jx < 0 || jx >= nx) continue;
                for (int b = 0; b < dof; ++b) {
                    const double v = magnitude(rng) * (rng() & 1 ? 1.0 : -1.0);
                    A.add((iy * nx + ix) * dof + a, (jy * nx + jx) * dof + b, v);
                }
            }
}

}  // namespace

CooMatrix generate_block_fem(int nx, int ny, int dof, std::uint64_t seed) {
    if (nx < 1 || ny < 1 || dof < 1 || dof > 8)
        throw Error("generate_block_fem: need nx, ny >= 1 and dof in 1..8, got " + std::to_string(nx) + ", " +
                    std::to_string(ny) + ", " + std::to_string(dof));
    check_index_range("block FEM rows", static_cast<count_t>(nx) * ny * dof);
    std::mt19937_64 rng(seed);
    CooMatrix A;
    A.rows = A.cols = nx * ny * dof;
    for (int iy = 0; iy < ny; ++iy)
        for (int ix = 0; ix < nx; ++ix) add_node_rows(A, nx, ny, dof, ix, iy, rng);
    A.normalize();
    return A;
}

}  // namespace kit
