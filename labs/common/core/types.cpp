#include "core/types.hpp"

#include <limits>
#include <sstream>

#include "core/kit_error.hpp"

namespace kit {

std::string to_string(Precision p) { return p == Precision::f32 ? "float" : "double"; }

std::string to_string(Backend b) {
    switch (b) {
        case Backend::cpu:
            return "cpu";
        case Backend::cuda:
            return "cuda";
        case Backend::opencl:
            return "opencl";
    }
    return "?";
}

Precision parse_precision(const std::string& s) {
    if (s == "float" || s == "f32" || s == "single") return Precision::f32;
    if (s == "double" || s == "f64") return Precision::f64;
    throw Error("unknown precision '" + s + "': use float or double");
}

Backend parse_backend(const std::string& s) {
    if (s == "cpu") return Backend::cpu;
    if (s == "cuda") return Backend::cuda;
    if (s == "opencl" || s == "ocl") return Backend::opencl;
    throw Error("unknown backend '" + s + "': use cpu, cuda or opencl");
}

void check_index_range(const std::string& what, count_t value) {
    constexpr count_t limit = std::numeric_limits<index_t>::max();
    if (value < 0 || value > limit)
        throw Error(what + " = " + std::to_string(value) + " does not fit the kit's 32-bit index type (limit " +
                    std::to_string(limit) + "); split the matrix or use a smaller one");
}

std::string format_fill(double fill) {
    std::ostringstream s;  // the stream's default: 6 significant digits, no trailing zeros
    s << fill;
    return s.str();
}

}  // namespace kit
