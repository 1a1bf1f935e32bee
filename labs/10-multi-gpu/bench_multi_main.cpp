// bench_multi: lab 10's strong-scaling benchmark, one rank per GPU (see bench_multi.hpp). Started
// by `make bench-multi` under mpirun at each rank count; alone it runs as one rank.
#include <cstdio>
#include <string>

#include "bench_multi.hpp"
#include "core/kit_error.hpp"

namespace {

const char* const kHelp =
    "usage: mpirun -np P bench_multi [--matrix stencil27|random|power-law] [--n N] [--iters K]\n"
    "                              [--warmup W] [--csv FILE] [--local KERNEL]\n"
    "                              [--remote KERNEL]\n"
    "  one GPU per rank, double precision; stencil27 is the 27-point stencil on N^3 points\n"
    "  (N=160: 4.1M rows, 110M nonzeros), random and power-law have N rows\n"
    "  --local KERNEL  the kit's CUDA kernel for each rank's local block (default ell; any CUDA\n"
    "                  variant of 'spmv-kit list', e.g. csr-vector, csr-merge, sell; 'given': the\n"
    "                  lab's scalar CSR kernel)\n"
    "  --remote KERNEL the same for each rank's remote block (default given; csr-vector suits a\n"
    "                  random matrix, whose remote block holds most of its entries)";

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
            o.n = std::stoi(value), ++i;
        else if (a == "--iters" && has_value)
            o.iters = std::stoi(value), ++i;
        else if (a == "--warmup" && has_value)
            o.warmup = std::stoi(value), ++i;
        else if (a == "--csv" && has_value)
            o.csv = value, ++i;
        else if (a == "--local" && has_value)
            o.local = value, ++i;
        else if (a == "--remote" && has_value)
            o.remote = value, ++i;
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
