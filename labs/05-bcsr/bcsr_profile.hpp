/// @file bcsr_profile.hpp
/// @brief The BCSR performance profile: GFLOP/s of dense matrices stored as BCSR, per kernel,
/// precision, block shape and size. The offline half of the GOSpMV autotuner writes it
/// (`spmv-kit tune-profile`); the run-time half reads it.
///
/// File format: plain text, one record per line, fields separated by blanks.
/// @code
///     # anything after '#' is a comment
///     device NVIDIA H200                           <- where the figures were measured (rest of line)
///     dense  bcsr-warp  double  2 2  230400  61.5  <- variant precision r c nnz GFLOP/s
/// @endcode
/// A `dense` record says: a dense matrix with `nnz` entries (all useful, fill 1), stored
/// as r x c BCSR and multiplied by `variant` in `precision`, ran at `GFLOP/s` (2 nnz flops
/// per SpMV over the median time). This is GOSpMV's P_dense(r x c, nz_d).
///
/// A `panel` record is the kit's extension (see handouts/05-bcsr.md, "What GOSpMV's model
/// assumed"): a sparse matrix with exactly `bpr` dense r x c blocks in every block row (fill 1),
/// the blocks of a block row either side by side along a diagonal band (`band`: x is read in
/// order, as by FEM and stencil matrices) or at random block columns (`scatter`: every block
/// gathers its c values of x from anywhere, as a random matrix does).
/// @code
///     panel  bcsr-warp  double  2 2  2097152  8 scatter  41.3  <- variant precision r c nnz bpr layout GFLOP/s
/// @endcode
///
/// A `chain` record measures the longest block row alone: a matrix whose block row 0 holds
/// `blocks` blocks side by side and every other block row one block. Its time is that of one
/// thread (or one warp) working through the long block row, which no panel of many equal block
/// rows shows (there, the neighbours of a long row are long too, and share its memory traffic).
/// @code
///     chain  bcsr-2kernel  float  1 1  16384  8192  0.21   <- variant precision r c nnz blocks GFLOP/s
/// @endcode
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace kit {

/// @brief What every record of a profile starts with: the kernel, precision and block shape
/// it measured, and the entries of the matrix it ran on.
struct ProfileRecord {
    std::string variant;                   ///< kernel name, e.g. "bcsr-warp"
    Precision precision = Precision::f64;  ///< working precision
    int r = 1;                             ///< rows per block
    int c = 1;                             ///< columns per block
    count_t nnz = 0;                       ///< entries of the matrix measured
    /// @brief True if the record measured `variant` in precision p at r x c.
    /// @param v [in] kernel name  @param p [in] precision  @param rows [in] rows per block
    /// @param cols [in] columns per block
    bool matches(const std::string& v, Precision p, int rows, int cols) const {
        return variant == v && precision == p && r == rows && c == cols;
    }
};

/// @brief One measured point P_dense(r x c, nnz) of one kernel: a dense matrix of nnz entries.
struct ProfileEntry : ProfileRecord {
    double gflops = 0;  ///< its speed, 2 nnz / median time
};

/// @brief Where the blocks of a profiled panel sit in their block row.
enum class PanelLayout {
    band,    ///< side by side, the band moving with the block row: x read in order and reused
    scatter  ///< at random distinct block columns: each block gathers x from anywhere
};

/// @brief "band" or "scatter". @param l [in] layout
std::string to_string(PanelLayout l);

/// @brief One measured point of a structured panel: fill 1 (nnz = stored values), `bpr`
/// blocks in every block row.
struct PanelEntry : ProfileRecord {
    int bpr = 1;                             ///< blocks in every block row
    PanelLayout layout = PanelLayout::band;  ///< where the blocks sit
    double gflops = 0;                       ///< its speed, 2 nnz / median time
};

/// @brief One measured chain: one block row of `blocks` blocks among block rows of one block
/// (nnz counts the entries of the whole matrix).
struct ChainEntry : ProfileRecord {
    count_t blocks = 1;  ///< blocks of its long block row
    double gflops = 0;   ///< its speed, 2 nnz / median time
    /// @brief The median time of the measured SpMV, in seconds: 2 nnz / GFLOP/s.
    double seconds() const { return 2.0 * static_cast<double>(nnz) / (gflops * 1e9); }
};

/// @brief A whole profile: where it was measured and its points.
struct BcsrProfile {
    std::string device;                 ///< the `device` line ("" if absent)
    std::string source;                 ///< file it was read from ("" if built in memory)
    std::vector<ProfileEntry> entries;  ///< every `dense` record, in file order
    std::vector<PanelEntry> panels;     ///< every `panel` record, in file order
    std::vector<ChainEntry> chains;     ///< every `chain` record, in file order

    /// @brief Reads a profile file; throws InputError naming file:line on a bad record.
    /// @param path [in] file name
    static BcsrProfile read(const std::string& path);
    /// @brief Parses profile text; throws InputError naming name:line on a bad record.
    /// @param in [in] the text  @param name [in] name used in messages
    static BcsrProfile parse(std::istream& in, const std::string& name);
    /// @brief Writes the profile in the file format above, with a header comment.
    /// @param out [in,out] stream  @param comment [in] lines put after '# ' at the top (may be empty)
    void write(std::ostream& out, const std::string& comment = "") const;

    /// @brief The record of (variant, precision, r x c) whose size is nearest to nnz, or
    /// nullptr if the profile has none for that shape.
    ///
    /// "Nearest" is measured on a log scale, |log(nnz_d / nnz)|, because profiles sample
    /// sizes geometrically (each size 4x the last): 2x below a point counts as far as 2x
    /// above it. Ties go to the smaller size.
    /// @param variant [in] kernel name  @param p [in] precision  @param r [in] rows per block
    /// @param c [in] columns per block  @param nnz [in] stored values of the sparse matrix (nz_EBCSR)
    const ProfileEntry* nearest(const std::string& variant, Precision p, int r, int c, double nnz) const;
    /// @brief True if the profile has at least one record for this variant and precision.
    /// @param variant [in] kernel name  @param p [in] precision
    bool covers(const std::string& variant, Precision p) const;
    /// @brief The panel records of (variant, precision, r x c, layout), sorted by bpr; empty
    /// if the profile has none (a GOSpMV profile of dense records only).
    /// @param variant [in] kernel name  @param p [in] precision  @param r [in] rows per block
    /// @param c [in] columns per block  @param layout [in] band or scatter
    std::vector<PanelEntry> panels_of(const std::string& variant, Precision p, int r, int c, PanelLayout layout) const;
    /// @brief The chain record of (variant, precision, r x c) with the most blocks, or nullptr.
    /// @param variant [in] kernel name  @param p [in] precision  @param r [in] rows per block
    /// @param c [in] columns per block
    const ChainEntry* chain_of(const std::string& variant, Precision p, int r, int c) const;
};

}  // namespace kit
