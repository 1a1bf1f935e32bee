// spmv-kit tune-profile: the offline half of the GOSpMV autotuner. Times dense matrices stored
// as r x c BCSR, for every shape and several sizes, and writes the profile the tuner reads.
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "model/bcsr_profile.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "core/kit_error.hpp"

namespace kit::cli {
namespace {

const char* kTuneHelp =
    "usage: spmv-kit tune-profile --out FILE [options]\n\n"
    "Offline step of the BCSR autotuner (GOSpMV): runs every BCSR variant of lab 05 on dense\n"
    "matrices stored as r x c BCSR (fill 1), for r, c in 1..4 and several sizes, checks each\n"
    "result against the oracle, and writes the GFLOP/s as a profile (labs/common/model/bcsr_profile.hpp).\n"
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
    "Exit status: 0 when written; 2 on bad input, an unavailable backend or a wrong result.\n";

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

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
    A.row.reserve(entries);
    A.col.reserve(entries);
    A.val.reserve(entries);
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
    A.row.reserve(entries);
    A.col.reserve(entries);
    A.val.reserve(entries);
    std::mt19937_64 rng(1000003ull * r + 1009ull * c + bpr);
    std::uniform_int_distribution<index_t> any_block_col(0, block_cols - 1);
    std::vector<index_t> picked;
    for (index_t ib = 0; ib < block_rows; ++ib) {
        picked.clear();
        if (layout == PanelLayout::band) {
            const index_t first = std::min<index_t>(static_cast<index_t>(static_cast<count_t>(ib) * r / c), block_cols - bpr);
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

/// Runs `v` on `ref` as configured in `opt`, checked, and returns its GFLOP/s; throws naming
/// `what` if the run is refused, wrong or too fast to measure (no profile is then written).
double checked_gflops(const Variant& v, const Reference& ref, const RunOptions& opt, const std::string& what) {
    const CheckedRun o = run_checked(v, ref, opt);
    if (o.status != RunStatus::ok || !(o.gflops > 0))
        throw Error("tune-profile: " + v.name + " " + std::to_string(opt.tunable("block_r")) + "x" +
                    std::to_string(opt.tunable("block_c")) + " on " + what + ": " +
                    (o.status == RunStatus::ok ? std::string("no measurable time") : to_string(o.status) + ": " + o.message) +
                    "; no profile written");
    return o.gflops;
}

}  // namespace

int cmd_tune_profile(const std::vector<std::string>& argv) {
    const Args a(argv, {"--out", "--backends", "--precision", "--sizes", "--width", "--panel-bpr", "--panel-nnz", "--chain-blocks", "--repeats"}, {"--help"}, "tune-profile");
    if (a.has("--help")) {
        std::cout << kTuneHelp;
        return 0;
    }
    if (!a.has("--out") || !a.positional().empty()) {
        std::cerr << kTuneHelp;
        return 2;
    }
    std::vector<Backend> backends;
    for (const std::string& b : split(a.get("--backends", "cuda,cpu"))) backends.push_back(parse_backend(b));
    for (Backend b : backends)
        if (auto why = backend_unavailable(b))
            throw BackendUnavailable("tune-profile: the " + to_string(b) + " backend is unavailable here: " + *why +
                                     ". The profile times the GPU kernels, so run it on a GPU node (jobs/), or pass "
                                     "--backends cpu for a CPU-only profile.");
    const std::string prec = a.get("--precision", "both");
    const std::vector<Precision> precisions =
        prec == "both" ? std::vector<Precision>{Precision::f32, Precision::f64} : std::vector<Precision>{parse_precision(prec)};
    std::vector<count_t> sizes;
    for (const std::string& s : split(a.get("--sizes", "14400,57600,230400,921600,3686400,14745600"))) {
        const long long n = std::atoll(s.c_str());
        if (n < 144 || n > 400000000) throw Error("tune-profile: --sizes takes entry counts in 144..4e8, got '" + s + "'");
        sizes.push_back(n);
    }
    const int width = static_cast<int>(a.get_int("--width", 24, 0, 1 << 20));
    std::vector<const Variant*> variants;
    for (const Variant& v : registry().all())
        for (Backend b : backends)
            // bcsr-auto is no kernel of its own: it runs one of the others.
            if (v.lab == "05-bcsr" && v.backend == b && v.name != "bcsr-auto") variants.push_back(&v);
    if (variants.empty()) throw Error("tune-profile: no lab 05 BCSR variant is registered for the chosen backends");
    std::vector<int> panel_bprs;
    if (a.get("--panel-bpr", "") != "none")
        for (const std::string& s : split(a.get("--panel-bpr", "1,2,4,8,16,32,64,256"))) {
            const long long b = std::atoll(s.c_str());
            if (b < 1 || b > 4096) throw Error("tune-profile: --panel-bpr takes block counts in 1..4096 (or none), got '" + s + "'");
            panel_bprs.push_back(static_cast<int>(b));
        }
    const count_t panel_nnz = a.get_int("--panel-nnz", 8388608, 4096, 400000000);
    // A chain only adds to the panels' model: a dense-only profile (--panel-bpr none) has none.
    const count_t chain_blocks = panel_bprs.empty() ? 0 : a.get_int("--chain-blocks", 8192, 0, 1 << 20);
    RunOptions opt;
    opt.repeats = static_cast<int>(a.get_int("--repeats", 20, 1, 100000));

    BcsrProfile profile;
    for (Backend b : backends) {
        const std::string name = to_string(b) + ": " + backend_device_name(b);
        profile.device += profile.device.empty() ? name : "; " + name;
    }
    for (count_t n : sizes) {
        const Reference ref = make_reference(dense_matrix(n, width), "random");
        const CooMatrix& A = ref.matrix();
        for (const Variant* v : variants)
            for (Precision p : precisions)
                for (int r = 1; r <= 4; ++r)
                    for (int c = 1; c <= 4; ++c) {
                        opt.precision = p;
                        opt.tunables["block_r"] = r;
                        opt.tunables["block_c"] = c;
                        const double gflops = checked_gflops(*v, ref, opt, "dense " + std::to_string(A.rows) + "x" + std::to_string(A.cols));
                        profile.entries.push_back({v->name, p, r, c, A.nnz(), gflops});
                        std::printf("%-13s %-6s %dx%d  dense %7d x %-5d nnz %9lld  %9.3f GFLOP/s\n", v->name.c_str(),
                                    to_string(p).c_str(), r, c, A.rows, A.cols, static_cast<long long>(A.nnz()), gflops);
                        std::fflush(stdout);
                    }
    }
    for (int r = 1; r <= 4; ++r)
        for (int c = 1; c <= 4; ++c)
            for (int bpr : panel_bprs)
                for (PanelLayout layout : {PanelLayout::band, PanelLayout::scatter}) {
                    const Reference ref = make_reference(panel_matrix(r, c, bpr, layout, panel_nnz), "random");
                    const CooMatrix& A = ref.matrix();
                    opt.tunables["block_r"] = r;
                    opt.tunables["block_c"] = c;
                    for (const Variant* v : variants)
                        for (Precision p : precisions) {
                            opt.precision = p;
                            const double gflops = checked_gflops(*v, ref, opt, "the " + to_string(layout) + " panel with " +
                                                                 std::to_string(bpr) + " blocks per block row");
                            profile.panels.push_back({v->name, p, r, c, A.nnz(), bpr, layout, gflops});
                            std::printf("%-13s %-6s %dx%d  %-7s panel %4d blocks/block row  nnz %9lld  %9.3f GFLOP/s\n",
                                        v->name.c_str(), to_string(p).c_str(), r, c, to_string(layout).c_str(), bpr,
                                        static_cast<long long>(A.nnz()), gflops);
                            std::fflush(stdout);
                        }
                }
    for (int r = 1; r <= 4 && chain_blocks > 0; ++r)
        for (int c = 1; c <= 4; ++c) {
            const Reference ref = make_reference(chain_matrix(r, c, chain_blocks), "random");
            opt.tunables["block_r"] = r;
            opt.tunables["block_c"] = c;
            for (const Variant* v : variants)
                for (Precision p : precisions) {
                    opt.precision = p;
                    const double gflops = checked_gflops(*v, ref, opt, "the chain of " + std::to_string(chain_blocks) + " blocks");
                    profile.chains.push_back({v->name, p, r, c, ref.matrix().nnz(), chain_blocks, gflops});
                    std::printf("%-13s %-6s %dx%d  chain of %lld blocks  nnz %9lld  %9.3f GFLOP/s\n", v->name.c_str(),
                                to_string(p).c_str(), r, c, static_cast<long long>(chain_blocks),
                                static_cast<long long>(ref.matrix().nnz()), gflops);
                    std::fflush(stdout);
                }
        }
    std::ofstream out(a.get("--out"));
    if (!out) throw Error("tune-profile: cannot write '" + a.get("--out") + "'");
    profile.write(out, "Written by: spmv-kit tune-profile, " +
                           (width > 0 ? "dense panels of " + std::to_string(round_to_12(width)) + " columns"
                                      : std::string("square dense matrices")) +
                           ", panels of " + std::to_string(panel_nnz) + " entries, chains of " +
                           std::to_string(chain_blocks) + " blocks, " + std::to_string(opt.repeats) +
                           " timed repeats (median), L2 flushed before each GPU repeat.");
    if (!out.flush()) throw Error("tune-profile: writing '" + a.get("--out") + "' failed");
    std::printf("wrote %zu dense, %zu panel and %zu chain records to %s\n", profile.entries.size(),
                profile.panels.size(), profile.chains.size(), a.get("--out").c_str());
    return 0;
}

}  // namespace kit::cli
