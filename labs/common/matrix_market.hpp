/// @file matrix_market.hpp
/// @brief Matrix Market (.mtx) reader and writer.
///
/// Accepted: `matrix` objects in `coordinate` or `array` storage, with `real`,
/// `integer` or `pattern` values (pattern entries read as 1.0), and `general`,
/// `symmetric` or `skew-symmetric` symmetry. Symmetric and skew-symmetric files
/// are expanded on read, so the result always holds the whole matrix.
/// `complex` and `hermitian` files are refused: the kit's kernels are real.
///
/// Duplicate coordinate entries are summed (the usual assembly convention), and
/// the number summed is reported in MatrixMarketInfo::duplicates_summed.
/// Array storage keeps only the nonzero values; coordinate storage keeps explicit zeros.
///
/// Every malformed input raises kit::InputError with `FILE:LINE: reason`.
#pragma once

#include <iosfwd>
#include <string>

#include "coo.hpp"

namespace kit {

/// @brief What the banner and size line of a Matrix Market file said.
struct MatrixMarketInfo {
    std::string storage;          ///< "coordinate" or "array"
    std::string field;            ///< "real", "integer" or "pattern"
    std::string symmetry;         ///< "general", "symmetric" or "skew-symmetric"
    count_t entries_in_file = 0;  ///< entries listed in the file (before expansion)
    count_t duplicates_summed = 0;///< entries merged into an earlier one
};

/// @brief Reads a Matrix Market file into a normalized hub matrix.
/// @param path [in]  file to read
/// @param info [out] optional; receives the header details
/// @return the matrix, normalized (row-major, duplicates summed)
CooMatrix read_matrix_market(const std::string& path, MatrixMarketInfo* info = nullptr);

/// @brief Reads Matrix Market text from a stream.
/// @param in   [in]  the stream
/// @param name [in]  name used in error messages (normally the file name)
/// @param info [out] optional; receives the header details
CooMatrix read_matrix_market(std::istream& in, const std::string& name,
                             MatrixMarketInfo* info = nullptr);

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
