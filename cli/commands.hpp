/// @file commands.hpp
/// @brief The spmv-kit subcommands. Each returns the process exit code and throws kit::Error on bad input.
/// The labs' own subcommands (LabTool) come from the registry.
#pragma once

#include <string>
#include <vector>

#include "check/checked_run.hpp"
#include "formats/coo.hpp"

namespace kit::cli {

int cmd_info(const std::vector<std::string>& args);   ///< `spmv-kit info FILE`
int cmd_run(const std::vector<std::string>& args);    ///< `spmv-kit run FILE --format F ...`
int cmd_table(const std::vector<std::string>& args);  ///< `spmv-kit table FILE...`
int cmd_gen(const std::vector<std::string>& args);    ///< `spmv-kit gen KIND ...`
int cmd_list(const std::vector<std::string>& args);   ///< `spmv-kit list`

/// @brief The default vectors: x = y = [1, 2, ..., n] for matrices of at most 16 rows (the
/// 4x4 exercise), x = y = 1 otherwise (the rdb450 exercise).
/// @param A [in] matrix  @param kind [in] "auto", "ones", "ramp" or "random"
/// @param x [out] input vector  @param y [out] initial y
void make_vectors(const CooMatrix& A, const std::string& kind, std::vector<double>& x, std::vector<double>& y);

/// @brief The problem a subcommand runs: the matrix, the vectors of make_vectors, and the
/// oracle's answer, computed once for every variant run on it.
/// @param A [in] matrix (moved in)  @param kind [in] vectors, as for make_vectors
Reference make_reference(CooMatrix A, const std::string& kind);

}  // namespace kit::cli
