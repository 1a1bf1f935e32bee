#include <algorithm>
#include <cstdio>
#include <iostream>

#include "core/args.hpp"
#include "commands.hpp"
#include "cuda_catalogue.hpp"
#include "io/matrix_market.hpp"

namespace kit::cli {
namespace {

const char* kTableHelp =
    "usage: spmv-kit table FILE.mtx... [--repeats N] [--precision float|double|both]\n\n"
    "Runs every registered variant on every available backend on each matrix, checks\n"
    "each against the oracle, and prints one table (this is what 'make run' does).\n"
    "Backends that cannot run here are listed once, with the reason.\n"
    "Exit status 1 if any variant gives a wrong result or an error.\n";

/// What the table has seen so far: failures, and the variants whose step is still a TODO.
struct TableTally {
    int bad = 0;
    std::vector<std::string> todo;  // named once each
};

void print_backends(const RunOptions& opt) {
    for (Backend b : {Backend::cpu, Backend::cuda, Backend::opencl})
        if (auto why = backend_unavailable(b, opt))
            std::printf("note: %s variants skipped: %s\n", to_string(b).c_str(), why->c_str());
        else
            std::printf("note: %s runs on %s\n", to_string(b).c_str(), backend_device_name(b).c_str());
}

/// One row: variant v on the matrix `name` as configured in `opt`.
void table_row(const std::string& name, const Variant& v, const Reference& ref, const RunOptions& opt,
               TableTally& tally) {
    const CheckedRun c = run_checked(v, ref, opt);
    if (is_failure(c.status)) ++tally.bad;
    const std::string label =
        v.name + " (" + to_string(v.backend) + ", " + v.lab + " step " + std::to_string(v.step) + ")";
    if (c.status == RunStatus::todo && std::find(tally.todo.begin(), tally.todo.end(), label) == tally.todo.end())
        tally.todo.push_back(label);
    std::printf("%-20s %-16s %-7s %-7s %-8s ", name.c_str(), v.name.c_str(), to_string(v.backend).c_str(),
                to_string(opt.precision).c_str(), to_string(c.status).c_str());
    const bool checked = c.status == RunStatus::ok || c.status == RunStatus::wrong;
    const bool timed = c.status == RunStatus::ok && c.result.median_ms() > 0;
    if (checked)
        std::printf("%11.3g ", c.mismatch.max_error);
    else
        std::printf("%11s ", "-");
    if (timed)
        std::printf("%10.2f %9.3f %9.3f\n", c.result.median_ms() * 1e3, c.gflops, c.gbytes);
    else
        std::printf("%10s %9s %9s\n", "-", "-", "-");
    if (c.status != RunStatus::ok) std::printf("    %s\n", c.message.c_str());
}

/// Every variant that can run here, in every precision, on one matrix file.
void table_matrix(const std::string& file, const std::vector<Precision>& precisions, RunOptions opt,
                  TableTally& tally) {
    // the oracle runs once per matrix; the reader refuses a size line whose vectors cannot fit
    const Reference ref = make_reference(read_matrix_market(file, nullptr, checked_run_read_options()), "auto");
    const CooMatrix& A = ref.matrix();
    const std::string name = file.substr(file.find_last_of('/') + 1);
    std::fprintf(stderr, "running %s (%d x %d, %lld nonzeros)...\n", name.c_str(), A.rows, A.cols,
                 static_cast<long long>(A.nnz()));
    for (const Variant& v : registry().all()) {
        if (backend_unavailable(v.backend, opt)) continue;
        for (Precision p : precisions) {
            opt.precision = p;
            table_row(name, v, ref, opt, tally);
        }
    }
}

int print_verdict(const TableTally& tally) {
    std::printf("\n");
    if (!tally.todo.empty()) {
        std::printf("%zu variant(s) not implemented yet (TODO):", tally.todo.size());
        for (const std::string& t : tally.todo) std::printf("\n  %s", t.c_str());
        std::printf("\n");
    }
    if (tally.bad)
        std::printf("Some variants gave wrong results or errors (see above).\n");
    else if (tally.todo.empty())
        std::printf("All variants that ran match the oracle.\n");
    else
        std::printf("All variants that are implemented match the oracle; the TODO ones above did not run.\n");
    return tally.bad ? 1 : 0;
}

}  // namespace

int cmd_table(const std::vector<std::string>& argv) {
    const Args a(argv, {"--repeats", "--precision", "--cl-platform", "--cl-device"}, {"--help"}, "table");
    if (a.has("--help") || a.positional().empty()) {
        std::cout << kTableHelp;
        return a.has("--help") ? 0 : 2;
    }
    const std::string prec = a.get("--precision", "both");
    const std::vector<Precision> precisions = prec == "both" ? std::vector<Precision>{Precision::f32, Precision::f64}
                                                             : std::vector<Precision>{parse_precision(prec)};
    RunOptions opt;
    opt.repeats = static_cast<int>(a.get_int("--repeats", 10, 0, 100000));
    opt.opencl = {a.get("--cl-platform"), a.get("--cl-device")};
    print_backends(opt);
    TableTally tally;
    std::printf("\n%-20s %-16s %-7s %-7s %-8s %11s %10s %9s %9s\n", "matrix", "variant", "backend", "prec", "status",
                "max error", "time us", "GFLOP/s", "GB/s");
    for (const std::string& file : a.positional()) table_matrix(file, precisions, opt, tally);
    return print_verdict(tally);
}

namespace {
/// One row of `list`.
void print_variant_line(const Variant& v, const std::string& what) {
    std::printf("%-16s %-7s %-18s %s\n", v.name.c_str(), to_string(v.backend).c_str(),
                (v.lab + " step " + std::to_string(v.step)).c_str(), what.c_str());
}
}  // namespace

int cmd_list(const std::vector<std::string>& argv) {
    const Args a(argv, {}, {"--help", "--cuda-catalogue", "--check-cuda-catalogue"}, "list");
    if (a.has("--help")) {
        std::cout
            << "usage: spmv-kit list [--cuda-catalogue]\n\nLists every registered variant: name, backend, lab "
               "step, how threads map to data, and the\n"
               "tunables it reads (spmv-kit run --set NAME=V), with their ranges. A build without CUDA also\n"
               "lists the labs' CUDA kernels, marked as not built.\n"
               "  --cuda-catalogue  print cli/cuda_catalogue.cpp as this CUDA build implies it (make cuda-catalogue)\n"
               "  --check-cuda-catalogue  exit 1 if the catalogue lacks a CUDA variant this build registers\n";
        return 0;
    }
    if (a.has("--cuda-catalogue")) {
        std::cout << cuda_catalogue_source();
        return 0;
    }
    if (a.has("--check-cuda-catalogue")) {
        const std::vector<std::string> misses = cuda_catalogue_misses();
        for (const std::string& m : misses)
            std::cerr << "cli/cuda_catalogue.cpp lacks or misdescribes the CUDA variant " << m << "\n";
        return misses.empty() ? 0 : 1;
    }
    std::printf("%-16s %-7s %-18s %s\n", "variant", "backend", "lab step", "thread mapping");
    for (const Variant& v : registry().all()) {
        print_variant_line(v, v.summary);
        // the tunables `spmv-kit run --set NAME=V` takes, as the lab declared them
        for (const Tunable& t : v.tunables)
            std::printf("%-16s   tunable %s in %d..%d: %s\n", "", t.name.c_str(), t.min, t.max, t.help.c_str());
    }
    for (const Variant& v : unbuilt_cuda_variants()) print_variant_line(v, "(not built: nvcc not found at build time)");
    return 0;
}

}  // namespace kit::cli
