/// @file block_fem.hpp
/// @brief A finite-element-like matrix with dense dof x dof blocks: the structure BCSR is for.
#pragma once

#include <cstdint>

#include "formats/coo.hpp"

namespace kit {

/// @brief Bilinear (Q1) finite elements on an nx x ny grid of nodes with `dof` unknowns per node.
///
/// Node k = iy*nx + ix couples with itself and its 8 grid neighbours (the nodes it shares an
/// element with), and each coupling is a dense dof x dof block: unknown k*dof + d couples with
/// every unknown of each coupled node. So with r = c = dof the BCSR fill is exactly 1.0, and
/// other shapes pay fill. Values are deterministic pseudo-random, never zero, in [-1, 1].
/// Size: nx*ny*dof rows; about 9*dof^2 entries per node.
/// @param nx [in] nodes in x  @param ny [in] nodes in y  @param dof [in] unknowns per node (1..8)
/// @param seed [in] random seed for the values
CooMatrix generate_block_fem(int nx, int ny, int dof, std::uint64_t seed);

}  // namespace kit
