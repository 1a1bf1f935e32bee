// bench_multi: lab 10's strong-scaling benchmark, one rank per GPU (see bench_multi.hpp). Started
// by `make bench-multi` under mpirun at each rank count; alone it runs as one rank.
#include <cstdio>
#include <exception>
#include <string>

#include "bench_multi.hpp"
#include "core/kit_error.hpp"

namespace {

const char* const kHelp =
    "usage: mpirun -np P bench_multi [--matrix stencil27|random|power-law] [--n N] [--iters K]\n"
    "                              [--warmup W] [--csv FILE] [--local KERNEL]\n"
    "                              [--remote KERNEL] [--timeline FILE]\n"
    "  one GPU per rank, double precision; stencil27 is the 27-point stencil on N^3 points\n"
    "  (N=160: 4.1M rows, 110M nonzeros), random and power-law have N rows\n"
    "  --local KERNEL  the kit's CUDA kernel for each rank's local block (default ell; any CUDA\n"
    "                  variant of 'spmv-kit list', e.g. csr-vector, csr-merge, sell; 'given': the\n"
    "                  lab's scalar CSR kernel)\n"
    "  --remote KERNEL the same for each rank's remote block (default given, which runs beside a\n"
    "                  bound local kernel; csr-merge suits a random or power-law matrix, whose\n"
    "                  remote block holds most of its entries and, power-law, rows of millions)\n"
    "  --csv FILE      rank 0 appends its result row to FILE (the header first in a new file);\n"
    "                  refused before any work if FILE's folder does not exist or FILE holds\n"
    "                  another version's columns\n"
    "  --timeline FILE after the timed runs, 5 more iterations with CUDA events at each phase\n"
    "                  (gather, NCCL exchange and remote rows on the comm stream; the local\n"
    "                  product and the remote rows' add on the local stream); rank 0 writes every\n"
    "                  rank's to FILE with -<P>ranks before its extension (timeline.csv:\n"
    "                  timeline-4ranks.csv at 4 ranks), overwriting it, and prints how much of\n"
    "                  its exchange overlapped its local product; bench/analysis/multi_timeline.py\n"
    "                  draws the file";

/// The integer given to `option`: all of `value`, or an Error naming the option (std::stoi's own
/// message is only "stoi").
int int_option(const std::string& option, const std::string& value) {
    std::size_t used = 0;
    int v = 0;
    try {
        v = std::stoi(value, &used);
    } catch (const std::exception&) {
        used = 0;  // not a number, or out of int's range
    }
    if (used == 0 || used != value.size()) throw kit::Error(option + " needs an integer, got '" + value + "'");
    return v;
}

kit::dist::BenchMultiOptions parse_options(int argc, char** argv, bool& help) {
    kit::dist::BenchMultiOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        const std::string value = has_value ? argv[i + 1] : "";
        if (a == "--help" || a == "-h")
            help = true;
        else if (a == "--matrix" && has_value)
            o.matrix = value, ++i;
        else if (a == "--n" && has_value)
            o.n = int_option(a, value), ++i;
        else if (a == "--iters" && has_value)
            o.iters = int_option(a, value), ++i;
        else if (a == "--warmup" && has_value)
            o.warmup = int_option(a, value), ++i;
        else if (a == "--csv" && has_value)
            o.csv = value, ++i;
        else if (a == "--local" && has_value)
            o.local = value, ++i;
        else if (a == "--remote" && has_value)
            o.remote = value, ++i;
        else if (a == "--timeline" && has_value)
            o.timeline = value, ++i;
        else
            throw kit::Error(std::string("unknown argument '") + a + "'\n" + kHelp);
    }
    if (o.n < 1 || o.iters < 1 || o.warmup < 0) throw kit::Error("--n and --iters must be positive");
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        bool help = false;
        const kit::dist::BenchMultiOptions o = parse_options(argc, argv, help);
        if (help) {
            std::puts(kHelp);
            return 0;
        }
#if KIT_HAVE_NCCL
        return kit::dist::run_bench_multi(o);
#else
        std::fprintf(stderr,
                     "bench_multi: not built with CUDA, MPI and NCCL (make features and make deps-info say which "
                     "is missing); it needs one GPU per rank\n");
        return 2;
#endif
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_multi: %s\n", e.what());
        return 1;
    }
}
