#include <cstdio>
#include <iostream>

#include "cli_args.hpp"
#include "commands.hpp"
#include "matrix_market.hpp"

namespace kit::cli {

int cmd_table(const std::vector<std::string>& argv) {
    const Args a(argv, {"--repeats", "--precision", "--cl-platform", "--cl-device"}, {"--help"}, "table");
    if (a.has("--help") || a.positional().empty()) {
        std::cout << "usage: spmv-kit table FILE.mtx... [--repeats N] [--precision float|double|both]\n\n"
                     "Runs every registered variant on every available backend on each matrix, checks\n"
                     "each against the oracle, and prints one table (this is what 'make run' does).\n"
                     "Backends that cannot run here are listed once, with the reason.\n"
                     "Exit status 1 if any variant gives a wrong result or an error.\n";
        return a.has("--help") ? 0 : 2;
    }
    select_opencl(a.get("--cl-platform"), a.get("--cl-device"));
    const std::string prec = a.get("--precision", "both");
    std::vector<Precision> precisions;
    if (prec == "both") precisions = {Precision::f32, Precision::f64};
    else precisions = {parse_precision(prec)};
    RunOptions opt;
    opt.repeats = static_cast<int>(a.get_int("--repeats", 10, 0, 100000));

    for (Backend b : {Backend::cpu, Backend::cuda, Backend::opencl})
        if (auto why = backend_unavailable(b)) std::printf("note: %s variants skipped: %s\n", to_string(b).c_str(), why->c_str());
        else std::printf("note: %s runs on %s\n", to_string(b).c_str(), backend_device_name(b).c_str());

    int bad = 0;
    std::printf("\n%-20s %-16s %-7s %-7s %-8s %11s %10s %9s %9s\n", "matrix", "variant", "backend", "prec", "status",
                "max error", "time us", "GFLOP/s", "GB/s");
    for (const std::string& file : a.positional()) {
        const CooMatrix A = read_matrix_market(file);
        std::vector<double> x, y;
        make_vectors(A, "auto", x, y);
        const std::string name = file.substr(file.find_last_of('/') + 1);
        std::fprintf(stderr, "running %s (%d x %d, %lld nonzeros)...\n", name.c_str(), A.rows, A.cols,
                     static_cast<long long>(A.nnz()));
        for (const Variant& v : registry().all()) {
            if (backend_unavailable(v.backend)) continue;
            for (Precision p : precisions) {
                opt.precision = p;
                const Outcome o = execute(v, A, x, y, opt);
                if (o.status == "WRONG" || o.status == "ERROR") ++bad;
                std::printf("%-20s %-16s %-7s %-7s %-8s %11.3g %10.2f %9.3f %9.3f\n", name.c_str(), v.name.c_str(),
                            to_string(v.backend).c_str(), to_string(p).c_str(), o.status.c_str(), o.max_error,
                            o.result.median_ms() * 1e3, o.gflops, o.gbytes);
                if (o.status != "ok") std::printf("    %s\n", o.message.c_str());
            }
        }
    }
    std::printf("\n%s\n", bad ? "Some variants gave wrong results or errors (see above)."
                              : "All variants that ran match the oracle.");
    return bad ? 1 : 0;
}

int cmd_list(const std::vector<std::string>& argv) {
    const Args a(argv, {}, {"--help"}, "list");
    if (a.has("--help")) {
        std::cout << "usage: spmv-kit list\n\nLists every registered variant: name, backend, lab step, and how threads map to data.\n";
        return 0;
    }
    std::printf("%-16s %-7s %-18s %s\n", "variant", "backend", "lab step", "thread mapping");
    for (const Variant& v : registry().all())
        std::printf("%-16s %-7s %-18s %s\n", v.name.c_str(), to_string(v.backend).c_str(),
                    (v.lab + " step " + std::to_string(v.step)).c_str(), v.summary.c_str());
    return 0;
}

}  // namespace kit::cli
