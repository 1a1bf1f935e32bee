/// @file bcsr_tunables.hpp
/// @brief Lab 05's tunables, declared once: the block shape r x c that every BCSR variant reads
/// from RunOptions, its range, and the `--block RxC|auto` spelling the CLI offers for it.
#pragma once

#include <vector>

#include "registry/variants.hpp"

namespace kit::bcsr {

/// @brief Key of the rows per block in RunOptions::tunables.
inline const std::string kBlockRows = "block_r";
/// @brief Key of the columns per block in RunOptions::tunables.
inline const std::string kBlockCols = "block_c";
/// @brief Largest r and c: the kernels are instantiated for 1..4 (formats/bcsr.hpp).
constexpr int kMaxBlock = 4;

/// @brief The declarations of block_r and block_c, for Variant::tunables.
std::vector<Tunable> block_tunables();

/// @brief Sets the block shape in `opt`. @param opt [in,out] run options
/// @param r [in] rows per block  @param c [in] columns per block
void set_block(RunOptions& opt, int r, int c);

/// @brief The `--block RxC|auto` option of `spmv-kit run` (auto: the tuner picks).
TunableOption block_option();

}  // namespace kit::bcsr
