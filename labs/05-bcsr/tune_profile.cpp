// spmv-kit tune-profile: the offline half of the GOSpMV autotuner. Times dense matrices stored
// as r x c BCSR, for every shape and several sizes, and writes the profile the tuner reads.
// Phases: read the plan from the arguments, time the dense matrices, the panels and the chains,
// write the profile.
#include "tune_profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>

#include "bcsr_tunables.hpp"
#include "check/checked_run.hpp"
#include "core/args.hpp"
#include "core/kit_error.hpp"
#include "core/text.hpp"
#include "io/generators.hpp"
#include "bcsr_profile.hpp"

namespace kit::bcsr {
namespace {

const char* kHelp =
    "usage: spmv-kit tune-profile --out FILE [options]\n\n"
    "Offline step of the BCSR autotuner (GOSpMV): runs every BCSR kernel of lab 05 on dense\n"
    "matrices stored as r x c BCSR (fill 1), for r, c in 1..4 and several sizes, checks each\n"
    "result against the oracle, and writes the GFLOP/s as a profile (labs/05-bcsr/bcsr_profile.hpp).\n"
    "The tuner reads $KIT_BCSR_PROFILE, else labs/05-bcsr/profile_default.txt.\n\n"
    "  --out FILE          profile to write (required)\n"
    "  --backends LIST     cuda,cpu | cuda | cpu   (default cuda,cpu; cuda needs a GPU)\n"
    "  --precision P       float | double | both   (default both)\n"
    "  --sizes LIST        entries of the dense matrices, comma-separated (default\n"
    "                      14400,57600,230400,921600,3686400,14745600)\n"
    "  --width W           columns of the dense matrices (default 24): each is a dense panel of\n"
    "                      nnz/W rows x W columns, rounded to a multiple of 12 rows so every r x c\n"
    "                      tiles it. 0: square n x n, as GOSpMV did (see handouts/05-bcsr.md for why\n"
    "                      the kit prefers panels on GPUs)\n"
    "  --panel-bpr LIST    blocks per block row of the structured panels (default 1,2,4,8,16,32,64,256);\n"
    "                      'none' writes a dense-only profile (GOSpMV's: no panels, no chains). A panel\n"
    "                      has fill 1 at its r x c and exactly that many blocks in every block row, side\n"
    "                      by side along a band ('band': x read in order) or at random block columns\n"
    "                      ('scatter': x gathered)\n"
    "  --panel-nnz N       entries of each panel (default 8388608: at a few million entries a run's\n"
    "                      launch cost is still a large part of its time)\n"
    "  --chain-blocks N    blocks of the long block row of the chain records (default 8192; 0: none).\n"
    "                      A chain matrix has one block row of N blocks side by side and one block in\n"
    "                      every other block row: it times the longest block row alone, as in a\n"
    "                      power-law matrix\n"
    "  --repeats N         timed repeats per point after 2 warm-ups (default 20)\n"
    "With --backends cuda it takes about 6 minutes on an H100, most of it building the panels.\n"
    "GPU runs flush L2 before each timed repeat, as the benchmarks and tune_check do.\n"
    "Exit status: 0 when written; 1 while a step of lab 05 is still a TODO; 2 on bad input, an unavailable\n"
    "backend or a wrong result.\n";

/// What one profiling run measures: parsed once from the arguments.
struct ProfilePlan {
    std::string out;                       ///< profile to write
    std::vector<Backend> backends;         ///< where the kernels run
    std::vector<Precision> precisions;     ///< float, double or both
    std::vector<count_t> sizes;            ///< entries of the dense matrices
    int width = 24;                        ///< columns of the dense panels (0: square)
    std::vector<const Variant*> variants;  ///< lab 05's kernels on those backends
    std::vector<int> panel_bprs;           ///< blocks per block row of the panels (empty: none)
    count_t panel_nnz = 0;                 ///< entries of each panel
    count_t chain_blocks = 0;              ///< blocks of the chains' long block row (0: none)
    RunOptions opt;                        ///< repeats; precision and block shape set per point
};

/// The multiple of 12 nearest v, at least 12: 12 is the lcm of 1..4, so every r x c tiles it.
index_t round_to_12(double v) {
    const index_t k = static_cast<index_t>(v / 12 + 0.5);
    return k > 1 ? k * 12 : 12;
}

/// A dense matrix of about `nnz` entries in the hub's row-major order (already normalized):
/// rows x width, or square when width is 0; both sides multiples of 12.
CooMatrix dense_matrix(count_t nnz, int width) {
    CooMatrix A;
    A.cols = width > 0 ? round_to_12(width) : round_to_12(std::sqrt(static_cast<double>(nnz)));
    A.rows = round_to_12(static_cast<double>(nnz) / A.cols);
    const std::size_t entries = static_cast<std::size_t>(A.rows) * A.cols;
    A.row_idx.reserve(entries);
    A.col_idx.reserve(entries);
    A.vals.reserve(entries);
    for (index_t i = 0; i < A.rows; ++i)
        for (index_t j = 0; j < A.cols; ++j) A.add(i, j, 1.0 / (1 + (i + 2 * j) % 13));
    return A;
}

/// A panel of the profile: fill 1 at r x c, exactly `bpr` dense blocks in every block row, about
/// `nnz` entries. band: block row ib holds the bpr block columns from its diagonal on (clipped at
/// the right edge), so neighbouring block rows read nearly the same x. scatter: bpr distinct
/// block columns drawn at random from 4*bpr or more, so each block gathers its x from anywhere.
CooMatrix panel_matrix(int r, int c, int bpr, PanelLayout layout, count_t nnz) {
    const count_t per_block_row = static_cast<count_t>(bpr) * r * c;
    const index_t block_rows = static_cast<index_t>(std::max<count_t>(1, (nnz + per_block_row / 2) / per_block_row));
    CooMatrix A;
    A.rows = block_rows * r;
    index_t block_cols = std::max<index_t>((A.rows + c - 1) / c, bpr);
    if (layout == PanelLayout::scatter) block_cols = std::max<index_t>(block_cols, 4 * bpr);
    A.cols = block_cols * c;
    const std::size_t entries = static_cast<std::size_t>(block_rows) * per_block_row;
    A.row_idx.reserve(entries);
    A.col_idx.reserve(entries);
    A.vals.reserve(entries);
    std::mt19937_64 rng(1000003ull * r + 1009ull * c + bpr);
    std::uniform_int_distribution<index_t> any_block_col(0, block_cols - 1);
    std::vector<index_t> picked;
    for (index_t ib = 0; ib < block_rows; ++ib) {
        picked.clear();
        if (layout == PanelLayout::band) {
            const index_t first =
                std::min<index_t>(static_cast<index_t>(static_cast<count_t>(ib) * r / c), block_cols - bpr);
            for (int k = 0; k < bpr; ++k) picked.push_back(first + k);
        } else {
            while (static_cast<int>(picked.size()) < bpr) {
                const index_t bc = any_block_col(rng);
                if (std::find(picked.begin(), picked.end(), bc) == picked.end()) picked.push_back(bc);
            }
            std::sort(picked.begin(), picked.end());
        }
        for (int i = 0; i < r; ++i) {
            const index_t row = ib * r + i;
            for (index_t bc : picked)
                for (int j = 0; j < c; ++j) A.add(row, bc * c + j, 1.0 / (1 + (row + 2 * (bc * c + j)) % 13));
        }
    }
    A.normalize();
    return A;
}

/// A chain of the profile: block row 0 holds `blocks` r x c blocks side by side, each of the
/// other `blocks` / 2 block rows one block on its diagonal, so that the run's time is the
/// time of the long block row alone, plus a launch.
CooMatrix chain_matrix(int r, int c, count_t blocks) {
    const index_t short_rows = static_cast<index_t>(std::max<count_t>(1, blocks / 2));
    const index_t block_cols = static_cast<index_t>(std::max<count_t>(blocks, short_rows + 1));
    CooMatrix A;
    A.rows = (short_rows + 1) * r;
    A.cols = block_cols * c;
    auto add_block = [&](index_t ib, index_t bc) {
        for (int i = 0; i < r; ++i)
            for (int j = 0; j < c; ++j) {
                const index_t row = ib * r + i, col = bc * c + j;
                A.add(row, col, 1.0 / (1 + (row + 2 * col) % 13));
            }
    };
    for (index_t bc = 0; bc < static_cast<index_t>(blocks); ++bc) add_block(0, bc);
    for (index_t ib = 1; ib <= short_rows; ++ib) add_block(ib, ib);
    A.normalize();
    return A;
}

/// Random x and y in [-1, 1] (a fixed seed: the same problem every run), and the oracle's y.
Reference random_problem(CooMatrix A) {
    RandomXY xy = random_xy(A.cols, A.rows, 12345);
    return Reference(std::move(A), std::move(xy.x), std::move(xy.y));
}

/// Runs `v` on `ref` as configured in `opt`, checked, and returns its GFLOP/s; throws naming
/// `what` if the run is refused, wrong or too fast to measure (no profile is then written).
double checked_gflops(const Variant& v, const Reference& ref, const RunOptions& opt, const std::string& what) {
    const CheckedRun o = run_checked(v, ref, opt);
    if (o.status == RunStatus::todo)  // exit 1 (spmv-kit's main): the student's step, not a misuse
        throw TodoError(o.message + "; tune-profile times " + v.name + ", so no profile is written");
    if (o.status != RunStatus::ok || !(o.gflops > 0))
        throw Error(
            "tune-profile: " + v.name + " " + std::to_string(opt.tunable(kBlockRows)) + "x" +
            std::to_string(opt.tunable(kBlockCols)) + " on " + what + ": " +
            (o.status == RunStatus::ok ? std::string("no measurable time") : to_string(o.status) + ": " + o.message) +
            "; no profile written");
    return o.gflops;
}

std::vector<Backend> parse_backends(const std::string& list) {
    std::vector<Backend> backends;
    for (const std::string& b : split_list(list)) backends.push_back(parse_backend(b));
    for (Backend b : backends)
        if (auto why = backend_unavailable(b))
            throw BackendUnavailable("tune-profile: the " + to_string(b) + " backend is unavailable here: " + *why +
                                     ". The profile times the GPU kernels, so run it on a GPU node (jobs/), or pass "
                                     "--backends cpu for a CPU-only profile.");
    return backends;
}

/// Integers of a comma-separated list, each in lo..hi; `what` names the option in messages.
std::vector<long long> parse_counts(const std::string& list, long long lo, long long hi, const std::string& what) {
    std::vector<long long> out;
    for (const std::string& s : split_list(list)) {
        const long long n = std::atoll(s.c_str());
        if (n < lo || n > hi)
            throw Error("tune-profile: " + what + " takes " + std::to_string(lo) + ".." + std::to_string(hi) +
                        ", got '" + s + "'");
        out.push_back(n);
    }
    return out;
}

/// The kernels the profile rates: every BCSR variant of this lab on the chosen backends, less
/// bcsr-auto, which is no kernel of its own (it runs one of the others).
std::vector<const Variant*> profiled_variants(const std::vector<Backend>& backends) {
    std::vector<const Variant*> variants;
    for (const Variant& v : registry().all())
        for (Backend b : backends)
            if (v.lab == "05-bcsr" && v.backend == b && v.name != "bcsr-auto") variants.push_back(&v);
    if (variants.empty()) throw Error("tune-profile: no lab 05 BCSR variant is registered for the chosen backends");
    return variants;
}

ProfilePlan read_plan(const Args& a) {
    ProfilePlan plan;
    plan.out = a.get("--out");
    plan.backends = parse_backends(a.get("--backends", "cuda,cpu"));
    const std::string prec = a.get("--precision", "both");
    plan.precisions = prec == "both" ? std::vector<Precision>{Precision::f32, Precision::f64}
                                     : std::vector<Precision>{parse_precision(prec)};
    for (long long n :
         parse_counts(a.get("--sizes", "14400,57600,230400,921600,3686400,14745600"), 144, 400000000, "--sizes"))
        plan.sizes.push_back(n);
    plan.width = static_cast<int>(a.get_int("--width", 24, 0, 1 << 20));
    plan.variants = profiled_variants(plan.backends);
    if (a.get("--panel-bpr", "") != "none")
        for (long long b : parse_counts(a.get("--panel-bpr", "1,2,4,8,16,32,64,256"), 1, 4096, "--panel-bpr"))
            plan.panel_bprs.push_back(static_cast<int>(b));
    plan.panel_nnz = a.get_int("--panel-nnz", 8388608, 4096, 400000000);
    // A chain only adds to the panels' model: a dense-only profile (--panel-bpr none) has none.
    plan.chain_blocks = plan.panel_bprs.empty() ? 0 : a.get_int("--chain-blocks", 8192, 0, 1 << 20);
    plan.opt.repeats = static_cast<int>(a.get_int("--repeats", 20, 1, 100000));
    return plan;
}

/// One line of progress per measured point, flushed: a GPU run takes minutes.
void report_point(const Variant& v, Precision p, int r, int c, const std::string& what, count_t nnz, double gflops) {
    std::printf("%-13s %-6s %dx%d  %-34s nnz %9lld  %9.3f GFLOP/s\n", v.name.c_str(), to_string(p).c_str(), r, c,
                what.c_str(), static_cast<long long>(nnz), gflops);
    std::fflush(stdout);
}

/// The dense records: every kernel, precision and shape on each size (GOSpMV's P_dense).
void profile_dense(ProfilePlan& plan, BcsrProfile& profile) {
    for (count_t n : plan.sizes) {
        const Reference ref = random_problem(dense_matrix(n, plan.width));
        const CooMatrix& A = ref.matrix();
        const std::string what = "dense " + std::to_string(A.rows) + "x" + std::to_string(A.cols);
        for (const Variant* v : plan.variants)
            for (Precision p : plan.precisions)
                for (int r = 1; r <= kMaxBlock; ++r)
                    for (int c = 1; c <= kMaxBlock; ++c) {
                        plan.opt.precision = p;
                        set_block(plan.opt, r, c);
                        const double gflops = checked_gflops(*v, ref, plan.opt, what);
                        profile.entries.push_back({{v->name, p, r, c, A.nnz()}, gflops});
                        report_point(*v, p, r, c, what, A.nnz(), gflops);
                    }
    }
}

/// The panel records: at each shape, each blocks-per-block-row count in both layouts.
void profile_panels(ProfilePlan& plan, BcsrProfile& profile) {
    for (int r = 1; r <= kMaxBlock; ++r)
        for (int c = 1; c <= kMaxBlock; ++c)
            for (int bpr : plan.panel_bprs)
                for (PanelLayout layout : {PanelLayout::band, PanelLayout::scatter}) {
                    const Reference ref = random_problem(panel_matrix(r, c, bpr, layout, plan.panel_nnz));
                    const std::string what = to_string(layout) + " panel, " + std::to_string(bpr) + " blocks/block row";
                    set_block(plan.opt, r, c);
                    for (const Variant* v : plan.variants)
                        for (Precision p : plan.precisions) {
                            plan.opt.precision = p;
                            const double gflops = checked_gflops(*v, ref, plan.opt, "the " + what);
                            profile.panels.push_back({{v->name, p, r, c, ref.matrix().nnz()}, bpr, layout, gflops});
                            report_point(*v, p, r, c, what, ref.matrix().nnz(), gflops);
                        }
                }
}

/// The chain records: the longest block row alone, at each shape.
void profile_chains(ProfilePlan& plan, BcsrProfile& profile) {
    if (plan.chain_blocks <= 0) return;
    const std::string what = "chain of " + std::to_string(plan.chain_blocks) + " blocks";
    for (int r = 1; r <= kMaxBlock; ++r)
        for (int c = 1; c <= kMaxBlock; ++c) {
            const Reference ref = random_problem(chain_matrix(r, c, plan.chain_blocks));
            set_block(plan.opt, r, c);
            for (const Variant* v : plan.variants)
                for (Precision p : plan.precisions) {
                    plan.opt.precision = p;
                    const double gflops = checked_gflops(*v, ref, plan.opt, "the " + what);
                    profile.chains.push_back({{v->name, p, r, c, ref.matrix().nnz()}, plan.chain_blocks, gflops});
                    report_point(*v, p, r, c, what, ref.matrix().nnz(), gflops);
                }
        }
}

void write_profile(const ProfilePlan& plan, const BcsrProfile& profile) {
    std::ofstream out(plan.out);
    if (!out) throw Error("tune-profile: cannot write '" + plan.out + "'");
    profile.write(out, "Written by: spmv-kit tune-profile, " +
                           (plan.width > 0 ? "dense panels of " + std::to_string(round_to_12(plan.width)) + " columns"
                                           : std::string("square dense matrices")) +
                           ", panels of " + std::to_string(plan.panel_nnz) + " entries, chains of " +
                           std::to_string(plan.chain_blocks) + " blocks, " + std::to_string(plan.opt.repeats) +
                           " timed repeats (median), L2 flushed before each GPU repeat.");
    if (!out.flush()) throw Error("tune-profile: writing '" + plan.out + "' failed");
    std::printf("wrote %zu dense, %zu panel and %zu chain records to %s\n", profile.entries.size(),
                profile.panels.size(), profile.chains.size(), plan.out.c_str());
}

}  // namespace

int tune_profile_main(const std::vector<std::string>& args) {
    const Args a(args,
                 {"--out", "--backends", "--precision", "--sizes", "--width", "--panel-bpr", "--panel-nnz",
                  "--chain-blocks", "--repeats"},
                 {"--help"}, "tune-profile");
    if (a.has("--help")) {
        std::cout << kHelp;
        return 0;
    }
    if (!a.has("--out") || !a.positional().empty()) {
        std::cerr << kHelp;
        return 2;
    }
    ProfilePlan plan = read_plan(a);
    BcsrProfile profile;
    for (Backend b : plan.backends) {
        const std::string name = to_string(b) + ": " + backend_device_name(b);
        profile.device += profile.device.empty() ? name : "; " + name;
    }
    profile_dense(plan, profile);
    profile_panels(plan, profile);
    profile_chains(plan, profile);
    write_profile(plan, profile);
    return 0;
}

LabTool tune_profile_tool() {
    return {
        "tune-profile", "05-bcsr",
        "tune-profile --out FILE   time dense BCSR for every r x c and size: the profile of the BCSR autotuner (GPU)",
        tune_profile_main};
}

}  // namespace kit::bcsr
