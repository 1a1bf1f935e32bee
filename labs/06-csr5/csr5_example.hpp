/// @file csr5_example.hpp
/// @brief Lab 06's worked example: the 8x8 matrix of CSR5's figure, whose tiles the handout draws.
#pragma once

#include "formats/coo.hpp"

namespace kit {

/// @brief The 8x8 matrix with 34 entries used for CSR5's figure in the TU Delft handout.
///
/// The handout gives only its facts, so this matrix is constructed to match them: with
/// omega = sigma = 4 it has two complete tiles of 16 entries and a tail of 2, and entry 16
/// (the first of tile 1) lies in row 4, so tile_ptr[1] = 4. Row lengths 3 5 2 4 6 2 8 4;
/// values 1..34 in row-major order, so a value tells its position in CSR order.
/// @code
///     | 1  .  .  2  .  .  3  . |    row 0: tile 0, lane 0
///     | 4  5  6  .  7  .  .  8 |    row 1: lanes 0-1 (lane 1 starts no row)
///     | .  .  9  .  . 10  .  . |    row 2: inside lane 2
///     | . 11  . 12 13  . 14  . |    row 3: lanes 2-3
///     |15  . 16 17 18 19  . 20 |    row 4: tile 0 lane 3 and tile 1 lane 0 (tile 1's carry)
///     | . 21  .  .  .  . 22  . |    row 5: inside tile 1 lane 1
///     |23 24 25 26 27 28 29 30 |    row 6: tile 1 lanes 1-3
///     | .  . 31 32  . 33  . 34 |    row 7: tile 1 lane 3 and the tail (33, 34)
/// @endcode
CooMatrix csr5_example8x8();

}  // namespace kit
