#include "io/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "core/kit_error.hpp"

namespace kit {
namespace {

count_t g_limit = 0;  // set_memory_limit(): the user's cap, 0 if none

/// The machine's memory, the cgroup v2 limit and the address-space and data ulimits.
double detected_bytes() {
    double bytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
    if (!(bytes > 0)) bytes = 1e18;
    for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
        rlimit lim{};
        if (getrlimit(resource, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
            bytes = std::min(bytes, static_cast<double>(lim.rlim_cur));
    }
    // cgroup v2 limit: a Slurm job or a container sees the machine's memory but may use less
    std::ifstream cg("/sys/fs/cgroup/memory.max");
    std::string text;
    if (cg >> text && text != "max") {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end && *end == '\0' && v > 0) bytes = std::min(bytes, v);
    }
    return bytes;
}

}  // namespace

count_t memory_budget() {
    double bytes = detected_bytes();
    if (g_limit > 0) bytes = std::min(bytes, static_cast<double>(g_limit));
    return static_cast<count_t>(std::min(bytes, 9.0e18));
}

void set_memory_limit(count_t bytes) { g_limit = std::max<count_t>(0, bytes); }

count_t memory_limit() { return g_limit; }

count_t parse_memory_size(const std::string& text) {
    const char* s = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    std::string unit(end ? end : "");
    for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    double scale = 0;
    if (unit.empty() || unit == "b")
        scale = 1;
    else if (unit == "k" || unit == "kb" || unit == "kib")
        scale = 1024.0;
    else if (unit == "m" || unit == "mb" || unit == "mib")
        scale = 1024.0 * 1024;
    else if (unit == "g" || unit == "gb" || unit == "gib")
        scale = 1024.0 * 1024 * 1024;
    else if (unit == "t" || unit == "tb" || unit == "tib")
        scale = 1024.0 * 1024 * 1024 * 1024;
    const double bytes = v * scale;
    if (end == s || scale == 0 || !std::isfinite(bytes) || bytes < 1 || bytes > 9.0e18)
        throw Error("--max-memory '" + text + "': give a size such as 512M, 4G or 1.5T (K, M, G, T: powers of 1024)");
    return static_cast<count_t>(bytes);
}

std::string format_bytes(double bytes) {
    char buf[48];
    const double gib = bytes / (1024.0 * 1024.0 * 1024.0);
    if (gib >= 0.1)
        std::snprintf(buf, sizeof buf, "%.1f GiB", gib);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024.0));
    return buf;
}

std::string budget_source() {
    if (g_limit > 0 && static_cast<double>(g_limit) <= detected_bytes()) return "(--max-memory)";
    return "(machine memory, cgroup and ulimit)";
}

}  // namespace kit
