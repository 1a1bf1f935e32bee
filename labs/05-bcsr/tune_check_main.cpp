// Lab 05 driver: is the autotuner's pick good? For each benchmark matrix and CUDA BCSR kernel,
// times every r x c (exhaustive search), asks the tuner for its pick, and reports whether the
// pick runs within 5% of the best shape (GOSpMV's check: 7 of its 8 matrices got the optimum),
// the same for the joint pick of kernel and shape, and how far each estimate is from its measurement.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bcsr_tuner.hpp"
#include "io/block_fem.hpp"
#include "check/checked_run.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"

namespace {

const char* kHelp =
    "usage: tune_check [--profile FILE] [--precision float|double|both] [--repeats N] [--quick] [--backend cuda|cpu]\n\n"
    "Lab 05 driver (needs a CUDA GPU, unless --backend cpu). On generated benchmark matrices (block FEM with 2, 3, 4\n"
    "unknowns per node, a large rdb, 2-D and 3-D stencils, a scattered random matrix, a power-law matrix) it\n"
    "times bcsr-2kernel and bcsr-warp with every r x c in 1..4 x 1..4, checks each result against the\n"
    "oracle, and compares each kernel's pick, and the joint pick of kernel and shape, with the fastest.\n"
    "It prints each pick's prediction error, (estimate - measured) / measured, and their median.\n"
    "None of these matrices is one the profile measures (tune-profile times dense matrices, panels and chains).\n\n"
    "  --profile FILE   profile for the tuner (default $KIT_BCSR_PROFILE, else labs/05-bcsr/profile_default.txt)\n"
    "  --precision P    float | double | both (default double)\n"
    "  --repeats N      timed repeats per shape, median reported (default 20); L2 is flushed before each\n"
    "  --quick          matrices about 8x smaller (a smoke test, not a benchmark)\n"
    "  --backend B      cuda (default: bcsr-2kernel and bcsr-warp) or cpu (the bcsr variant, for a dry run)\n"
    "Exit status: 0 if every pick is within 5% of the best and the median |prediction error| of the\n"
    "picks is within 15%, 1 if not, 2 on errors or without a GPU.\n";

struct Bench {
    std::string name;
    std::function<kit::CooMatrix()> make;
};

std::vector<Bench> benchmarks(bool quick) {
    const int s = quick ? 3 : 1;  // linear shrink: about s^2 fewer entries in 2-D
    return {
        {"fem2d dof2", [=] { return kit::generate_block_fem(500 / s, 500 / s, 2, 1); }},
        {"fem2d dof3", [=] { return kit::generate_block_fem(400 / s, 400 / s, 3, 2); }},
        {"fem2d dof4", [=] { return kit::generate_block_fem(300 / s, 300 / s, 4, 3); }},
        {"rdb m=1000", [=] {
             kit::RdbParams p;
             p.m = 1000 / s;
             return kit::generate_rdb(p);
         }},
        {"stencil2d 5pt", [=] { return kit::generate_stencil2d(1500 / s, 1500 / s); }},
        {"stencil3d 27pt", [=] { return kit::generate_stencil3d(70 / (quick ? 2 : 1), 27); }},
        {"random 8/row", [=] { return kit::generate_random(500000 / (s * s), 500000 / (s * s), 8, 4); }},
        {"power-law", [=] { return kit::generate_power_law(400000 / (s * s), 8000 / s, 0.6, 5); }},
    };
}

struct Timing {
    double gflops = 0;    // 0: refused or wrong
    std::string problem;  // why there is no figure
};

Timing time_shape(const kit::Variant& v, const kit::Reference& ref, kit::RunOptions opt, int r, int c) {
    opt.tunables["block_r"] = r;
    opt.tunables["block_c"] = c;
    const kit::CheckedRun run = kit::run_checked(v, ref, opt);
    Timing t;
    switch (run.status) {
        case kit::RunStatus::ok: t.gflops = run.gflops; break;
        case kit::RunStatus::refused: t.problem = "refused"; break;
        case kit::RunStatus::wrong: t.problem = "WRONG: " + run.message; break;
        default: throw kit::Error(kit::to_string(run.status) + ": " + run.message);
    }
    return t;
}
/// One measured table of one kernel: GFLOP/s per shape (0: refused).
struct KernelTable {
    double gflops[5][5] = {};
};

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
    kit::RunOptions opt;
    opt.repeats = 20;
    std::vector<kit::Precision> precisions{kit::Precision::f64};
    bool quick = false;
    kit::Backend backend = kit::Backend::cuda;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            const bool has_value = i + 1 < argc;
            if (a == "--help" || a == "-h") {
                std::printf("%s", kHelp);
                return 0;
            } else if (a == "--profile" && has_value) {
                setenv("KIT_BCSR_PROFILE", argv[++i], 1);
            } else if (a == "--precision" && has_value) {
                const std::string p = argv[++i];
                precisions = p == "both" ? std::vector<kit::Precision>{kit::Precision::f32, kit::Precision::f64}
                                         : std::vector<kit::Precision>{kit::parse_precision(p)};
            } else if (a == "--repeats" && has_value) {
                opt.repeats = std::atoi(argv[++i]);
                if (opt.repeats < 1) throw kit::Error("--repeats must be a positive integer");
            } else if (a == "--backend" && has_value) {
                backend = kit::parse_backend(argv[++i]);
                if (backend == kit::Backend::opencl) throw kit::Error("tune_check: lab 05 has no OpenCL variant");
            } else if (a == "--quick") {
                quick = true;
            } else {
                throw kit::Error("tune_check: unknown or incomplete option '" + a + "'; see --help");
            }
        }
        if (auto why = kit::backend_unavailable(backend)) {
            std::fprintf(stderr, "tune_check needs a CUDA GPU (or --backend cpu): %s\n", why->c_str());
            return 2;
        }
        const std::vector<std::string> names =
            backend == kit::Backend::cuda ? std::vector<std::string>{"bcsr-2kernel", "bcsr-warp"} : std::vector<std::string>{"bcsr"};
        const kit::BcsrProfile& profile = kit::bcsr::active_profile();
        std::printf("device %s, median of %d repeats, L2 flushed; profile %s (%s), %zu dense and %zu panel records\n",
                    kit::backend_device_name(backend).c_str(), opt.repeats, profile.source.c_str(),
                    profile.device.c_str(), profile.entries.size(), profile.panels.size());
        if (profile.panels.empty())
            std::printf("note: no panel records: the tuner uses GOSpMV's model alone (structure factor 1)\n");
        int misses = 0, checks = 0, joint_misses = 0, joint_checks = 0;
        std::vector<double> pick_errors, all_errors;
        std::vector<std::string> summary;
        for (const Bench& b : benchmarks(quick)) {
            kit::CooMatrix made = b.make();
            std::vector<double> x(made.cols), y(made.rows);
            for (std::size_t j = 0; j < x.size(); ++j) x[j] = 1.0 + static_cast<double>(j % 7) / 8;
            for (std::size_t i = 0; i < y.size(); ++i) y[i] = 0.5 - static_cast<double>(i % 5) / 8;
            const kit::Reference ref(std::move(made), std::move(x), std::move(y));
            const kit::CooMatrix& A = ref.matrix();
            for (kit::Precision precision : precisions) {
                opt.precision = precision;
                std::printf("\n== %s: %d x %d, %lld nonzeros, %s\n", b.name.c_str(), A.rows, A.cols,
                            static_cast<long long>(A.nnz()), kit::to_string(precision).c_str());
                const kit::bcsr::JointChoice joint = kit::bcsr::choose_kernel_and_block(A, profile, names, precision);
                double joint_best = 0, joint_picked = 0;
                std::string joint_best_name;
                int joint_best_r = 0, joint_best_c = 0;
                for (const std::string& name : names) {
                    const kit::Variant* v = kit::registry().find(name, backend);
                    if (!v) throw kit::Error("no " + kit::to_string(backend) + " variant " + name + " in this build");
                    const auto it = std::find(joint.variants.begin(), joint.variants.end(), name);
                    if (it == joint.variants.end())
                        throw kit::Error("the profile has no record for " + name + " in " + kit::to_string(precision));
                    const kit::bcsr::TunerChoice& choice = joint.choices[static_cast<std::size_t>(it - joint.variants.begin())];
                    const bool joint_kernel = name == joint.variant();
                    KernelTable table;
                    std::printf("%-13s GFLOP/s (estimate)  r\\c:            1                  2                  3                  4\n",
                                name.c_str());
                    double best = 0;
                    int best_r = 0, best_c = 0;
                    for (int r = 1; r <= 4; ++r) {
                        std::printf("%-13s %24d  ", "", r);
                        for (int c = 1; c <= 4; ++c) {
                            const Timing t = time_shape(*v, ref, opt, r, c);
                            if (t.problem.rfind("WRONG", 0) == 0)
                                throw kit::Error(name + " " + std::to_string(r) + "x" + std::to_string(c) + " on " +
                                                 b.name + ": " + t.problem);
                            table.gflops[r][c] = t.gflops;
                            double estimate = 0;
                            for (const kit::bcsr::BlockEstimate& e : choice.shapes)
                                if (e.r == r && e.c == c) estimate = e.estimate;
                            const bool picked = r == choice.pick().r && c == choice.pick().c;
                            if (t.gflops > 0) {
                                std::printf(" %8.2f (%7.2f)%s", t.gflops, estimate, picked ? "*" : " ");
                                if (estimate > 0) all_errors.push_back(std::abs(estimate - t.gflops) / t.gflops);
                            } else {
                                std::printf(" %18s", t.problem.c_str());
                            }
                            if (t.gflops > best) best = t.gflops, best_r = r, best_c = c;
                            if (t.gflops > joint_best)
                                joint_best = t.gflops, joint_best_name = name, joint_best_r = r, joint_best_c = c;
                        }
                        std::printf("\n");
                    }
                    const kit::bcsr::BlockEstimate& pick = choice.pick();
                    const double picked = table.gflops[pick.r][pick.c];
                    if (joint_kernel) joint_picked = picked;
                    const bool ok = picked >= 0.95 * best;
                    const double error = picked > 0 ? (pick.estimate - picked) / picked : 0.0;
                    if (picked > 0) pick_errors.push_back(std::abs(error));
                    ++checks;
                    misses += !ok;
                    std::printf("%-13s best %dx%d %.2f GFLOP/s; tuner picked %dx%d (est. fill %.3f, structure %.3f, "
                                "estimate %.2f) measured %.2f = %.1f%% of best: %s; prediction error %+.1f%%\n",
                                name.c_str(), best_r, best_c, best, pick.r, pick.c, pick.fill, pick.structure,
                                pick.estimate, picked, best > 0 ? 100 * picked / best : 0.0,
                                ok ? "within 5%" : "MISSED (more than 5% slower)", 100 * error);
                    char line[200];
                    std::snprintf(line, sizeof line, "%-15s %-6s %-13s pick %dx%d %6.1f%% of best, prediction error %+6.1f%%",
                                  b.name.c_str(), kit::to_string(precision).c_str(), name.c_str(), pick.r, pick.c,
                                  best > 0 ? 100 * picked / best : 0.0, 100 * error);
                    summary.push_back(line);
                }
                const bool ok = joint_picked >= 0.95 * joint_best;
                ++joint_checks;
                joint_misses += !ok;
                std::printf("joint pick    %s %dx%d measured %.2f GFLOP/s; best of both kernels %s %dx%d %.2f = %.1f%%: %s\n",
                            joint.variant().c_str(), joint.choice().pick().r, joint.choice().pick().c, joint_picked,
                            joint_best_name.c_str(), joint_best_r, joint_best_c, joint_best,
                            joint_best > 0 ? 100 * joint_picked / joint_best : 0.0,
                            ok ? "within 5%" : "MISSED (more than 5% slower)");
                char line[200];
                std::snprintf(line, sizeof line, "%-15s %-6s joint         pick %s %dx%d %6.1f%% of best (%s %dx%d)",
                              b.name.c_str(), kit::to_string(precision).c_str(), joint.variant().c_str(),
                              joint.choice().pick().r, joint.choice().pick().c,
                              joint_best > 0 ? 100 * joint_picked / joint_best : 0.0, joint_best_name.c_str(),
                              joint_best_r, joint_best_c);
                summary.push_back(line);
            }
        }
        const double median_pick_error = median(pick_errors);
        std::printf("\nsummary\n");
        for (const std::string& line : summary) std::printf("  %s\n", line.c_str());
        std::printf("\ntune_check: %d of %d kernel picks within 5%% of the best shape%s\n", checks - misses, checks,
                    misses ? "" : " (all)");
        std::printf("tune_check: %d of %d joint picks (kernel and shape) within 5%% of the best%s\n",
                    joint_checks - joint_misses, joint_checks, joint_misses ? "" : " (all)");
        std::printf("tune_check: median |prediction error| %.1f%% over the %zu picks (target 15%%); %.1f%% over all "
                    "%zu measured shapes\n",
                    100 * median_pick_error, pick_errors.size(), 100 * median(all_errors), all_errors.size());
        return misses || joint_misses || median_pick_error > 0.15 ? 1 : 0;
    } catch (const kit::Error& e) {
        std::fprintf(stderr, "tune_check: %s\n", e.what());
        return 2;
    }
}
