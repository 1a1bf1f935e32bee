// Lab 08's evaluation (issue "Lab 08: choosing the format"): on every matrix where the model
// predicted the covered kernels, the measured time of its pick against the best kit kernel,
// against two rules a user would otherwise follow (always the kernel a lab declares the default
// choice, kit::role::default_choice; "cuSPARSE CSR"), and
// the error of each predicted time. Cold figures, as every other target.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "report_support.hpp"
#include "core/timing.hpp"

namespace bench {
namespace {

constexpr double kPickSlack = 1.10;          // the pick within 10% of the best kit kernel's time
constexpr double kPickShare = 0.90;          // on at least 90% of the matrices, per precision
constexpr double kMedianErrorTarget = 0.20;  // median |predicted / measured - 1| per kernel
constexpr std::int64_t kErrorNnz = 1'000'000;

/// The fastest ok record passing `keep`, by cold time; nullptr if none.
template <class Keep>
const Record* fastest(const std::vector<Record>& g, Keep keep) {
    return best_of(g, keep, [](const Record& r) { return -r.ms; });
}

/// Time over the best kit kernel's, per rule, summed in logs for a geometric mean.
struct RuleTally {
    double log_sum = 0;
    int count = 0;
    void add(double ms, double best_ms) { log_sum += std::log(ms / best_ms), ++count; }
    double geomean() const { return count ? std::exp(log_sum / count) : 0; }
};

}  // namespace

void check_format_choice(Checker& c, const std::vector<std::vector<const Record*>>& groups) {
    std::map<std::string, std::pair<int, int>> within;  // precision -> (picks within 10%, matrices)
    RuleTally pick_rule, vector_rule, cusparse_rule;    // over the matrices where all three ran
    std::map<std::string, std::vector<double>> errors;  // kernel -> |predicted / measured - 1|
    std::string vector_name = "the default choice";     // the kernel of the "always" rule, once it ran
    for (const auto& gp : groups) {
        const std::vector<Record> g = copy_group(gp);
        const Record* pick = nullptr;
        for (const Record& r : g)
            if (r.model_pick) pick = &r;
        if (!pick) continue;  // the model did not run on this matrix (limited, or not built in)
        const Record* best = fastest(g, ok_gpu_kit);
        const std::string what = "lab 08 pick within 10% of the best kit kernel on " + group_key(g.front());
        auto& [hits, total] = within[g.front().precision];
        ++total;
        if (pick->status != "ok" || !best) {
            c.check(false, what, label(*pick) + " " + pick->status);
            continue;
        }
        const bool hit = pick->ms <= kPickSlack * best->ms;
        hits += hit;
        c.check(hit, what,
                pick->kernel + fmt(" %.4f ms", pick->ms) + " vs " + best->kernel + fmt(" %.4f ms", best->ms));
        // The rule a user follows without a model: always the kernel its lab calls the default choice.
        const Record* vec =
            fastest(g, [](const Record& r) { return ok_gpu_kit(r) && has_role(r, kit::role::default_choice); });
        const Record* csp = fastest(g, [](const Record& r) {
            return r.status == "ok" && r.gpu && !r.is_kit() && r.format() == "cusparse-csr";
        });
        if (vec && csp) {
            vector_name = vec->kernel;
            pick_rule.add(pick->ms, best->ms);
            vector_rule.add(vec->ms, best->ms);
            cusparse_rule.add(csp->ms, best->ms);
        }
        for (const Record& r : g)
            if (r.status == "ok" && r.predicted_ms > 0 && r.nnz > kErrorNnz)
                errors[r.kernel].push_back(std::abs(r.predicted_ms / r.ms - 1.0));
    }
    if (within.empty())
        return c.not_run("lab 08's format choice", "no matrix with the model's predictions ran on a GPU");
    for (const auto& [precision, counts] : within)
        c.check(counts.first >= kPickShare * counts.second,
                "lab 08 pick within 10% on >= 90% of the matrices, " + precision,
                std::to_string(counts.first) + " of " + std::to_string(counts.second));
    if (pick_rule.count)
        c.check(pick_rule.geomean() < std::min(vector_rule.geomean(), cusparse_rule.geomean()),
                "lab 08 pick better on average than 'always " + vector_name + "' and 'cuSPARSE CSR'",
                "time / best kit kernel, geomean over " + std::to_string(pick_rule.count) + " matrices: pick" +
                    fmt(" %.3f", pick_rule.geomean()) + ", " + vector_name + fmt(" %.3f", vector_rule.geomean()) +
                    ", cuSPARSE CSR" + fmt(" %.3f", cusparse_rule.geomean()));
    for (const auto& [kernel, e] : errors)
        c.check(kit::median(e) <= kMedianErrorTarget,
                "lab 08 median |predicted/measured - 1| <= 20% for " + kernel + " (> 1M nnz)",
                fmt("%.1f%%", 100 * kit::median(e)) + " over " + std::to_string(e.size()) + " matrix/precision pairs");
}

}  // namespace bench
