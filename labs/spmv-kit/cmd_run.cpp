#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "bcsr_tuner.hpp"
#include "cli_args.hpp"
#include "commands.hpp"
#include "kit_error.hpp"
#include "matrix_market.hpp"

namespace kit::cli {
namespace {

const char* kRunHelp =
    "usage: spmv-kit run FILE.mtx --format F [options]\n\n"
    "Runs one SpMV variant, y <- y + A x, checks y against the double-precision oracle,\n"
    "and reports the error and the speed.\n\n"
    "  --format F        variant name (spmv-kit list shows them), e.g. csr, csr-vector, coo-atomic\n"
    "  --backend B       cpu | cuda | opencl          (default: cuda if the variant has it, else cpu)\n"
    "  --precision P     float | double               (default: double)\n"
    "  --impl I          reference | starter          (handled by the ./spmv-kit wrapper)\n"
    "  --vectors V       auto | ones | ramp | random  (auto: ramp 1..n up to 16 rows, else ones)\n"
    "  --repeats N       timed repeats after 2 warm-ups (default 20)\n"
    "  --block RxC|auto  block size for the bcsr variants (default auto: the lab 05 autotuner picks it\n"
    "                    and prints its table; profile $KIT_BCSR_PROFILE or labs/05-bcsr/profile_default.txt)\n"
    "  --cl-platform P   OpenCL platform index or name part (default: first with a GPU, else first)\n"
    "  --cl-device D     OpenCL device index or name part\n"
    "Exit status: 0 if y matches the oracle, 1 if not, 2 on bad input or an unavailable backend.\n";

const Variant& pick_variant(const std::string& name, const std::string& backend) {
    if (!backend.empty()) {
        const Backend b = parse_backend(backend);
        if (const Variant* v = registry().find(name, b)) return *v;
        if (auto why = backend_unavailable(b)) throw BackendUnavailable(to_string(b) + " backend unavailable: " + *why);
        throw Error("no variant '" + name + "' on " + backend + "; 'spmv-kit list' shows what exists");
    }
    // Prefer a backend that can run here: the GPU first, then the CPU, then OpenCL.
    for (bool need_available : {true, false})
        for (Backend b : {Backend::cuda, Backend::cpu, Backend::opencl})
            if (const Variant* v = registry().find(name, b); v && (!need_available || !backend_unavailable(b)))
                return *v;
    throw Error("no variant named '" + name + "'; 'spmv-kit list' shows what exists");
}

void parse_block(const std::string& s, RunOptions& opt) {
    if (s.empty() || s == "auto") return;
    int r = 0, c = 0;
    char x = 0;
    if (std::sscanf(s.c_str(), "%d%c%d", &r, &x, &c) != 3 || x != 'x' || r < 1 || r > 4 || c < 1 || c > 4)
        throw Error("--block must be RxC with R, C in 1..4 (e.g. 2x2), or auto; got '" + s + "'");
    opt.block_r = r;
    opt.block_c = c;
}

/// Shows the BCSR autotuner's table and pick before an auto-blocked run. The run itself
/// repeats the choice; a tuner that fails here (a TODO, a missing profile) fails there too.
void print_block_choice(const CooMatrix& A, const std::string& variant, Precision p) {
    try {
        const BcsrProfile& profile = bcsr::active_profile();
        bcsr::print_choice(bcsr::choose_block(A, profile, variant, p), profile);
    } catch (const Error& e) {
        std::printf("tuner      %s\n", e.what());
    }
}

}  // namespace

int cmd_run(const std::vector<std::string>& argv) {
    const Args a(argv, {"--format", "--backend", "--precision", "--impl", "--vectors", "--repeats", "--block",
                        "--cl-platform", "--cl-device"},
                 {"--help"}, "run");
    if (a.has("--help")) {
        std::cout << kRunHelp;
        return 0;
    }
    if (a.positional().size() != 1 || !a.has("--format")) {
        std::cerr << kRunHelp;
        return 2;
    }
    select_opencl(a.get("--cl-platform"), a.get("--cl-device"));
    const CooMatrix A = read_matrix_market(a.positional()[0]);
    RunOptions opt;
    opt.precision = parse_precision(a.get("--precision", "double"));
    opt.repeats = static_cast<int>(a.get_int("--repeats", 20, 0, 100000));
    parse_block(a.get("--block"), opt);
    std::vector<double> x, y;
    make_vectors(A, a.get("--vectors", "auto"), x, y);
    const Variant& v = pick_variant(a.get("--format"), a.get("--backend"));
    const char* impl = std::getenv("KIT_IMPL");

    std::printf("matrix     %s (%d x %d, %lld nonzeros)\n", a.positional()[0].c_str(), A.rows, A.cols,
                static_cast<long long>(A.nnz()));
    std::printf("variant    %s on %s, %s, %s code (%s step %d: %s)\n", v.name.c_str(), to_string(v.backend).c_str(),
                to_string(opt.precision).c_str(), impl ? impl : "reference", v.lab.c_str(), v.step, v.summary.c_str());
    if (v.lab == "05-bcsr" && opt.block_r == 0) print_block_choice(A, v.name, opt.precision);
    const Outcome o = execute(v, A, x, y, opt);
    if (o.status != "ok" && o.status != "WRONG") {
        std::printf("result     %s: %s\n", o.status.c_str(), o.message.c_str());
        return o.status == "TODO" ? 1 : 2;
    }
    std::printf("device     %s\n", o.result.device.c_str());
    if (o.result.y.size() <= 16) {
        std::printf("y          [");
        for (std::size_t i = 0; i < o.result.y.size(); ++i) std::printf("%s%.9g", i ? ", " : "", o.result.y[i]);
        std::printf("]\n");
    } else {
        double norm = 0;
        for (double v2 : o.result.y) norm += v2 * v2;
        std::printf("||y||_2    %.9g (%zu entries)\n", std::sqrt(norm), o.result.y.size());
    }
    if (!o.result.note.empty()) std::printf("format     %s\n", o.result.note.c_str());
    std::printf("error      max |y - oracle| = %.3g: %s\n", o.max_error,
                o.status == "ok" ? "within the bound-derived tolerance" : o.message.c_str());
    if (opt.repeats > 0)
        std::printf("speed      median %.4f ms over %d repeats: %.3f GFLOP/s, %.3f GB/s (bytes model %lld B)\n",
                    o.result.median_ms(), opt.repeats, o.gflops, o.gbytes, static_cast<long long>(o.result.bytes));
    return o.status == "ok" ? 0 : 1;
}

}  // namespace kit::cli
