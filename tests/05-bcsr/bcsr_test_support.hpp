// Lab 05 test helpers: run a BCSR variant with a given block shape and compare with the oracle.
// (matches_oracle in test_support.hpp runs with default options, which for BCSR means the
// autotuner; kernel tests must not depend on the tuner step, so they name the shape.)
#pragma once

#include <string>

#include "bcsr_tunables.hpp"
#include "bcsr_tuner.hpp"
#include "observe.hpp"
#include "test_support.hpp"

// The tuner's answers, as the student's program recorded them (every data member, in order).
KIT_OBSERVABLE(kit::bcsr::BlockEstimate, r, c, fill, stored, profile_nnz, dense_gflops, structure, estimate)
KIT_OBSERVABLE(kit::bcsr::TunerChoice, best, shapes, sigma)
KIT_OBSERVABLE(kit::bcsr::JointChoice, variants, choices, best)

namespace kit::testing {

/// Runs `name` on `backend` with r x c blocks in precision p; exact or bound-derived comparison.
inline ::testing::AssertionResult bcsr_matches_oracle(const std::string& name, Backend backend, Precision p, int r,
                                                      int c, const Problem& problem, bool exact = false) {
    RunOptions opt;
    bcsr::set_block(opt, r, c);
    auto result = matches_oracle(name, backend, p, problem, exact, opt);
    if (result) return result;
    return ::testing::AssertionFailure() << "block " << r << "x" << c << ": " << result.message();
}

/// Every r x c in 1..4 x 1..4 in precision p on every named problem; stops at the first failure.
inline ::testing::AssertionResult bcsr_passes_all_shapes(const std::string& name, Backend backend, Precision p,
                                                         const ProblemList& problems, bool exact = false) {
    for (const auto& [label, problem] : problems)
        for (int r = 1; r <= 4; ++r)
            for (int c = 1; c <= 4; ++c) {
                auto ok = bcsr_matches_oracle(name, backend, p, r, c, problem, exact);
                if (!ok) return ::testing::AssertionFailure() << "matrix '" << label << "': " << ok.message();
            }
    return ::testing::AssertionSuccess();
}

/// Every r x c in 1..4 x 1..4, float and double, on every named problem; stops at the first failure.
inline ::testing::AssertionResult bcsr_passes_all_shapes(const std::string& name, Backend backend,
                                                         const ProblemList& problems, bool exact = false) {
    for (const auto& [label, problem] : problems)
        for (int r = 1; r <= 4; ++r)
            for (int c = 1; c <= 4; ++c)
                for (Precision p : {Precision::f32, Precision::f64}) {
                    auto ok = bcsr_matches_oracle(name, backend, p, r, c, problem, exact);
                    if (!ok) return ::testing::AssertionFailure() << "matrix '" << label << "': " << ok.message();
                }
    return ::testing::AssertionSuccess();
}

/// The start of a failure message that names the lab and step: `step_note(5) << "why"`.
inline std::string step_note(int step) { return "05-bcsr step " + std::to_string(step) + ": "; }

}  // namespace kit::testing
