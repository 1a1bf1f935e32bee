/// @file types.hpp
/// @brief Index types, precisions and backends shared by every lab.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace kit {

/// Index type of rows and columns inside kernels. 32 bits halve the index traffic;
/// conversions refuse matrices whose sizes do not fit (see check_index_range).
using index_t = std::int32_t;
/// Counts that can pass 2^31 (nonzeros read from a file, padded sizes, bytes).
using count_t = std::int64_t;

/// @brief Floating-point precision of a run.
enum class Precision { f32, f64 };

/// @brief Where a kernel executes.
enum class Backend { cpu, cuda, opencl };

/// @brief "float" or "double".
std::string to_string(Precision p);
/// @brief "cpu", "cuda" or "opencl".
std::string to_string(Backend b);
/// @brief Parses "float"/"double" (also "f32"/"f64"); throws kit::Error otherwise.
/// @param s [in] text given by the user
Precision parse_precision(const std::string& s);
/// @brief Parses "cpu"/"cuda"/"opencl"; throws kit::Error otherwise.
/// @param s [in] text given by the user
Backend parse_backend(const std::string& s);

/// @brief Whether p starts on a `bytes`-byte boundary: the one alignment test before a wide
/// (vector) load or a texture binding. @param p [in] address  @param bytes [in] boundary, > 0
inline bool is_aligned(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

/// @brief Machine epsilon of a precision: the one place the kit derives it (tolerances, checks).
/// @param p [in] precision
constexpr double eps_of(Precision p) {
    return p == Precision::f32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

/// @brief Bytes of one value in a precision (4 or 8): the one place the kit maps the two.
/// @param p [in] precision
constexpr count_t value_bytes_of(Precision p) { return p == Precision::f32 ? 4 : 8; }

/// @brief Threads in a warp of an NVIDIA GPU: the one place the kit states it (kernels,
/// tile widths, launch shapes).
constexpr int kWarpSize = 32;

/// @brief The mask of a warp-wide shuffle or ballot: every one of the kWarpSize lanes takes part.
constexpr unsigned kFullWarpMask = 0xffffffffu;

/// @brief Maps a C++ value type to its Precision.
template <class T>
constexpr Precision precision_of();
/// @brief float is Precision::f32.
template <>
constexpr Precision precision_of<float>() {
    return Precision::f32;
}
/// @brief double is Precision::f64.
template <>
constexpr Precision precision_of<double>() {
    return Precision::f64;
}

/// @brief A fill ratio (stored slots / nonzeros) as notes print it: up to 6 significant digits.
/// @param fill [in] the ratio
std::string format_fill(double fill);

/// @brief Throws kit::Error if `value` does not fit in index_t.
/// @param what  [in] name of the quantity, used in the message
/// @param value [in] the quantity
void check_index_range(const std::string& what, count_t value);

}  // namespace kit
