/// @file memory_budget.hpp
/// @brief The memory this process may use, and the check every allocation sized by what a
/// file declares goes through before it is made (principle 7: refuse with the figures).
#pragma once

#include <string>

#include "core/types.hpp"

namespace kit {

/// @brief Bytes this process may allocate: the smallest of the machine's memory, the cgroup
///        limit (containers, Slurm jobs), `ulimit -v` / `ulimit -d`, and the limit the user set
///        with set_memory_limit() (`spmv-kit --max-memory`).
count_t memory_budget();

/// @brief Caps memory_budget() for the rest of the process (`--max-memory SIZE`); 0 removes the cap.
/// @param bytes [in] the cap in bytes, or 0
void set_memory_limit(count_t bytes);

/// @brief The cap set by set_memory_limit(), 0 if none.
count_t memory_limit();

/// @brief Parses a memory size: bytes, or a number with K, M, G or T (powers of 1024; `KiB`,
///        `MB`, `g` are read alike), such as `512M` or `1.5G`. Throws kit::Error otherwise.
/// @param text [in] the size as the user wrote it
count_t parse_memory_size(const std::string& text);

/// @brief `bytes` in GiB with one decimal (`0.4 GiB`), or in MiB below 0.1 GiB (`12.3 MiB`).
/// @param bytes [in] a byte count
std::string format_bytes(double bytes);

/// @brief What the budget is made of, for messages: "(machine memory, cgroup and ulimit)" or
///        "(--max-memory)".
std::string budget_source();

}  // namespace kit
