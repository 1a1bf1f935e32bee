// spmv-kit sell-sweep: the (C, sigma) grid timed against the rule's pick (lab 11, step 3).
#include "sell_sweep.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>

#include "check/checked_run.hpp"
#include "core/args.hpp"
#include "core/kit_error.hpp"
#include "io/generators.hpp"
#include "io/matrix_market.hpp"
#include "sell_run.hpp"

namespace kit::sell {

namespace {

const char* kHelp =
    "usage: spmv-kit sell-sweep FILE... [--backend cuda|cpu] [--precision float|double|both]\n"
    "                           [--repeats N] [--csv OUT]\n\n"
    "Times the 'sell' kernel on each matrix for every C of 32, 64 and 128 with every sigma the rule\n"
    "tries for it (1, C, 4C, 16C, ... up to all rows), checked against the oracle, and sell-auto's\n"
    "pick (choose_sell, lab 11 step 3, sorted globally for scattered rows). Prints one line per\n"
    "setting (cold median and steady time per call), then per matrix the pick's cold time over the sweep's best, and how many picks are\n"
    "within 5% of it. --csv writes the same rows. Default: cuda, both precisions, 20 repeats.\n";

/// The chunk heights the sweep tries: the rule's, and one beyond (is a taller chunk ever faster?).
const std::vector<index_t> kSweepC = {32, 64, 128};
/// A pick within this factor of the sweep's best cold time counts as a good pick.
constexpr double kGoodPick = 1.05;

struct Setting {
    index_t C, sigma;
    bool picked;
};

/// One timed setting: a CSV row and the cold median (infinity when it did not run correctly).
double time_setting(const Variant& v, const Reference& ref, RunOptions opt, const Setting& s, const std::string& file,
                    std::ostream& csv) {
    opt.tunables = {{kSellC, s.C}, {kSellSigma, s.sigma}};
    const CheckedRun run = run_checked(v, ref, opt);
    const bool ok = run.status == RunStatus::ok;
    const double cold = ok ? run.result.median_ms() : std::numeric_limits<double>::infinity();
    const std::string line =
        file + "," + to_string(opt.precision) + "," + std::to_string(s.C) + "," + std::to_string(s.sigma) + "," +
        (s.picked ? "pick" : "sweep") + "," +
        (ok ? std::to_string(cold) + "," + std::to_string(run.result.steady_ms) : to_string(run.status) + ",") + ",\"" +
        run.result.note + "\"";
    std::printf("%s\n", line.c_str());
    csv << line << "\n";
    return cold;
}

/// The sweep of one matrix in one precision: 1 if the pick is within kGoodPick of the best,
/// 0 if not, -1 if no setting ran (a refused conversion, an unavailable backend).
int sweep_matrix(const Variant& v, const Reference& ref, RunOptions opt, const std::string& file, std::ostream& csv) {
    const CooMatrix& A = ref.matrix();
    const count_t value_bytes = value_bytes_of(opt.precision);
    const SellCandidate pick = auto_setting(A, value_bytes);
    double best = std::numeric_limits<double>::infinity();
    for (index_t C : kSweepC)
        for (index_t sigma : sigma_candidates(C, A.rows))
            best = std::min(best, time_setting(v, ref, opt, {C, sigma, false}, file, csv));
    const double picked = time_setting(v, ref, opt, {pick.C, pick.sigma, true}, file, csv);
    best = std::min(best, picked);
    if (best == std::numeric_limits<double>::infinity()) {
        std::printf("# %s %s: no setting ran (see the rows above)\n", file.c_str(), to_string(opt.precision).c_str());
        return -1;
    }
    const bool good = picked <= kGoodPick * best;
    std::printf("# %s %s: pick C=%d sigma=%d %.4f ms, sweep best %.4f ms: %.3fx%s\n", file.c_str(),
                to_string(opt.precision).c_str(), pick.C, pick.sigma, picked, best, picked / best,
                good ? "" : "  (more than 5% slower)");
    return good ? 1 : 0;
}

/// The sweep of one file in every precision; adds to good and pairs. A file the reader
/// refuses is reported and skipped, so one bad file does not end a sweep of hundreds.
void sweep_file(const Variant& v, const std::string& file, const std::vector<Precision>& precisions, RunOptions opt,
                std::ostream& csv, int& good, int& pairs) {
    std::fprintf(stderr, "sell-sweep: %s\n", file.c_str());
    std::optional<Reference> ref;
    try {
        CooMatrix A = read_matrix_market(file, nullptr, checked_run_read_options());
        RandomXY xy = random_xy(A.cols, A.rows, 42);
        ref.emplace(std::move(A), std::move(xy.x), std::move(xy.y));
    } catch (const Error& e) {
        std::printf("# %s: skipped: %s\n", file.c_str(), e.what());
        return;
    }
    for (Precision p : precisions) {
        opt.precision = p;
        const int verdict = sweep_matrix(v, *ref, opt, file.substr(file.find_last_of('/') + 1), csv);
        if (verdict < 0) continue;
        good += verdict;
        ++pairs;
    }
}

int sweep_main(const std::vector<std::string>& args) {
    const Args a(args, {"--backend", "--precision", "--repeats", "--csv"}, {"--help"}, "sell-sweep");
    if (a.has("--help") || a.positional().empty()) {
        std::cout << kHelp;
        return a.has("--help") ? 0 : 2;
    }
    const Backend backend = parse_backend(a.get("--backend", "cuda"));
    const Variant* v = registry().find("sell", backend);
    if (!v) throw Error("sell-sweep: no 'sell' variant on " + to_string(backend) + " in this build");
    if (auto why = backend_unavailable(backend)) throw BackendUnavailable(to_string(backend) + ": " + *why);
    const std::string which = a.get("--precision", "both");
    std::vector<Precision> precisions;
    if (which == "both")
        precisions = {Precision::f32, Precision::f64};
    else
        precisions = {parse_precision(which)};
    RunOptions opt;
    opt.repeats = static_cast<int>(a.get_int("--repeats", 20, 1, 10000));
    opt.steady_calls = 10 * opt.repeats;
    std::ofstream csv;  // without --csv, unopened: its writes do nothing
    if (a.has("--csv")) {
        csv.open(a.get("--csv"));
        if (!csv) throw Error("sell-sweep: cannot write " + a.get("--csv"));
    }
    csv << "matrix,precision,C,sigma,kind,cold_ms,steady_ms,note\n";
    int good = 0, pairs = 0;
    for (const std::string& file : a.positional()) sweep_file(*v, file, precisions, opt, csv, good, pairs);
    std::printf("# the pick within 5%% of the sweep's best on %d of %d matrix/precision pairs\n", good, pairs);
    return 0;
}

}  // namespace

LabTool sweep_tool() {
    return {"sell-sweep", "11-sell",
            "sell-sweep FILE...        time SELL over a (C, sigma) grid against the rule's pick (lab 11)", sweep_main};
}

}  // namespace kit::sell
