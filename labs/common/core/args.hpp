/// @file args.hpp
/// @brief The small option parser behind every spmv-kit subcommand and every lab tool it runs.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kit {

/// @brief Parsed `--name value` options, `--flag`s and positional arguments.
///
/// Every subcommand declares the options it takes; anything else is an error that
/// names the option and points at `--help`.
class Args {
public:
    /// @brief Parses argv against the declared options.
    /// @param argv     [in] arguments after the subcommand
    /// @param valued   [in] options that take a value, e.g. {"--format"}
    /// @param flags    [in] options without a value, e.g. {"--help"}
    /// @param command  [in] subcommand name, for messages
    Args(const std::vector<std::string>& argv, const std::set<std::string>& valued, const std::set<std::string>& flags,
         const std::string& command);
    /// @brief True if the flag or option was given. @param name [in] option
    bool has(const std::string& name) const;
    /// @brief The option's value, or `fallback`. @param name [in] option  @param fallback [in] default
    std::string get(const std::string& name, const std::string& fallback = "") const;
    /// @brief The option as an integer within [lo, hi]; throws kit::Error otherwise.
    /// @param name [in] option  @param fallback [in] default  @param lo [in] minimum  @param hi [in] maximum
    long long get_int(const std::string& name, long long fallback, long long lo, long long hi) const;
    /// @brief The option as a number; throws kit::Error otherwise. @param name [in] option  @param fallback [in] default
    double get_double(const std::string& name, double fallback) const;
    /// @brief Positional arguments in order.
    const std::vector<std::string>& positional() const { return positional_; }

private:
    std::string command_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

}  // namespace kit
