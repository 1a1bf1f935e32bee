// Lab 07 test problems shared by the public and the hidden tests.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "observe.hpp"
#include "test_support.hpp"

namespace kit::testing {

/// The case study's matrix at a small size: an nx x ny grid coupled within `radius`, with
/// random values (so a kernel that reads the wrong slot cannot pass) and random x, y.
inline Problem radius_grid_problem(int nx, int ny, int radius, unsigned seed) {
    CooMatrix A = generate_radius_grid(nx, ny, radius);
    randomize_values(A, seed);
    A.normalize();
    return random_vectors(std::move(A), seed + 1);
}

/// Why a variant cannot run in float on this device (no image support, x beyond the image
/// or texture limits), or nothing if it can. Such a run is skipped, like a missing GPU.
inline std::optional<std::string> unavailable_in_float(const std::string& name, Backend backend, const Problem& p) {
    const Variant* v = registry().find(name, backend);
    if (!v) return std::nullopt;  // matches_oracle reports the missing variant
    RunOptions opt;
    opt.precision = Precision::f32;
    try {
        observe([&] { return v->run(p.A, p.x, p.y, opt); });
    } catch (const BackendUnavailable& e) {
        return std::string(e.what());
    } catch (const std::exception&) {
        // any other error is the test's to report
    }
    return std::nullopt;
}

/// A float-only variant asked for double must refuse with kit::BackendUnavailable (a clear
/// reason, never a wrong answer or a crash); this runs it in double, observed, and says whether it did.
inline ::testing::AssertionResult refuses_double(const std::string& name, Backend backend, const Problem& p) {
    const Variant* v = registry().find(name, backend);
    if (!v)
        return ::testing::AssertionFailure()
               << "no variant " << name << " on " << to_string(backend) << " is registered";
    RunOptions opt;
    opt.precision = Precision::f64;
    try {
        observe([&] { return v->run(p.A, p.x, p.y, opt); });
    } catch (const BackendUnavailable&) {
        return ::testing::AssertionSuccess();
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure()
               << name << " in double: expected a BackendUnavailable refusal, got: " << e.what();
    }
    return ::testing::AssertionFailure()
           << name << " in double: expected a BackendUnavailable refusal (float only), but it ran";
}

/// Runs a float-only variant: float must match the oracle, and double must be refused (refuses_double).
inline ::testing::AssertionResult float_only_matches(const std::string& name, Backend backend, const Problem& p,
                                                     bool exact) {
    auto f32 = matches_oracle(name, backend, Precision::f32, p, exact);
    if (!f32) return f32;
    return refuses_double(name, backend, p);
}

}  // namespace kit::testing
