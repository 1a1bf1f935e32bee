#include "test_support.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <sstream>

#include "check/checked_run.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"
#include "observe.hpp"
#include "check/oracle.hpp"

#ifndef KIT_MATRICES_DIR
#error "KIT_MATRICES_DIR must be defined by the build (the matrices/ folder)"
#endif

namespace kit::testing {

Problem example4x4_problem() { return {example4x4(), {1, 2, 3, 4}, {1, 2, 3, 4}}; }

Problem rdb450_problem() {
    static const CooMatrix A = read_matrix_market(std::string(KIT_MATRICES_DIR) + "/rdb450.mtx");
    return {A, std::vector<double>(A.cols, 1.0), std::vector<double>(A.rows, 1.0)};
}

Problem random_vectors(CooMatrix A, unsigned seed) {
    RandomXY xy = random_xy(A.cols, A.rows, seed);
    return {std::move(A), std::move(xy.x), std::move(xy.y)};
}

namespace {

/// The failure of a checked run that did not end ok, naming the lab and step.
::testing::AssertionResult failure_of(const Variant& v, Precision p, const CheckedRun& c) {
    // run_checked names the lab and step for wrong results and errors; the other statuses
    // carry the variant's own message (a TODO names its step), so say where it ran.
    if (is_failure(c.status)) return ::testing::AssertionFailure() << c.message;
    return ::testing::AssertionFailure() << where(v, p) << ": " << to_string(c.status) << ": " << c.message;
}

/// The oracle's median time over three runs on the problem, in ms.
double oracle_ms(const Problem& p) {
    std::vector<double> ms;
    for (int r = 0; r < 3; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<double> y = oracle_spmv(p.A, p.x, p.y);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (y.size() != p.y.size()) ms.back() = 0;  // keeps y alive, so the loop is not optimised away
    }
    std::sort(ms.begin(), ms.end());
    return ms[1];
}

}  // namespace

CheckedRun observed_run_checked(const Variant& v, const Reference& ref, const RunOptions& opt, Comparison cmp) {
    return run_checked(v, ref, opt, cmp,
                       [&] { return observe([&] { return v.run(ref.matrix(), ref.x(), ref.y(), opt); }); });
}

CooMatrix gpu_floor_matrix() { return generate_stencil2d(1024, 1024); }

::testing::AssertionResult gpu_did_the_work(const std::string& name, const CooMatrix& A, const RunOptions& options) {
    const Variant* v = registry().find(name, Backend::cuda);
    if (!v) return ::testing::AssertionFailure() << "no variant " << name << " on cuda is registered in this build";
    Problem p = random_vectors(A, 4242);
    RunOptions opt = options;
    opt.precision = Precision::f32;  // every CUDA variant runs in float (some only in float)
    opt.warmup = 1;
    opt.repeats = 5;
    const Reference ref(p.A, p.x, p.y);

    const CheckedRun c = observed_run_checked(*v, ref, opt);
    const double gpu_ms = c.result.median_ms(), cpu_ms = oracle_ms(p);

    if (c.status != RunStatus::ok) return failure_of(*v, opt.precision, c);
    if (gpu_ms > 0 && gpu_ms * kGpuFloorSpeedup <= cpu_ms) return ::testing::AssertionSuccess();
    // One stream for the whole message: AssertionResult's << formats each value on its own.
    std::ostringstream why;
    why << std::fixed << std::setprecision(3) << where(*v, opt.precision) << ": the GPU did not do the work: " << gpu_ms
        << " ms (median of " << c.result.times_ms.size() << ") on a " << A.rows << " x " << A.cols << " matrix with "
        << A.nnz() << " entries, where the kit's single-threaded CPU loop takes " << cpu_ms
        << " ms; a CUDA step must be at least " << std::setprecision(0) << kGpuFloorSpeedup
        << " times faster than that loop";
    return ::testing::AssertionFailure() << why.str();
}

OracleRun run_against_oracle(const std::string& name, Backend backend, Precision p, const Problem& problem,
                             Comparison cmp, const RunOptions& options) {
    OracleRun run;
    const Variant* v = registry().find(name, backend);
    if (!v) {
        run.checked.message =
            "no variant " + name + " on " + to_string(backend) + " in " + to_string(p) + " is registered in this build";
        run.failure = run.checked.message;
        return run;
    }
    RunOptions opt = options;
    opt.precision = p;
    const Reference ref(problem.A, problem.x, problem.y);
    run.checked = observed_run_checked(*v, ref, opt, cmp);
    if (run.checked.status != RunStatus::ok) run.failure = failure_of(*v, p, run.checked).message();
    return run;
}

::testing::AssertionResult matches_oracle(const OracleRun& run) {
    if (run.checked.status == RunStatus::ok && run.failure.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << run.failure;
}

::testing::AssertionResult matches_oracle(const std::string& name, Backend backend, Precision p, const Problem& problem,
                                          bool exact, const RunOptions& options) {
    return matches_oracle(
        run_against_oracle(name, backend, p, problem, exact ? Comparison::exact : Comparison::bound, options));
}

std::vector<std::pair<std::string, Problem>> hostile_gallery() {
    std::vector<std::pair<std::string, CooMatrix>> m;
    m.emplace_back("empty 0x0", CooMatrix{});
    CooMatrix no_entries;
    no_entries.rows = no_entries.cols = 5;
    m.emplace_back("5x5 with no entries", no_entries);
    CooMatrix gaps = generate_random(200, 200, 6, 7);
    {  // empty every third row, including the first and last
        CooMatrix g;
        g.rows = gaps.rows;
        g.cols = gaps.cols;
        for (std::size_t k = 0; k < gaps.vals.size(); ++k)
            if (gaps.row_idx[k] % 3 != 0 && gaps.row_idx[k] != gaps.rows - 1)
                g.add(gaps.row_idx[k], gaps.col_idx[k], gaps.vals[k]);
        m.emplace_back("empty rows between full ones", g);
    }
    m.emplace_back("one dense row in 300", generate_dense_rows(300, 3, 1, 11));
    m.emplace_back("wide 37x91", generate_random(37, 91, 9, 13));
    m.emplace_back("tall 91x37", generate_random(91, 37, 5, 17));
    CooMatrix tiny;
    tiny.rows = tiny.cols = 3;
    tiny.add(0, 2, 0.5);
    tiny.add(2, 0, -1.5);
    tiny.add(2, 2, 2.25);
    m.emplace_back("3 entries", tiny);
    m.emplace_back("33x33 (one past a warp)", generate_random(33, 33, 4, 19));
    m.emplace_back("1025x1025 long random rows", generate_random(1025, 1025, 40, 23));
    m.emplace_back("single row 1x500", generate_random(1, 500, 300, 29));
    m.emplace_back("single column 500x1", generate_random(500, 1, 1, 31));
    m.emplace_back("power law 2000", generate_power_law(2000, 1500, 1.0, 37));
    std::vector<std::pair<std::string, Problem>> out;
    unsigned seed = 100;
    for (auto& [name, A] : m) {
        A.normalize();
        out.emplace_back(name, random_vectors(std::move(A), seed++));
    }
    return out;
}

::testing::AssertionResult passes_gallery(const std::string& name, Backend backend) {
    return passes_problems(name, backend, hostile_gallery());
}

ProblemList accepted_by(const ProblemList& problems, const std::function<void(const CooMatrix&)>& convert,
                        std::vector<std::string>& refused) {
    ProblemList out;
    for (const auto& [label, problem] : problems) {
        try {
            convert(problem.A);
        } catch (const ConversionRefused& e) {
            refused.push_back(label + ": " + e.what());
            continue;
        }
        out.emplace_back(label, problem);
    }
    return out;
}

::testing::AssertionResult passes_problems(const std::string& name, Backend backend, const ProblemList& problems,
                                           const RunOptions& options) {
    for (const auto& [label, problem] : problems)
        for (Precision p : {Precision::f32, Precision::f64}) {
            auto r = matches_oracle(name, backend, p, problem, false, options);
            if (!r) return ::testing::AssertionFailure() << "gallery matrix '" << label << "': " << r.message();
        }
    return ::testing::AssertionSuccess();
}

}  // namespace kit::testing
