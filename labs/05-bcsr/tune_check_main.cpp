// Lab 05 driver: is the autotuner's pick good? For each benchmark matrix and CUDA BCSR kernel,
// times every r x c (exhaustive search), asks the tuner for its pick, and reports whether the
// pick runs within 5% of the best shape (GOSpMV's check: 7 of its 8 matrices got the optimum).
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bcsr_tuner.hpp"
#include "block_fem.hpp"
#include "checked_run.hpp"
#include "generators.hpp"
#include "kit_error.hpp"

namespace {

const char* kHelp =
    "usage: tune_check [--profile FILE] [--precision float|double] [--repeats N] [--quick] [--backend cuda|cpu]\n\n"
    "Lab 05 driver (needs a CUDA GPU, unless --backend cpu). On generated benchmark matrices (block FEM with 2, 3, 4\n"
    "unknowns per node, a large rdb, 2-D and 3-D stencils, a scattered random matrix) it times\n"
    "bcsr-2kernel and bcsr-warp with every r x c in 1..4 x 1..4, checks each result against the\n"
    "oracle, and compares the tuner's pick with the fastest shape.\n\n"
    "  --profile FILE   profile for the tuner (default $KIT_BCSR_PROFILE, else labs/05-bcsr/profile_default.txt)\n"
    "  --precision P    float | double (default double)\n"
    "  --repeats N      timed repeats per shape, median reported (default 20); L2 is flushed before each\n"
    "  --quick          matrices about 8x smaller (a smoke test, not a benchmark)\n"
    "  --backend B      cuda (default: bcsr-2kernel and bcsr-warp) or cpu (the bcsr variant, for a dry run)\n"
    "Exit status: 0 if every pick is within 5% of the best, 1 if not, 2 on errors or without a GPU.\n";

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

}  // namespace

int main(int argc, char** argv) {
    kit::RunOptions opt;
    opt.precision = kit::Precision::f64;
    opt.repeats = 20;
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
                opt.precision = kit::parse_precision(argv[++i]);
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
        std::printf("device %s, %s, median of %d repeats, L2 flushed; profile %s (%s)\n",
                    kit::backend_device_name(backend).c_str(), kit::to_string(opt.precision).c_str(),
                    opt.repeats, profile.source.c_str(), profile.device.c_str());
        int misses = 0, checks = 0;
        for (const Bench& b : benchmarks(quick)) {
            kit::CooMatrix made = b.make();
            std::vector<double> x(made.cols), y(made.rows);
            for (std::size_t j = 0; j < x.size(); ++j) x[j] = 1.0 + static_cast<double>(j % 7) / 8;
            for (std::size_t i = 0; i < y.size(); ++i) y[i] = 0.5 - static_cast<double>(i % 5) / 8;
            const kit::Reference ref(std::move(made), std::move(x), std::move(y));
            const kit::CooMatrix& A = ref.matrix();
            std::printf("\n== %s: %d x %d, %lld nonzeros\n", b.name.c_str(), A.rows, A.cols,
                        static_cast<long long>(A.nnz()));
            for (const std::string& name : names) {
                const kit::Variant* v = kit::registry().find(name, backend);
                if (!v) throw kit::Error("no " + kit::to_string(backend) + " variant " + name + " in this build");
                const kit::bcsr::TunerChoice choice = kit::bcsr::choose_block(A, profile, name, opt.precision);
                std::printf("%-13s GFLOP/s  r\\c:        1          2          3          4\n", name.c_str());
                double best = 0, picked = 0;
                int best_r = 0, best_c = 0;
                for (int r = 1; r <= 4; ++r) {
                    std::printf("%-13s          %d  ", "", r);
                    for (int c = 1; c <= 4; ++c) {
                        const Timing t = time_shape(*v, ref, opt, r, c);
                        if (t.problem.rfind("WRONG", 0) == 0)
                            throw kit::Error(name + " " + std::to_string(r) + "x" + std::to_string(c) +
                                             " on " + b.name + ": " + t.problem);
                        if (t.gflops > 0) std::printf(" %9.2f%s", t.gflops, r == choice.best.r && c == choice.best.c ? "*" : " ");
                        else std::printf(" %10s", t.problem.c_str());
                        if (t.gflops > best) best = t.gflops, best_r = r, best_c = c;
                        if (r == choice.best.r && c == choice.best.c) picked = t.gflops;
                    }
                    std::printf("\n");
                }
                const bool ok = picked >= 0.95 * best;
                ++checks;
                misses += !ok;
                std::printf("%-13s best %dx%d %.2f GFLOP/s; tuner picked %dx%d (est. fill %.3f, estimate %.2f) "
                            "measured %.2f = %.1f%% of best: %s\n",
                            name.c_str(), best_r, best_c, best, choice.best.r, choice.best.c, choice.best.fill,
                            choice.best.estimate, picked, best > 0 ? 100 * picked / best : 0.0,
                            ok ? "within 5%" : "MISSED (more than 5% slower)");
            }
        }
        std::printf("\ntune_check: %d of %d picks within 5%% of the best shape%s\n", checks - misses, checks,
                    misses ? "" : " (all)");
        return misses ? 1 : 0;
    } catch (const kit::Error& e) {
        std::fprintf(stderr, "tune_check: %s\n", e.what());
        return 2;
    }
}
