/// @file shell.hpp
/// @brief What the command-line tests share: running a shell command as a user would, and
/// knowing whether the test binary runs under AddressSanitizer (which cannot run under a
/// memory limit).
#pragma once

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace kit::testing {

/// @brief Exit status, stdout and stderr together, and wall time of one shell command.
struct ShellOutcome {
    int status;          ///< exit status (128 + signal when killed)
    std::string output;  ///< stdout and stderr, interleaved
    double seconds;      ///< wall time
};

/// @brief Runs `cmd` through /bin/sh and collects its output. @param cmd [in] command line
inline ShellOutcome run_shell(const std::string& cmd) {
    const auto start = std::chrono::steady_clock::now();
    FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
    if (!pipe) return {-1, "popen failed", 0};
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
    const int raw = pclose(pipe);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw), out, s};
}

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;  ///< built with -fsanitize=address (GCC)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;  ///< built with -fsanitize=address (clang)
#else
inline constexpr bool kAddressSanitizer = false;  ///< not built with AddressSanitizer
#endif
#else
inline constexpr bool kAddressSanitizer = false;  ///< not built with AddressSanitizer
#endif

}  // namespace kit::testing
