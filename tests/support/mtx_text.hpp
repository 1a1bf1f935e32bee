/// @file mtx_text.hpp
/// @brief Matrix Market text parsed in memory, for the reader's tests: one budget that no test
/// machine's memory decides, and the message of a refusal.
#pragma once

#include <string>

#include "io/matrix_market.hpp"

namespace kit::testing {

/// @brief 1 TiB: the budget of a test that is not about the budget, so that no outcome depends
/// on the memory of the machine it runs on.
constexpr count_t kTestBudget = count_t{1} << 40;

/// @brief ReadOptions with the given budget and every other limit at its default.
/// @param budget [in] bytes the read may use
ReadOptions read_budget(count_t budget = kTestBudget);

/// @brief Parses `text` as the file "test.mtx". Throws what the reader throws.
/// @param text [in] file contents  @param info [out] optional header facts  @param opt [in] limits
CooMatrix parse_text(const std::string& text, MatrixMarketInfo* info = nullptr, const ReadOptions& opt = read_budget());

/// @brief The message of the InputError that parsing `text` raises, or "" if it parses.
/// @param text [in] file contents  @param opt [in] limits
std::string read_error_of(const std::string& text, const ReadOptions& opt = read_budget());

}  // namespace kit::testing
