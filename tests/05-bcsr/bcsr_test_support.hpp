// Lab 05 test helpers: run a BCSR variant with a given block shape and compare with the oracle.
// (matches_oracle in test_support.hpp runs with default options, which for BCSR means the
// autotuner; kernel tests must not depend on the tuner step, so they name the shape.)
#pragma once

#include <limits>
#include <string>

#include "oracle.hpp"
#include "test_support.hpp"

namespace kit::testing {

/// Runs `name` on `backend` with r x c blocks in precision p; exact or bound-derived comparison.
inline ::testing::AssertionResult bcsr_matches_oracle(const std::string& name, Backend backend, Precision p, int r,
                                                      int c, const Problem& problem, bool exact = false) {
    const Variant* v = registry().find(name, backend);
    const std::string label = name + " " + std::to_string(r) + "x" + std::to_string(c) + " on " + to_string(backend) +
                              " in " + to_string(p);
    if (!v) return ::testing::AssertionFailure() << "no variant " << label << " is registered in this build";
    const std::string where = v->lab + " step " + std::to_string(v->step) + " (" + label + "): ";
    RunOptions opt;
    opt.precision = p;
    opt.block_r = r;
    opt.block_c = c;
    RunResult result;
    try {
        result = v->run(problem.A, problem.x, problem.y, opt);
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << where << e.what();
    }
    const auto expected = oracle_spmv(problem.A, problem.x, problem.y);
    const double eps = p == Precision::f32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
    const auto tol = exact ? std::vector<double>{} : spmv_tolerance(problem.A, problem.x, problem.y, eps);
    if (result.y.size() != expected.size())
        return ::testing::AssertionFailure() << where << "y has " << result.y.size() << " entries, expected "
                                             << expected.size();
    const Mismatch m = compare_with_oracle(expected, result.y, tol);
    if (m.row >= 0) return ::testing::AssertionFailure() << where << describe(m);
    return ::testing::AssertionSuccess();
}

/// Every r x c in 1..4 x 1..4, float and double, on every named problem; stops at the first failure.
inline ::testing::AssertionResult bcsr_passes_all_shapes(const std::string& name, Backend backend,
                                                         const std::vector<std::pair<std::string, Problem>>& problems,
                                                         bool exact = false) {
    for (const auto& [label, problem] : problems)
        for (int r = 1; r <= 4; ++r)
            for (int c = 1; c <= 4; ++c)
                for (Precision p : {Precision::f32, Precision::f64}) {
                    auto ok = bcsr_matches_oracle(name, backend, p, r, c, problem, exact);
                    if (!ok) return ::testing::AssertionFailure() << "matrix '" << label << "': " << ok.message();
                }
    return ::testing::AssertionSuccess();
}

}  // namespace kit::testing
