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
#include "bcsr_tunables.hpp"
#include "core/timing.hpp"
#include "io/block_fem.hpp"
#include "check/checked_run.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"

namespace {

const char* kHelp =
    "usage: tune_check [--profile FILE] [--precision float|double|both] [--repeats N] [--quick] [--backend "
    "cuda|cpu]\n\n"
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
    "picks is within 15%, 1 if not (or a step of lab 05 is still a TODO), 2 on errors or without a GPU.\n";

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
        {"rdb m=1000",
         [=] {
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
    kit::bcsr::set_block(opt, r, c);
    const kit::CheckedRun run = kit::run_checked(v, ref, opt);
    Timing t;
    switch (run.status) {
        case kit::RunStatus::ok:
            t.gflops = run.gflops;
            break;
        case kit::RunStatus::refused:
            t.problem = "refused";
            break;
        case kit::RunStatus::wrong:
            t.problem = "WRONG: " + run.message;
            break;
        case kit::RunStatus::todo:  // the student's kernel is still a TODO: exit 1 (main)
            throw kit::TodoError(run.message);
        default:
            throw kit::Error(kit::to_string(run.status) + ": " + run.message);
    }
    return t;
}

/// One measured table of one kernel: GFLOP/s per shape (0: refused).
struct KernelTable {
    double gflops[kit::bcsr::kMaxBlock + 1][kit::bcsr::kMaxBlock + 1] = {};
};

/// What the command line asks for.
struct Options {
    kit::RunOptions opt;
    std::vector<kit::Precision> precisions{kit::Precision::f64};
    bool quick = false;
    kit::Backend backend = kit::Backend::cuda;
    bool help = false;
};

Options parse_options(int argc, char** argv) {
    Options o;
    o.opt.repeats = 20;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--help" || a == "-h") {
            o.help = true;
        } else if (a == "--profile" && has_value) {
            setenv("KIT_BCSR_PROFILE", argv[++i], 1);
        } else if (a == "--precision" && has_value) {
            const std::string p = argv[++i];
            o.precisions = p == "both" ? std::vector<kit::Precision>{kit::Precision::f32, kit::Precision::f64}
                                       : std::vector<kit::Precision>{kit::parse_precision(p)};
        } else if (a == "--repeats" && has_value) {
            o.opt.repeats = std::atoi(argv[++i]);
            if (o.opt.repeats < 1) throw kit::Error("--repeats must be a positive integer");
        } else if (a == "--backend" && has_value) {
            o.backend = kit::parse_backend(argv[++i]);
            if (o.backend == kit::Backend::opencl) throw kit::Error("tune_check: lab 05 has no OpenCL variant");
        } else if (a == "--quick") {
            o.quick = true;
        } else {
            throw kit::Error("tune_check: unknown or incomplete option '" + a + "'; see --help");
        }
    }
    return o;
}

/// The best measured shape of one kernel (or of both, for the joint pick).
struct Best {
    double gflops = 0;
    std::string name;
    int r = 0, c = 0;
    void offer(double g, const std::string& n, int rr, int cc) {
        if (g > gflops) gflops = g, name = n, r = rr, c = cc;
    }
};

/// The whole check: every benchmark matrix, precision and kernel, and the tallies.
class TuneCheck {
public:
    TuneCheck(Options o, const kit::BcsrProfile& profile) : o_(std::move(o)), profile_(profile) {
        names_ = o_.backend == kit::Backend::cuda ? std::vector<std::string>{"bcsr-2kernel", "bcsr-warp"}
                                                  : std::vector<std::string>{"bcsr"};
    }

    void run_matrix(const Bench& b) {
        kit::CooMatrix made = b.make();
        std::vector<double> x(made.cols), y(made.rows);
        for (std::size_t j = 0; j < x.size(); ++j) x[j] = 1.0 + static_cast<double>(j % 7) / 8;
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = 0.5 - static_cast<double>(i % 5) / 8;
        const kit::Reference ref(std::move(made), std::move(x), std::move(y));
        const kit::CooMatrix& A = ref.matrix();
        for (kit::Precision precision : o_.precisions) {
            o_.opt.precision = precision;
            std::printf("\n== %s: %d x %d, %lld nonzeros, %s\n", b.name.c_str(), A.rows, A.cols,
                        static_cast<long long>(A.nnz()), kit::to_string(precision).c_str());
            const kit::bcsr::JointChoice joint = kit::bcsr::choose_kernel_and_block(A, profile_, names_, precision);
            Best joint_best;
            double joint_picked = 0;
            for (const std::string& name : names_) {
                const double picked = check_kernel(b, ref, joint, name, joint_best);
                if (name == joint.variant()) joint_picked = picked;
            }
            report_joint(b, joint, joint_picked, joint_best);
        }
    }

    int summarize() const {
        const double median_pick_error = kit::median(pick_errors_);
        std::printf("\nsummary\n");
        for (const std::string& line : summary_) std::printf("  %s\n", line.c_str());
        std::printf("\ntune_check: %d of %d kernel picks within 5%% of the best shape%s\n", checks_ - misses_, checks_,
                    misses_ ? "" : " (all)");
        std::printf("tune_check: %d of %d joint picks (kernel and shape) within 5%% of the best%s\n",
                    joint_checks_ - joint_misses_, joint_checks_, joint_misses_ ? "" : " (all)");
        std::printf(
            "tune_check: median |prediction error| %.1f%% over the %zu picks (target 15%%); %.1f%% over all "
            "%zu measured shapes\n",
            100 * median_pick_error, pick_errors_.size(), 100 * kit::median(all_errors_), all_errors_.size());
        return misses_ || joint_misses_ || median_pick_error > 0.15 ? 1 : 0;
    }

private:
    /// One row of the table: kernel v at r x every c, measured, with the tuner's estimates.
    void measure_row(const Bench& b, const kit::Variant& v, const kit::Reference& ref,
                     const kit::bcsr::TunerChoice& choice, int r, KernelTable& table, Best& best, Best& joint_best) {
        std::printf("%-13s %24d  ", "", r);
        for (int c = 1; c <= kit::bcsr::kMaxBlock; ++c) {
            const Timing t = time_shape(v, ref, o_.opt, r, c);
            if (t.problem.rfind("WRONG", 0) == 0)
                throw kit::Error(v.name + " " + std::to_string(r) + "x" + std::to_string(c) + " on " + b.name + ": " +
                                 t.problem);
            table.gflops[r][c] = t.gflops;
            double estimate = 0;
            for (const kit::bcsr::BlockEstimate& e : choice.shapes)
                if (e.r == r && e.c == c) estimate = e.estimate;
            const bool picked = r == choice.pick().r && c == choice.pick().c;
            if (t.gflops > 0) {
                std::printf(" %8.2f (%7.2f)%s", t.gflops, estimate, picked ? "*" : " ");
                if (estimate > 0) all_errors_.push_back(std::abs(estimate - t.gflops) / t.gflops);
            } else {
                std::printf(" %18s", t.problem.c_str());
            }
            best.offer(t.gflops, v.name, r, c);
            joint_best.offer(t.gflops, v.name, r, c);
        }
        std::printf("\n");
    }

    /// Every shape of one kernel against its pick; returns the pick's measured GFLOP/s.
    double check_kernel(const Bench& b, const kit::Reference& ref, const kit::bcsr::JointChoice& joint,
                        const std::string& name, Best& joint_best) {
        const kit::Precision precision = o_.opt.precision;
        const kit::Variant* v = kit::registry().find(name, o_.backend);
        if (!v) throw kit::Error("no " + kit::to_string(o_.backend) + " variant " + name + " in this build");
        const auto it = std::find(joint.variants.begin(), joint.variants.end(), name);
        if (it == joint.variants.end())
            throw kit::Error("the profile has no record for " + name + " in " + kit::to_string(precision));
        const kit::bcsr::TunerChoice& choice = joint.choices[static_cast<std::size_t>(it - joint.variants.begin())];
        KernelTable table;
        std::printf(
            "%-13s GFLOP/s (estimate)  r\\c:            1                  2                  3                  4\n",
            name.c_str());
        Best best;
        for (int r = 1; r <= kit::bcsr::kMaxBlock; ++r) measure_row(b, *v, ref, choice, r, table, best, joint_best);
        const kit::bcsr::BlockEstimate& pick = choice.pick();
        const double picked = table.gflops[pick.r][pick.c];
        const bool ok = picked >= 0.95 * best.gflops;
        const double error = picked > 0 ? (pick.estimate - picked) / picked : 0.0;
        if (picked > 0) pick_errors_.push_back(std::abs(error));
        ++checks_;
        misses_ += !ok;
        const double pct = best.gflops > 0 ? 100 * picked / best.gflops : 0.0;
        std::printf(
            "%-13s best %dx%d %.2f GFLOP/s; tuner picked %dx%d (est. fill %.3f, structure %.3f, "
            "estimate %.2f) measured %.2f = %.1f%% of best: %s; prediction error %+.1f%%\n",
            name.c_str(), best.r, best.c, best.gflops, pick.r, pick.c, pick.fill, pick.structure, pick.estimate, picked,
            pct, ok ? "within 5%" : "MISSED (more than 5% slower)", 100 * error);
        char line[200];
        std::snprintf(line, sizeof line, "%-15s %-6s %-13s pick %dx%d %6.1f%% of best, prediction error %+6.1f%%",
                      b.name.c_str(), kit::to_string(precision).c_str(), name.c_str(), pick.r, pick.c, pct,
                      100 * error);
        summary_.push_back(line);
        return picked;
    }

    void report_joint(const Bench& b, const kit::bcsr::JointChoice& joint, double joint_picked,
                      const Best& joint_best) {
        const bool ok = joint_picked >= 0.95 * joint_best.gflops;
        ++joint_checks_;
        joint_misses_ += !ok;
        const double pct = joint_best.gflops > 0 ? 100 * joint_picked / joint_best.gflops : 0.0;
        std::printf("joint pick    %s %dx%d measured %.2f GFLOP/s; best of both kernels %s %dx%d %.2f = %.1f%%: %s\n",
                    joint.variant().c_str(), joint.choice().pick().r, joint.choice().pick().c, joint_picked,
                    joint_best.name.c_str(), joint_best.r, joint_best.c, joint_best.gflops, pct,
                    ok ? "within 5%" : "MISSED (more than 5% slower)");
        char line[200];
        std::snprintf(line, sizeof line, "%-15s %-6s joint         pick %s %dx%d %6.1f%% of best (%s %dx%d)",
                      b.name.c_str(), kit::to_string(o_.opt.precision).c_str(), joint.variant().c_str(),
                      joint.choice().pick().r, joint.choice().pick().c, pct, joint_best.name.c_str(), joint_best.r,
                      joint_best.c);
        summary_.push_back(line);
    }

    Options o_;
    const kit::BcsrProfile& profile_;
    std::vector<std::string> names_;
    int misses_ = 0, checks_ = 0, joint_misses_ = 0, joint_checks_ = 0;
    std::vector<double> pick_errors_, all_errors_;
    std::vector<std::string> summary_;
};

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options o = parse_options(argc, argv);
        if (o.help) {
            std::printf("%s", kHelp);
            return 0;
        }
        if (auto why = kit::backend_unavailable(o.backend)) {
            std::fprintf(stderr, "tune_check needs a CUDA GPU (or --backend cpu): %s\n", why->c_str());
            return 2;
        }
        const kit::BcsrProfile& profile = kit::bcsr::active_profile();
        std::printf("device %s, median of %d repeats, L2 flushed; profile %s (%s), %zu dense and %zu panel records\n",
                    kit::backend_device_name(o.backend).c_str(), o.opt.repeats, profile.source.c_str(),
                    profile.device.c_str(), profile.entries.size(), profile.panels.size());
        if (profile.panels.empty())
            std::printf("note: no panel records: the tuner uses GOSpMV's model alone (structure factor 1)\n");
        TuneCheck check(o, profile);
        for (const Bench& b : benchmarks(o.quick)) check.run_matrix(b);
        return check.summarize();
    } catch (const kit::TodoError& e) {  // a step still to write: exit 1, like a wrong result
        std::fprintf(stderr, "tune_check: %s\n", e.what());
        return 1;
    } catch (const kit::Error& e) {
        std::fprintf(stderr, "tune_check: %s\n", e.what());
        return 2;
    }
}
