#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <ostream>
#include <set>

#include "core/kit_error.hpp"
#include "report_support.hpp"

namespace bench {
namespace {

constexpr double kBestRatioTarget = 1.0;
constexpr double kGeomeanTarget = 1.1;
/// A matrix/precision pair is launch-bound when every GPU kernel on it moves its bytes below this
/// share of the ceiling (%): launches, not the format, decide it, so the geomean leaves it out
/// (the same rule as bench/analysis/plot_data.py's LAUNCH_BOUND_PCT).
constexpr double kLaunchBoundPct = 10.0;
constexpr double kOwnCeilingTarget = 80.0;
constexpr double kCsr5Target = 1.0;
constexpr std::int64_t kCsrTargetNnz = 1'000'000;  // the CSR targets count matrices above this
constexpr double kCsrFamilyTarget = 1.0;           // best CSR-family kernel / cuSPARSE CSR
constexpr double kCsrMergeTarget = 0.95;           // csr-merge on its own / cuSPARSE CSR
/// The family a CSR user picks from: kernels that read CSR, or the same entries in the same
/// order (kit::Variant::family, declared by each lab).
const char* const kCsrFamily = "csr";
constexpr std::int64_t kLargeNnz = 10'000'000;
constexpr std::int64_t kDiaPathNnz = 20'000'000;
constexpr double kDiaStepCeilingTarget = 70.0;  // % of the ceiling each buffer step of lab 07 reaches
constexpr double kDiaStepSpread = 0.9;          // slowest buffer step / fastest
// Own entries with a bandwidth target: formats, and a role for the CSR kernel (is_own_kernel).
const std::vector<std::string> kTargetFormats = {"dia", "ell", "bcsr", kit::role::default_choice, "csr5"};

/// A target whose kernels ran but failed (WRONG, ERROR, refused) is missed, not "not run":
/// this reports the first such kernel, or NOT RUN when none of them ran at all.
template <class Match>
void not_measured(Checker& c, const std::vector<Record>& g, const std::string& what, Match match,
                  const std::string& why_none) {
    for (const Record& r : g)
        if (r.gpu && r.is_kit() && match(r) && r.status != "ok") {
            const std::string msg = r.message.size() > 100 ? r.message.substr(0, 97) + "..." : r.message;
            return c.check(false, what, label(r) + " " + r.status + ": " + msg);
        }
    c.not_run(what, why_none);
}

/// True if every GPU run of the group that moved bytes stayed below kLaunchBoundPct of the ceiling.
bool launch_bound(const std::vector<Record>& g) {
    bool any = false;
    for (const Record& r : g) {
        if (!r.gpu || r.status != "ok" || r.pct_ceiling <= 0) continue;
        if (r.pct_ceiling >= kLaunchBoundPct) return false;
        any = true;
    }
    return any;
}

void check_best_ratios(Checker& c, const std::vector<std::vector<const Record*>>& groups) {
    double log_sum = 0, log_sum_all = 0;
    int counted = 0, all = 0;
    for (const auto& gp : groups) {
        const std::vector<Record> g = copy_group(gp);
        const std::string what = "best kit kernel >= 1.0x cuSPARSE CSR on " + group_key(g.front());
        const Record* best = best_of(
            g, [](const Record& r) { return ok_gpu_kit(r) && r.ratio > 0; }, [](const Record& r) { return r.ratio; });
        if (!best) {
            c.not_run(what, "no GPU kit kernel with a cuSPARSE CSR time");
            continue;
        }
        c.check(best->ratio >= kBestRatioTarget, what, label(*best) + " " + fmt("%.2fx", best->ratio), best);
        log_sum_all += std::log(best->ratio);
        ++all;
        if (launch_bound(g)) continue;
        log_sum += std::log(best->ratio);
        ++counted;
    }
    const std::string what = "geomean of the best ratios >= 1.1x (pairs not launch-bound)";
    if (counted == 0) return c.not_run(what, all ? "every pair is launch-bound" : "no ratios measured");
    const double g = std::exp(log_sum / counted);
    c.check(g >= kGeomeanTarget, what,
            fmt("%.3fx", g) + " over " + std::to_string(counted) + " matrix/precision pairs; " +
                fmt("%.3fx", std::exp(log_sum_all / all)) + " with the " + std::to_string(all - counted) +
                fmt(" launch-bound ones (every GPU kernel below %.0f%% of the ceiling)", kLaunchBoundPct));
}

/// An own entry as the targets name it: a format as it is, a role as "the ROLE kernel".
std::string own_label(const std::string& own) {
    for (const kit::Variant& v : kit::registry().all())
        if (v.has_role(own)) return "the " + own + " kernel";
    return own;
}

/// True if record r ran one of a matrix's own entries (is_own_kernel).
bool is_own(const Record& r, const std::string& own) { return r.format() == own || has_role(r, own); }

void check_own_structure(Checker& c, const std::vector<std::vector<const Record*>>& groups) {
    std::set<std::string> seen;  // own entries some GPU kit kernel of this run answers to
    for (const auto& gp : groups)
        for (const Record* r : gp)
            for (const std::string& f : kTargetFormats)
                if (r->gpu && r->is_kit() && is_own(*r, f)) seen.insert(f);
    for (const auto& gp : groups) {
        const std::vector<Record> g = copy_group(gp);
        const Record& m = g.front();
        if (m.nnz < kLargeNnz) continue;
        for (const std::string& f : m.own_formats) {
            if (std::find(kTargetFormats.begin(), kTargetFormats.end(), f) == kTargetFormats.end()) continue;
            const std::string what = own_label(f) + " >= 80% of the bandwidth ceiling on own structure " + group_key(m);
            const Record* best = best_of(
                g, [&](const Record& r) { return ok_gpu_kit(r) && is_own(r, f); },
                [](const Record& r) { return r.pct_ceiling; });
            if (!best) {
                not_measured(
                    c, g, what, [&](const Record& r) { return is_own(r, f); },
                    seen.count(f) ? "its kernels did not run on this matrix (see table)"
                                  : "no " + f + " kernel ran (lab not built yet, or skipped)");
                continue;
            }
            c.check(best->pct_ceiling >= kOwnCeilingTarget, what,
                    label(*best) + " " + fmt("%.1f%%", best->pct_ceiling) + fmt(" (%.0f GB/s)", best->gbs), best);
        }
    }
}

/// Checks that the best GPU kit run among those `match` accepts, with a cuSPARSE CSR time,
/// reaches `target` x cuSPARSE CSR; with none, reports a failed run of `match` or NOT RUN.
template <class Match>
void check_ratio(Checker& c, const std::vector<Record>& g, const std::string& what, Match match, double target,
                 const std::string& why_none) {
    const Record* best = best_of(
        g, [&](const Record& r) { return ok_gpu_kit(r) && r.ratio > 0 && match(r); },
        [](const Record& r) { return r.ratio; });
    if (!best) return not_measured(c, g, what, match, why_none);
    c.check(best->ratio >= target, what, label(*best) + " " + fmt("%.2fx", best->ratio), best);
}

void check_csr5(Checker& c, const std::vector<std::vector<const Record*>>& groups) {
    bool any = false;
    for (const auto& gp : groups) {
        const std::vector<Record> g = copy_group(gp);
        if (g.front().family != "power-law") continue;
        any = true;
        check_ratio(
            c, g, "csr5 >= 1.0x cuSPARSE CSR on " + group_key(g.front()),
            [](const Record& r) { return r.format() == "csr5"; }, kCsr5Target,
            "no GPU csr5 kernel with a cuSPARSE CSR time");
    }
    if (!any) c.not_run("csr5 >= 1.0x cuSPARSE CSR on the power-law matrix", "no power-law matrix ran");
}

/// The CSR family against cuSPARSE CSR on every matrix above 1M nonzeros: its best kernel at
/// least 1.0x, and its load-balanced kernel (kit::role::load_balanced) alone at least 0.95x.
void check_csr_family(Checker& c, const std::vector<std::vector<const Record*>>& groups) {
    const auto is_balanced = [](const Record& r) {
        return in_family(r, kCsrFamily) && has_role(r, kit::role::load_balanced);
    };
    for (const auto& gp : groups) {
        const std::vector<Record> g = copy_group(gp);
        if (g.front().nnz <= kCsrTargetNnz) continue;
        const auto balanced =
            std::find_if(g.begin(), g.end(), [&](const Record& r) { return r.gpu && is_balanced(r); });
        if (balanced == g.end()) {
            c.not_run("CSR-family targets on " + group_key(g.front()),
                      "the load-balanced CSR kernel did not run here (a matrix the suite limits to its own formats, "
                      "or its lab not built)");
            continue;
        }
        check_ratio(
            c, g, "best CSR-family kernel >= 1.0x cuSPARSE CSR on " + group_key(g.front()),
            [](const Record& r) { return in_family(r, kCsrFamily); }, kCsrFamilyTarget,
            "no CSR-family GPU kernel with a cuSPARSE CSR time");
        check_ratio(c, g, balanced->kernel + " >= 0.95x cuSPARSE CSR on " + group_key(g.front()), is_balanced,
                    kCsrMergeTarget, balanced->kernel + " did not run with a cuSPARSE CSR time");
    }
}

/// Best record of each step of one lab's case-study path on one backend, in step order. A
/// case study's steps are the variants its lab gave a per-step bytes model
/// (kit::Variant::lab_bytes_per_2flops, reported as step_bound_gflops).
std::vector<Record> best_per_step(const std::vector<Record>& g, const std::string& lab, const std::string& backend) {
    std::map<int, Record> best;
    for (const Record& r : g) {
        if (r.lab != lab || r.step_bound_gflops <= 0 || r.backend != backend || !r.gpu) continue;
        auto it = best.find(r.step);
        const bool better =
            it == best.end() || (r.status == "ok" && (it->second.status != "ok" || r.gflops > it->second.gflops));
        if (better) best[r.step] = r;
    }
    std::vector<Record> path;
    for (const auto& [step, r] : best) path.push_back(r);
    return path;
}

/// Lab 07's targets, restated on measured bytes (bench/results/*/validation.md): on a GPU with
/// today's caches x and the offsets are served from L1/L2, so every buffer step (1-4) moves about
/// the bytes of the kit's model and the steps run at about the same speed. The 2010 per-step
/// bounds stay in the table (step_bound_gflops) as history, not as targets.
/// One lab's case-study path on one backend and matrix: each buffer step (1-4) against the
/// ceiling, and the slowest within 10% of the fastest. Returns false when none of its steps ran.
bool check_path_steps(Checker& c, const std::vector<Record>& g, const std::string& lab, const std::string& backend) {
    std::vector<Record> steps;
    for (const Record& r : best_per_step(g, lab, backend))
        if (r.step >= 1 && r.step <= 4) steps.push_back(r);
    if (steps.empty()) return false;
    const std::string where = " (" + lab + ", " + backend + ") on " + group_key(g.front());
    const Record *fast = nullptr, *slow = nullptr;
    for (const Record& r : steps) {
        const std::string what = "step " + std::to_string(r.step) + " >= 70% of the bandwidth ceiling" + where;
        if (r.status != "ok") {
            c.not_run(what, label(r) + " " + r.status);
            continue;
        }
        c.check(r.pct_ceiling >= kDiaStepCeilingTarget, what,
                label(r) + fmt(" %.1f%%", r.pct_ceiling) + fmt(" (%.1f GFLOP/s)", r.gflops), &r);
        if (!fast || r.gflops > fast->gflops) fast = &r;
        if (!slow || r.gflops < slow->gflops) slow = &r;
    }
    if (fast && slow && fast != slow)
        c.check(slow->gflops >= kDiaStepSpread * fast->gflops, "buffer steps 1-4 within 10% of each other" + where,
                slow->kernel + fmt(" %.1f", slow->gflops) + " vs " + fast->kernel + fmt(" %.1f GFLOP/s", fast->gflops),
                fast);
    return true;
}

/// The DIA case study's path on the radius-5 matrices of >= 20M nonzeros, for every lab whose
/// variants carry a case study's per-step bytes model.
void check_dia_path(Checker& c, const std::vector<std::vector<const Record*>>& groups) {
    bool any = false;
    for (const auto& gp : groups) {
        const std::vector<Record> g = copy_group(gp);
        if (g.front().family != "radius" || g.front().nnz < kDiaPathNnz) continue;
        std::set<std::string> labs;
        for (const Record& r : g)
            if (r.step_bound_gflops > 0) labs.insert(r.lab);
        for (const std::string& lab : labs)
            for (const std::string backend : {"opencl", "cuda"}) any = check_path_steps(c, g, lab, backend) || any;
    }
    if (!any)
        c.not_run("DIA case-study path on radius-5 with >= 20M nonzeros",
                  "no GPU kernel with a case study's per-step model ran on such a matrix");
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
}

}  // namespace

std::string format_of(const std::string& name) {
    const std::string kernel = name.substr(0, name.find('@'));
    const std::string prefix = "cusparse-";
    if (kernel.compare(0, prefix.size(), prefix) == 0)  // "cusparse-csr-alg2" is cuSPARSE's CSR too
        return prefix + kernel.substr(prefix.size(), kernel.find('-', prefix.size()) - prefix.size());
    const std::size_t dash = kernel.find('-');
    const std::string head = kernel.substr(0, dash);
    if (head == "csr" && dash != std::string::npos) return kernel;
    return head;
}

std::string Record::format() const { return format_of(kernel); }

bool is_own_kernel(const kit::Variant& v, const std::string& own) {
    return format_of(v.name) == own || v.has_role(own);
}

void print_table(std::ostream& out, const std::vector<Record>& records) {
    out << "Cold figures first (median; caches evicted before each call), then steady GFLOP/s and its % of\n"
           "the ceiling (calls back to back, as a solver makes them; GPU runs only).\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-30s %9s %9s %7s %9s %7s %8s %9s  %s\n", "kernel", "GFLOP/s", "GB/s", "%ceil",
                  "steady", "%ceil", "x cuSP", "error", "note");
    for (const auto& gp : groups_of(records)) {
        std::vector<Record> g = copy_group(gp);
        std::stable_sort(g.begin(), g.end(), [](const Record& a, const Record& b) {
            if ((a.status == "ok") != (b.status == "ok")) return a.status == "ok";
            return a.gflops > b.gflops;
        });
        const Record& m = g.front();
        out << "\n== " << m.matrix << " (" << m.family << ", " << m.nnz << " nnz) " << m.precision << "\n" << line;
        for (const Record& r : g) {
            if (r.status != "ok") {
                const std::string msg = r.message.size() > 120 ? r.message.substr(0, 117) + "..." : r.message;
                out << "  " << label(r) << std::string(label(r).size() < 28 ? 28 - label(r).size() : 1, ' ') << " "
                    << r.status << ": " << msg << "\n";
                continue;
            }
            const std::string ratio = r.ratio > 0 ? fmt("%.2fx", r.ratio) : "-";
            // the full note is in summary.csv and the JSON label
            const std::string note = r.note.size() > 60 ? r.note.substr(0, 57) + "..." : r.note;
            char row[512];
            const std::string steady = r.steady_ms > 0 ? fmt("%9.2f", r.steady_gflops) : std::string("        -");
            const std::string steady_pct =
                r.steady_ms > 0 ? fmt("%6.1f%%", r.steady_pct_ceiling) : std::string("      -");
            std::snprintf(row, sizeof row, "  %-28s %9.2f %9.1f %6.1f%% %s %s %8s %9.1e  %s\n", label(r).c_str(),
                          r.gflops, r.gbs, r.pct_ceiling, steady.c_str(), steady_pct.c_str(), ratio.c_str(), r.error,
                          note.c_str());
            out << row;
        }
    }
}

TargetTally print_targets(std::ostream& out, const std::vector<Record>& records, bool have_gpu) {
    out << "\n== Target checks (GPU results; figures from this run)\n";
    Checker c(out);
    if (!have_gpu) {
        c.not_run("all GPU targets",
                  "no CUDA device in this run: the targets are checked on the GPU (make bench on a GPU node)");
        return c.tally;
    }
    const auto groups = groups_of(records);
    check_best_ratios(c, groups);
    check_own_structure(c, groups);
    check_csr5(c, groups);
    check_csr_family(c, groups);
    check_dia_path(c, groups);
    check_format_choice(c, groups);
    out << "Targets: " << c.tally.pass << " PASS, " << c.tally.miss << " MISS, " << c.tally.not_run << " NOT RUN\n";
    return c.tally;
}

void write_csv(const std::string& path, const std::vector<Record>& records) {
    std::ofstream f(path);
    if (!f) throw kit::Error("cannot write " + path);
    f << "matrix,family,nnz,precision,backend,kernel,format,lab,step,status,ms,gflops,gbs,pct_ceiling,steady_ms,"
         "steady_gflops,steady_pct_ceiling,vs_cusparse,bound_gflops,step_bound_gflops,error,predicted_ms,model_pick,"
         "device,note,"
         "message\n";
    for (const Record& r : records) {
        f << csv_field(r.matrix) << ',' << r.family << ',' << r.nnz << ',' << r.precision << ',' << r.backend << ','
          << csv_field(r.kernel) << ',' << r.format() << ',' << r.lab << ',' << r.step << ',' << r.status << ',' << r.ms
          << ',' << r.gflops << ',' << r.gbs << ',' << r.pct_ceiling << ',' << r.steady_ms << ',' << r.steady_gflops
          << ',' << r.steady_pct_ceiling << ',' << r.ratio << ',' << r.bound_gflops << ',' << r.step_bound_gflops << ','
          << r.error << ',' << r.predicted_ms << ',' << (r.model_pick ? 1 : 0) << ',' << csv_field(r.device) << ','
          << csv_field(r.note) << ',' << csv_field(r.message) << '\n';
    }
}

}  // namespace bench
