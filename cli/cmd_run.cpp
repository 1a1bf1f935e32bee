#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>
#include <set>

#include "core/args.hpp"
#include "commands.hpp"
#include "cuda_catalogue.hpp"
#include "model/format_model.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"
#include "io/memory_budget.hpp"

namespace kit::cli {
namespace {

const char* kRunHelp =
    "usage: spmv-kit run FILE.mtx --format F [options]\n\n"
    "Runs one SpMV variant, y <- y + A x, checks y against the double-precision oracle,\n"
    "and reports the error and the speed.\n\n"
    "  --format F        variant name (spmv-kit list shows them);\n"
    "                    auto: the kernel the format model predicts fastest (device parameters from\n"
    "                    $KIT_DEVICE_PARAMS, else H100 defaults), with the reason\n"
    "  --backend B       cpu | cuda | opencl          (default: cuda if the variant has it, else cpu)\n"
    "  --precision P     float | double               (default: double)\n"
    "  --impl I          reference | starter          (handled by the ./spmv-kit wrapper)\n"
    "  --vectors V       auto | ones | ramp | random  (auto: ramp 1..n up to 16 rows, else ones)\n"
    "  --repeats N       cold repeats after 2 warm-ups, caches evicted before each (default 20)\n"
    "  --steady N        calls back to back for the steady figure, as a solver makes them (default 100)\n"
    "  --set K=V[,K=V]   format parameters (tunables) by name; 'spmv-kit list' shows each variant's\n"
    "  --cl-platform P   OpenCL platform index or name part (default: first with a GPU, else first)\n"
    "  --cl-device D     OpenCL device index or name part\n";

const char* kRunExit = "Exit status: 0 if y matches the oracle, 1 if not, 2 on bad input or an unavailable backend.\n";

/// The help: the kit's options, then each lab's spelling of its tunables (registry options).
std::string run_help() {
    std::string help = kRunHelp;
    for (const TunableOption& o : registry().options()) {
        const std::string head = "  " + o.option + " " + o.syntax;
        help += head + std::string(head.size() < 19 ? 19 - head.size() : 1, ' ') + o.help + "\n";
    }
    return help + kRunExit;
}

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
    for (const auto* list : {&registry().all(), &unbuilt_cuda_variants()})
        for (const Variant& v : *list)
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
        if (b != missing && find_variant(name, b)) on += (on.empty() ? "" : " and ") + to_string(b);
    return on.empty() ? "" : "; '" + name + "' runs on " + on + " only";
}

/// The order in which `run` without --backend looks for a variant: the GPU, the CPU, OpenCL.
constexpr Backend kPreference[] = {Backend::cuda, Backend::cpu, Backend::opencl};

const Variant& pick_variant(const std::string& name, const std::string& backend, const RunOptions& opt) {
    if (!backend.empty()) {
        const Backend b = parse_backend(backend);
        if (const Variant* v = find_variant(name, b)) return *v;
        // A name no backend knows is a typo, whatever the machine: say so before the GPU's absence.
        bool known = false;
        for (Backend any : kPreference) known = known || find_variant(name, any);
        if (!known)
            throw Error("no variant named '" + name + "'" + suggestion(name) + "; 'spmv-kit list' shows what exists");
        if (auto why = backend_unavailable(b, opt))
            throw BackendUnavailable(to_string(b) + " backend unavailable: " + *why);
        throw Error("no variant '" + name + "' on " + backend + backends_of(name, b) + suggestion(name) +
                    "; 'spmv-kit list' shows what exists");
    }
    // Prefer a backend that can run here: the GPU first, then the CPU, then OpenCL.
    const Variant* first = nullptr;  // the name's own kernel: the first backend that has it
    for (Backend b : kPreference)
        if (!first) first = find_variant(name, b);
    if (!first)
        throw Error("no variant named '" + name + "'" + suggestion(name) + "; 'spmv-kit list' shows what exists");
    for (Backend b : kPreference) {
        const Variant* v = find_variant(name, b);
        if (!v || backend_unavailable(b, opt)) continue;
        // Another lab's kernel of the same name is other work (dia-naive: lab 03 in CUDA, lab 07
        // in OpenCL): it runs only when asked for by its backend. The caller reports the name's
        // own kernel as SKIPPED here.
        if (v->lab != first->lab) {
            std::printf("note       %s's kernel of that name runs with --backend %s\n", v->lab.c_str(),
                        to_string(v->backend).c_str());
            return *first;
        }
        return *v;
    }
    return *first;
}

/// The variant on `backend` that stands for the model's CUDA kernel `kernel`: the same name,
/// else the first of the CUDA kernel's family there; nullptr if none.
const Variant* counterpart(const std::string& kernel, Backend backend) {
    if (const Variant* v = registry().find(kernel, backend)) return v;
    const Variant* cuda = find_variant(kernel, Backend::cuda);
    if (!cuda || cuda->family.empty()) return nullptr;
    for (const Variant& v : registry().all())
        if (v.backend == backend && v.family == cuda->family) return &v;
    return nullptr;
}

/// The pick for `--format auto` on `backend`, printed with why. On CUDA: the kernel the
/// installed format model predicts fastest. Elsewhere the model's times (GPU times) do not
/// apply; a simple rule does: of the covered kernels that have a counterpart on the backend
/// and a feasible format, the one whose format moves the fewest bytes.
std::string auto_format(const CooMatrix& A, Precision precision, Backend backend) {
    std::string source;
    const model::DeviceParams params = model::load_device_params(&source);
    const model::ModelReport r = model::predict_formats(A, precision, params);
    if (backend == Backend::cuda) {
        if (r.pick.empty()) throw Error("--format auto: the model picked nothing: " + r.reason);
        std::printf("auto       %s chosen by the lab 08 model: %s (device parameters: %s)\n", r.pick.c_str(),
                    r.reason.c_str(), source.c_str());
        return r.pick;
    }
    const model::KernelPrediction* best = nullptr;
    const Variant* chosen = nullptr;
    for (const model::KernelPrediction& k : r.kernels) {
        const Variant* v = k.feasible ? counterpart(k.variant, backend) : nullptr;
        if (v && (!best || k.bytes < best->bytes)) best = &k, chosen = v;
    }
    if (!chosen)
        throw Error("--format auto: no kernel the lab 08 model covers has a counterpart on " + to_string(backend) +
                    "; name a format ('spmv-kit list')");
    std::printf(
        "auto       %s chosen for %s by a simple rule: the fewest bytes (%lld B, the format of %s) among "
        "the kernels the lab 08 model covers that run there (its times are GPU times)\n",
        chosen->name.c_str(), to_string(backend).c_str(), static_cast<long long>(best->bytes), best->variant.c_str());
    return chosen->name;
}

/// --set K=V,K=V: tunables by name (their ranges are checked against the variant later).
void parse_set(const std::string& list, RunOptions& opt) {
    std::size_t start = 0;
    while (start < list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string item = list.substr(start, comma - start);
        const std::size_t eq = item.find('=');
        char* end = nullptr;
        const long value = eq == std::string::npos ? 0 : std::strtol(item.c_str() + eq + 1, &end, 10);
        if (eq == std::string::npos || eq == 0 || end == item.c_str() + eq + 1 || *end != '\0')
            throw Error("--set takes NAME=INTEGER pairs separated by commas; got '" + item + "'");
        opt.tunables[item.substr(0, eq)] = static_cast<int>(value);
        start = comma + 1;
    }
}

/// The options of one run: precision, repeats, and the tunables of --set and of the labs' options.
RunOptions read_run_options(const Args& a) {
    RunOptions opt;
    opt.precision = parse_precision(a.get("--precision", "double"));
    opt.repeats = static_cast<int>(a.get_int("--repeats", 20, 0, 100000));
    opt.steady_calls = static_cast<int>(a.get_int("--steady", 100, 0, 1000000));
    opt.opencl = {a.get("--cl-platform"), a.get("--cl-device")};
    parse_set(a.get("--set"), opt);
    for (const TunableOption& o : registry().options())
        if (a.has(o.option))
            for (const auto& [name, value] : o.parse(a.get(o.option))) opt.tunables[name] = value;
    return opt;
}

/// The report of a variant this machine cannot run (which variant, and why); exit status 2.
int report_skipped(const std::string& what, const std::string& why) {
    std::printf("variant    %s\nresult     SKIPPED: %s\n", what.c_str(), why.c_str());
    return 2;
}

/// --format auto: reads the matrix (the model needs its rows) into `loaded` and replaces
/// `format` with the model's pick. Returns an exit status when the run stops here (the model
/// is an unfinished starter, or its pick cannot run on this machine), else nothing.
std::optional<int> resolve_auto(const Args& a, const RunOptions& opt, std::optional<CooMatrix>& loaded,
                                std::string& format) {
    const Backend backend = a.get("--backend").empty() ? Backend::cuda : parse_backend(a.get("--backend"));
    loaded = read_matrix_market(a.positional()[0], nullptr, checked_run_read_options());
    try {
        format = auto_format(*loaded, opt.precision, backend);
    } catch (const TodoError& e) {  // the model's starter: the pick is the student's work, like a kernel's
        std::printf("auto       lab 08's model picks the kernel\nresult     TODO: %s\n", e.what());
        return 1;
    }
    // The model predicts CUDA kernels; a build without CUDA has none of them to run.
    if (backend != Backend::cuda) return std::nullopt;
    if (auto why = backend_unavailable(Backend::cuda); why && !find_variant(format, Backend::cuda))
        return report_skipped(format + " on cuda", *why);
    return std::nullopt;
}

/// What runs on what: the matrix, the variant and where its code comes from.
void print_header(const Args& a, const Variant& v, const CooMatrix& A, const RunOptions& opt) {
    if (a.get("--backend").empty() && v.backend != Backend::cuda && find_variant(v.name, Backend::cuda))
        std::printf("note       running the %s variant: %s (--backend cuda to insist)\n", to_string(v.backend).c_str(),
                    backend_unavailable(Backend::cuda).value_or("CUDA unavailable").c_str());
    const char* impl = std::getenv("KIT_IMPL");
    std::printf("matrix     %s (%d x %d, %lld nonzeros)\n", a.positional()[0].c_str(), A.rows, A.cols,
                static_cast<long long>(A.nnz()));
    std::printf("variant    %s on %s, %s, %s code (%s step %d: %s)\n", v.name.c_str(), to_string(v.backend).c_str(),
                to_string(opt.precision).c_str(), impl ? impl : "reference", v.lab.c_str(), v.step, v.summary.c_str());
}

/// y itself when it is short (the 4x4 exercise), else its 2-norm.
void print_y(const std::vector<double>& y) {
    if (y.size() <= 16) {
        std::printf("y          [");
        for (std::size_t i = 0; i < y.size(); ++i) std::printf("%s%.9g", i ? ", " : "", y[i]);
        std::printf("]\n");
        return;
    }
    double norm = 0;
    for (double yi : y) norm += yi * yi;
    std::printf("||y||_2    %.9g (%zu entries)\n", std::sqrt(norm), y.size());
}

/// The result, the error against the oracle and the speeds; returns the exit status.
int report_result(const CheckedRun& c, const RunOptions& opt) {
    if (!c.result.details.empty()) std::printf("%s", c.result.details.c_str());
    if (c.status != RunStatus::ok && c.status != RunStatus::wrong) {
        std::printf("result     %s: %s\n", to_string(c.status).c_str(), c.message.c_str());
        return c.status == RunStatus::todo ? 1 : 2;
    }
    std::printf("device     %s\n", c.result.device.c_str());
    print_y(c.result.y);
    if (!c.result.note.empty()) std::printf("format     %s\n", c.result.note.c_str());
    std::printf("error      max |y - oracle| = %.3g: %s\n", c.mismatch.max_error,
                c.status == RunStatus::ok ? "within the bound-derived tolerance" : c.message.c_str());
    if (opt.repeats > 0)
        std::printf(
            "cold       median %.4g ms over %d repeats, caches evicted before each: %.3f GFLOP/s, %.3f GB/s "
            "(bytes model %lld B)\n",
            c.result.median_ms(), opt.repeats, c.gflops, c.gbytes, static_cast<long long>(c.result.bytes));
    if (c.result.steady_ms > 0)
        std::printf("steady     %.4g ms per call over %d calls back to back: %.3f GFLOP/s, %.3f GB/s\n",
                    c.result.steady_ms, opt.steady_calls, c.steady_gflops, c.steady_gbytes);
    return c.status == RunStatus::ok ? 0 : 1;
}

/// A failed allocation while building the problem is the tool's, reported with what it was
/// allocating and the figures, never as the lab step's failure.
[[noreturn]] void out_of_memory(const std::string& doing, index_t rows, index_t cols, count_t nnz) {
    throw Error(
        "spmv-kit run: out of memory while " + doing + " for a " + std::to_string(rows) + " x " + std::to_string(cols) +
        " matrix with " + std::to_string(nnz) + " entries (" + format_bytes(16.0 * static_cast<double>(nnz)) +
        " of entries; the memory this process may use: " + format_bytes(static_cast<double>(memory_budget())) + " " +
        budget_source() + "); run on a machine with more memory, or raise the limit (--max-memory, ulimit -v)");
}

/// The reference problem (vectors, oracle, tolerances), then the checked run. The size line
/// was checked for what the run allocates per row and column (checked_run_read_options).
int run_problem(const Args& a, const Variant& v, CooMatrix A, const RunOptions& opt) {
    const index_t rows = A.rows, cols = A.cols;
    const count_t nnz = A.nnz();
    std::optional<Reference> ref;
    try {
        ref.emplace(make_reference(std::move(A), a.get("--vectors", "auto")));
    } catch (const std::bad_alloc&) {
        out_of_memory("building x, y and the oracle's answer", rows, cols, nnz);
    }
    print_header(a, v, ref->matrix(), opt);
    return report_result(run_checked(v, *ref, opt), opt);
}

/// The options run accepts: its own and each lab's spelling of its tunables.
std::set<std::string> run_options() {
    std::set<std::string> valued = {"--format",  "--backend", "--precision", "--impl",        "--vectors",
                                    "--repeats", "--steady",  "--set",       "--cl-platform", "--cl-device"};
    for (const TunableOption& o : registry().options()) valued.insert(o.option);
    return valued;
}

}  // namespace

int cmd_run(const std::vector<std::string>& argv) {
    const Args a(argv, run_options(), {"--help"}, "run");
    if (a.has("--help")) {
        std::cout << run_help();
        return 0;
    }
    if (a.positional().size() != 1 || !a.has("--format")) {
        std::cerr << (a.positional().size() != 1 ? "run: give exactly one matrix file\n"
                                                 : "run: missing --format F ('spmv-kit list' shows the variants)\n")
                  << "\n"
                  << run_help();
        return 2;
    }
    RunOptions opt = read_run_options(a);
    // A file that cannot be opened is said before a missing GPU: it is the first thing to fix.
    if (!std::ifstream(a.positional()[0]))
        throw Error(a.positional()[0] + ": cannot open file (check the path; the kit's examples are in matrices/)");
    // --format auto reads the matrix first; a named variant is checked against the backends
    // before a large file is read for nothing.
    std::optional<CooMatrix> loaded;
    std::string format = a.get("--format");
    if (format == "auto")
        if (const std::optional<int> stop = resolve_auto(a, opt, loaded, format)) return *stop;
    const Variant& v = pick_variant(format, a.get("--backend"), opt);
    check_tunables(v, opt);
    if (auto why = backend_unavailable(v.backend, opt))
        return report_skipped(
            v.name + " on " + to_string(v.backend) + " (" + v.lab + " step " + std::to_string(v.step) + ")", *why);
    return run_problem(
        a, v, loaded ? std::move(*loaded) : read_matrix_market(a.positional()[0], nullptr, checked_run_read_options()),
        opt);
}

}  // namespace kit::cli
