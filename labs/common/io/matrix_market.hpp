/// @file matrix_market.hpp
/// @brief Matrix Market (.mtx) reader and writer.
///
/// Accepted: `matrix` objects in `coordinate` or `array` storage, with `real`,
/// `integer` or `pattern` values (pattern entries read as 1.0), and `general`,
/// `symmetric` or `skew-symmetric` symmetry. Symmetric and skew-symmetric files
/// are expanded on read, so the result always holds the whole matrix.
/// `complex` and `hermitian` files are refused: the kit's kernels are real.
/// Array storage keeps only the nonzero values; coordinate storage keeps explicit zeros.
///
/// Input may be plain text, gzip or bzip2: the compression is recognised by the first
/// bytes, never by the file name (a `.mtx.gz` renamed `.mtx` still reads). gzip needs
/// the kit to be built with zlib, bzip2 with libbz2; without them the message says so.
///
/// @par The rules the kit applies (the one place they are written down)
/// - **Duplicates.** Entries listed more than once are summed, in file order (the
///   finite-element assembly convention); MatrixMarketInfo::duplicates_summed counts
///   them. The declared entry count may therefore exceed rows x cols: what must fit is
///   the matrix after summing, which the index range checks guarantee.
/// - **Symmetric and skew-symmetric files** store one triangle. The spec says the lower
///   one; an entry above the diagonal is read as its mirror, with a warning, since
///   some writers store the upper triangle. A file that lists entries on *both* sides
///   mirrors every one of them, so a pair listed twice, (i,j) and (j,i), is summed twice:
///   the warning says so and suggests declaring the file `general`.
/// - **Skew-symmetric** files have no diagonal: a diagonal entry is an error.
///   `pattern skew-symmetric` is refused (a pattern has no sign to flip), as NIST's
///   `mm_is_valid` does.
/// - **Values** must be finite; `+` signs and subnormal values are accepted.
/// - **Lines** are at most ReadOptions::max_line bytes (the spec allows 1024 characters);
///   comment lines start with `%`, possibly after blanks; blank lines are skipped.
/// - **Memory.** Reading needs memory in proportion to the entries the file holds, never
///   to the declared sizes. What the caller will allocate per declared row and column
///   (ReadOptions::row_bytes, col_bytes: x and y in double unless it says otherwise) is
///   checked against the memory this process may use (memory_budget(), `--max-memory`) on
///   the size line, so a 79-byte file declaring 30,000,000 x 30,000,000 is refused there with
///   the figures, before anything is allocated; so is a file whose entries outgrow the
///   budget while reading.
/// - **Input kinds.** Regular files and pipes (FIFOs) are read; directories, devices and
///   sockets are refused with what they are.
///
/// Every malformed input raises kit::InputError with `FILE:LINE: reason`. Files that
/// break the spec's conventions but can still be read produce warnings in
/// MatrixMarketInfo::warnings, in the form `FILE:LINE: warning: reason`.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "formats/coo.hpp"
#include "io/memory_budget.hpp"

namespace kit {

/// @brief What the banner and size line of a Matrix Market file said, and what reading it found.
struct MatrixMarketInfo {
    std::string storage;                ///< "coordinate" or "array"
    std::string field;                  ///< "real", "integer" or "pattern"
    std::string symmetry;               ///< "general", "symmetric" or "skew-symmetric"
    std::string compression;            ///< "none", "gzip" or "bzip2" (recognised from the content)
    count_t entries_in_file = 0;        ///< entries listed in the file (before expansion)
    count_t duplicates_summed = 0;      ///< entries merged into an earlier one
    std::vector<std::string> warnings;  ///< `FILE:LINE: warning: ...` for readable files that break a convention
};

/// @brief Limits of one read; the defaults suit every use of the kit.
struct ReadOptions {
    /// Bytes this process may use (0: memory_budget(), detected). Tests set it so that
    /// their outcome does not depend on the machine they run on.
    count_t memory_budget = 0;
    /// Bytes the caller will allocate for each declared row and each declared column once the
    /// matrix is read (its vectors, its oracle's figures), and what for (`row_use`, in the
    /// message). A size line whose rows and columns need more than the budget is refused at
    /// once. `spmv-kit info` sets both to 0: it allocates no vectors.
    double row_bytes = 8;
    double col_bytes = 8;                         ///< see row_bytes
    std::string row_use = "its vectors x and y";  ///< see row_bytes
    /// Longest accepted line in bytes. The spec allows 1024 characters; the cap is far
    /// above that so that long comments pass, and stops a binary file or /dev/zero from
    /// being buffered whole.
    std::size_t max_line = std::size_t{1} << 20;
};

/// @brief Bytes per stored entry that reading and normalizing may need at their peak: 16 for
///        the entry, 16 for the sort's buffer, and room for the growth of vectors whose final
///        size is not known in advance (compressed input, generators). Readers and generators
///        refuse matrices beyond memory_budget() / kBytesPerEntryPeak entries.
constexpr count_t kBytesPerEntryPeak = 48;

/// @brief Reads a Matrix Market file (plain, gzip or bzip2) into a normalized hub matrix.
/// @param path [in]  file to read: a regular file or a pipe
/// @param info [out] optional; receives the header details and any warnings
/// @param opt  [in]  limits (memory budget, line length)
/// @return the matrix, normalized (row-major, duplicates summed)
CooMatrix read_matrix_market(const std::string& path, MatrixMarketInfo* info = nullptr, const ReadOptions& opt = {});

/// @brief Reads Matrix Market data (plain, gzip or bzip2) from a stream.
/// @param in   [in]  the stream
/// @param name [in]  name used in error messages (normally the file name)
/// @param info [out] optional; receives the header details and any warnings
/// @param opt  [in]  limits (memory budget, line length)
CooMatrix read_matrix_market(std::istream& in, const std::string& name, MatrixMarketInfo* info = nullptr,
                             const ReadOptions& opt = {});

/// @brief Reads Matrix Market data (plain, gzip or bzip2) held in memory (the fuzz target's entry).
/// @param data [in]  first byte
/// @param size [in]  number of bytes
/// @param name [in]  name used in error messages
/// @param info [out] optional; receives the header details and any warnings
/// @param opt  [in]  limits (memory budget, line length)
CooMatrix read_matrix_market_bytes(const char* data, std::size_t size, const std::string& name,
                                   MatrixMarketInfo* info = nullptr, const ReadOptions& opt = {});

/// @brief Writes a hub matrix as `coordinate real general`, 1-based.
///
/// Values are written in the shortest decimal form that reads back to the same
/// double (so 4.096 is written as `4.096`, not `4.0960000000000001`).
/// @param out     [in] the stream
/// @param A       [in] the matrix
/// @param comment [in] optional comment lines (each written after a `%`)
void write_matrix_market(std::ostream& out, const CooMatrix& A, const std::string& comment = "");

/// @brief Writes a hub matrix to a file; throws kit::Error if the file cannot be written.
/// @param path    [in] destination
/// @param A       [in] the matrix
/// @param comment [in] optional comment lines
void write_matrix_market(const std::string& path, const CooMatrix& A, const std::string& comment = "");

/// @brief Shortest decimal text that reads back as exactly `v`.
/// @param v [in] the value
std::string shortest_decimal(double v);

}  // namespace kit
