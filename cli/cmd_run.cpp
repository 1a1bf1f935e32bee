#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

#include "cli_args.hpp"
#include "commands.hpp"
#include "model/format_model.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"

namespace kit::cli {
namespace {

const char* kRunHelp =
    "usage: spmv-kit run FILE.mtx --format F [options]\n\n"
    "Runs one SpMV variant, y <- y + A x, checks y against the double-precision oracle,\n"
    "and reports the error and the speed.\n\n"
    "  --format F        variant name (spmv-kit list shows them), e.g. csr, csr-vector, coo-atomic;\n"
    "                    auto: the kernel lab 08's model predicts fastest (device parameters from\n"
    "                    $KIT_DEVICE_PARAMS, else H100 defaults), with the reason\n"
    "  --backend B       cpu | cuda | opencl          (default: cuda if the variant has it, else cpu)\n"
    "  --precision P     float | double               (default: double)\n"
    "  --impl I          reference | starter          (handled by the ./spmv-kit wrapper)\n"
    "  --vectors V       auto | ones | ramp | random  (auto: ramp 1..n up to 16 rows, else ones)\n"
    "  --repeats N       cold repeats after 2 warm-ups, caches evicted before each (default 20)\n"
    "  --steady N        calls back to back for the steady figure, as a solver makes them (default 100)\n"
    "  --block RxC|auto  block size for the bcsr variants (default auto: the lab 05 autotuner picks it\n"
    "                    and prints its table; profile $KIT_BCSR_PROFILE or labs/05-bcsr/profile_default.txt)\n"
    "  --cl-platform P   OpenCL platform index or name part (default: first with a GPU, else first)\n"
    "  --cl-device D     OpenCL device index or name part\n"
    "Exit status: 0 if y matches the oracle, 1 if not, 2 on bad input or an unavailable backend.\n";

/// Edit distance between two names (insertions, deletions, substitutions), case ignored.
std::size_t name_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

/// "; did you mean 'csr'?" for the registered name closest to `name` (at most 2 edits
/// away, case ignored), or "".
std::string suggestion(const std::string& name) {
    const Variant* best = nullptr;
    std::size_t best_distance = 3;
    for (const Variant& v : registry().all())
        if (const std::size_t d = name_distance(name, v.name); d < best_distance) best = &v, best_distance = d;
    if (!best || best->name == name) return "";  // the name exists, on another backend: backends_of says so
    std::string lower = name;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return "; did you mean '" + best->name + "'?" + (lower == best->name ? " (names are lower case)" : "");
}

/// "; 'coo-atomic' runs on cuda only" when `name` is registered on backends other than
/// `missing`, or "".
std::string backends_of(const std::string& name, Backend missing) {
    std::string on;
    for (Backend b : {Backend::cpu, Backend::cuda, Backend::opencl})
        if (b != missing && registry().find(name, b)) on += (on.empty() ? "" : " and ") + to_string(b);
    return on.empty() ? "" : "; '" + name + "' runs on " + on + " only";
}

const Variant& pick_variant(const std::string& name, const std::string& backend) {
    if (!backend.empty()) {
        const Backend b = parse_backend(backend);
        if (const Variant* v = registry().find(name, b)) return *v;
        if (auto why = backend_unavailable(b)) throw BackendUnavailable(to_string(b) + " backend unavailable: " + *why);
        throw Error("no variant '" + name + "' on " + backend + backends_of(name, b) + suggestion(name) +
                    "; 'spmv-kit list' shows what exists");
    }
    // Prefer a backend that can run here: the GPU first, then the CPU, then OpenCL.
    for (bool need_available : {true, false})
        for (Backend b : {Backend::cuda, Backend::cpu, Backend::opencl})
            if (const Variant* v = registry().find(name, b); v && (!need_available || !backend_unavailable(b)))
                return *v;
    throw Error("no variant named '" + name + "'" + suggestion(name) + "; 'spmv-kit list' shows what exists");
}

/// Lab 08's pick for `--format auto`: the kernel its model predicts fastest, printed with why.
std::string auto_format(const CooMatrix& A, Precision precision) {
    std::string source;
    const model::DeviceParams params = model::load_device_params(&source);
    const model::ModelReport r = model::predict_formats(A, precision, params);
    if (r.pick.empty()) throw Error("--format auto: the model picked nothing: " + r.reason);
    std::printf("auto       %s chosen by the lab 08 model: %s (device parameters: %s)\n", r.pick.c_str(),
                r.reason.c_str(), source.c_str());
    return r.pick;
}

void parse_block(const std::string& s, RunOptions& opt) {
    if (s.empty() || s == "auto") return;
    int r = 0, c = 0;
    char x = 0;
    if (std::sscanf(s.c_str(), "%d%c%d", &r, &x, &c) != 3 || x != 'x' || r < 1 || r > 4 || c < 1 || c > 4)
        throw Error("--block must be RxC with R, C in 1..4 (e.g. 2x2), or auto; got '" + s + "'");
    opt.tunables["block_r"] = r;
    opt.tunables["block_c"] = c;
}

/// The report of a variant this machine cannot run (which variant, and why); exit status 2.
int report_skipped(const std::string& what, const std::string& why) {
    std::printf("variant    %s\nresult     SKIPPED: %s\n", what.c_str(), why.c_str());
    return 2;
}

}  // namespace

int cmd_run(const std::vector<std::string>& argv) {
    const Args a(argv, {"--format", "--backend", "--precision", "--impl", "--vectors", "--repeats", "--steady", "--block",
                        "--cl-platform", "--cl-device"},
                 {"--help"}, "run");
    if (a.has("--help")) {
        std::cout << kRunHelp;
        return 0;
    }
    if (a.positional().size() != 1 || !a.has("--format")) {
        std::cerr << (a.positional().size() != 1 ? "run: give exactly one matrix file\n"
                                                 : "run: missing --format F ('spmv-kit list' shows the variants)\n")
                  << "\n" << kRunHelp;
        return 2;
    }
    select_opencl(a.get("--cl-platform"), a.get("--cl-device"));
    RunOptions opt;
    opt.precision = parse_precision(a.get("--precision", "double"));
    opt.repeats = static_cast<int>(a.get_int("--repeats", 20, 0, 100000));
    opt.steady_calls = static_cast<int>(a.get_int("--steady", 100, 0, 1000000));
    parse_block(a.get("--block"), opt);
    // --format auto reads the matrix first (the model needs its rows); a named variant is
    // checked against the backends before a large file is read for nothing.
    std::optional<CooMatrix> loaded;
    std::string format = a.get("--format");
    if (format == "auto") {
        if (!a.get("--backend").empty() && parse_backend(a.get("--backend")) != Backend::cuda)
            throw Error("--format auto picks among CUDA kernels (lab 08's model predicts GPU times), so it takes no "
                        "--backend " + a.get("--backend") + ": drop --backend, or name a format ('spmv-kit list')");
        loaded = read_matrix_market(a.positional()[0]);
        try {
            format = auto_format(*loaded, opt.precision);
        } catch (const TodoError& e) {  // lab 08's starter: the pick is the student's work, like a kernel's
            std::printf("auto       lab 08's model picks the kernel\nresult     TODO: %s\n", e.what());
            return 1;
        }
        // The model predicts CUDA kernels; a build without CUDA has none of them to run.
        if (auto why = backend_unavailable(Backend::cuda); why && !registry().find(format, Backend::cuda))
            return report_skipped(format + " on cuda", *why);
    }
    const Variant& v = pick_variant(format, a.get("--backend"));
    if (auto why = backend_unavailable(v.backend))
        return report_skipped(v.name + " on " + to_string(v.backend) + " (" + v.lab + " step " + std::to_string(v.step) + ")",
                              *why);
    const Reference ref = make_reference(loaded ? std::move(*loaded) : read_matrix_market(a.positional()[0]),
                                         a.get("--vectors", "auto"));
    const CooMatrix& A = ref.matrix();
    if (a.get("--backend").empty() && v.backend != Backend::cuda && registry().find(v.name, Backend::cuda))
        std::printf("note       running the %s variant: %s (--backend cuda to insist)\n", to_string(v.backend).c_str(),
                    backend_unavailable(Backend::cuda).value_or("CUDA unavailable").c_str());
    const char* impl = std::getenv("KIT_IMPL");

    std::printf("matrix     %s (%d x %d, %lld nonzeros)\n", a.positional()[0].c_str(), A.rows, A.cols,
                static_cast<long long>(A.nnz()));
    std::printf("variant    %s on %s, %s, %s code (%s step %d: %s)\n", v.name.c_str(), to_string(v.backend).c_str(),
                to_string(opt.precision).c_str(), impl ? impl : "reference", v.lab.c_str(), v.step, v.summary.c_str());
    const CheckedRun c = run_checked(v, ref, opt);
    if (!c.result.details.empty()) std::printf("%s", c.result.details.c_str());
    if (c.status != RunStatus::ok && c.status != RunStatus::wrong) {
        std::printf("result     %s: %s\n", to_string(c.status).c_str(), c.message.c_str());
        return c.status == RunStatus::todo ? 1 : 2;
    }
    std::printf("device     %s\n", c.result.device.c_str());
    const std::vector<double>& y = c.result.y;
    if (y.size() <= 16) {
        std::printf("y          [");
        for (std::size_t i = 0; i < y.size(); ++i) std::printf("%s%.9g", i ? ", " : "", y[i]);
        std::printf("]\n");
    } else {
        double norm = 0;
        for (double yi : y) norm += yi * yi;
        std::printf("||y||_2    %.9g (%zu entries)\n", std::sqrt(norm), y.size());
    }
    if (!c.result.note.empty()) std::printf("format     %s\n", c.result.note.c_str());
    std::printf("error      max |y - oracle| = %.3g: %s\n", c.mismatch.max_error,
                c.status == RunStatus::ok ? "within the bound-derived tolerance" : c.message.c_str());
    if (opt.repeats > 0)
        std::printf("cold       median %.4f ms over %d repeats, caches evicted before each: %.3f GFLOP/s, %.3f GB/s "
                    "(bytes model %lld B)\n",
                    c.result.median_ms(), opt.repeats, c.gflops, c.gbytes, static_cast<long long>(c.result.bytes));
    if (c.result.steady_ms > 0)
        std::printf("steady     %.4f ms per call over %d calls back to back: %.3f GFLOP/s, %.3f GB/s\n",
                    c.result.steady_ms, opt.steady_calls, c.steady_gflops, c.steady_gbytes);
    return c.status == RunStatus::ok ? 0 : 1;
}

}  // namespace kit::cli
