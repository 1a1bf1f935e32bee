#include "core/args.hpp"

#include <cstdlib>

#include "core/kit_error.hpp"

namespace kit {

Args::Args(const std::vector<std::string>& argv, const std::set<std::string>& valued,
           const std::set<std::string>& flags, const std::string& command)
    : command_(command) {
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        const bool option_like = (a.rfind("--", 0) == 0 && a != "--") || valued.count(a) || flags.count(a);
        if (!option_like) {
            positional_.push_back(a);
            continue;
        }
        std::string name = a, value;
        const auto eq = a.find('=');
        if (eq != std::string::npos) {
            name = a.substr(0, eq);
            value = a.substr(eq + 1);
        }
        if (flags.count(name)) {
            values_[name] = "1";
        } else if (valued.count(name)) {
            if (eq == std::string::npos) {
                if (i + 1 >= argv.size())
                    throw Error(command_ + ": option " + name + " needs a value; see 'spmv-kit " + command_ +
                                " --help'");
                value = argv[++i];
            }
            values_[name] = value;
        } else {
            throw Error(command_ + ": unknown option '" + name + "'; see 'spmv-kit " + command_ + " --help'");
        }
    }
}

bool Args::has(const std::string& name) const { return values_.count(name) > 0; }

std::string Args::get(const std::string& name, const std::string& fallback) const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

long long Args::get_int(const std::string& name, long long fallback, long long lo, long long hi) const {
    if (!has(name)) return fallback;
    const std::string s = get(name);
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || v < lo || v > hi)
        throw Error(command_ + ": " + name + " must be an integer in [" + std::to_string(lo) + ", " +
                    std::to_string(hi) + "], got '" + s + "'");
    return v;
}

double Args::get_double(const std::string& name, double fallback) const {
    if (!has(name)) return fallback;
    const std::string s = get(name);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0') throw Error(command_ + ": " + name + " must be a number, got '" + s + "'");
    return v;
}

}  // namespace kit
