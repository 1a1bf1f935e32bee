// spmv-bench's run state: options, progress lines, the loaded matrix and the cuSPARSE CSR
// baselines (see spmv_bench_run.hpp).
#include "spmv_bench_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>

#include "core/kit_error.hpp"
#include "core/text.hpp"
#include "io/generators.hpp"

namespace bench {

using kit::Backend;
using kit::Precision;

// ------------------------------------------------------------------ options

const char* bench_usage() {
    return "usage: spmv-bench [options] [--benchmark_* flags]\n"
           "  --size=auto|tiny|small|medium|large   matrix sizes (auto: large with a CUDA device, else small)\n"
           "  --precision=double,float              precisions to run, comma-separated\n"
           "  --repeats=N                           cold repeats per kernel, caches evicted before each (median; "
           "default 20)\n"
           "  --steady=N                            GPU calls back to back for the steady figure (default 100)\n"
           "  --warmup=N                            untimed runs before them (default 3)\n"
           "  --out=DIR                             write bench.json, summary.txt, summary.csv there\n"
           "  --cpu-max-nnz=N                       skip CPU kernels (and OpenCL on a CPU) above N nonzeros\n"
           "  --bcsr-sweep                          also run BCSR kernels at every block size 1..4 x 1..4\n"
           "  --gemv-sweep                          run lab 09's GEMV against cuBLAS on dense sizes instead "
           "(gemv_sweep.csv)\n"
           "  --gemv-max-n=N                        the sweep only: skip sizes above N (a quicker run; the tuning "
           "sizes stay)\n"
           "  --suitesparse-dir=DIR                 where matrices/download puts .mtx files (or .mtx.gz, .mtx.bz2)\n"
           "  --list                                print the suite and the kernels, run nothing\n"
           "Select benchmarks with --benchmark_filter=REGEX on names spmv/<matrix>/<precision>/<backend>/<kernel>.\n";
}

namespace {

using OptionSetter = void (*)(BenchOptions&, const std::string&);

/// What each option does with its value ("--list" and the other switches ignore it).
const std::map<std::string, OptionSetter>& option_setters() {
    static const std::map<std::string, OptionSetter> setters = {
        {"--size", [](BenchOptions& o, const std::string& v) { o.size = v; }},
        {"--precision",
         [](BenchOptions& o, const std::string& v) {
             o.precisions.clear();
             for (const std::string& p : kit::split(v, ',')) o.precisions.push_back(kit::parse_precision(p));
         }},
        {"--repeats", [](BenchOptions& o, const std::string& v) { o.repeats = std::max(1, std::stoi(v)); }},
        {"--steady", [](BenchOptions& o, const std::string& v) { o.steady = std::max(0, std::stoi(v)); }},
        {"--warmup", [](BenchOptions& o, const std::string& v) { o.warmup = std::max(0, std::stoi(v)); }},
        {"--out", [](BenchOptions& o, const std::string& v) { o.out_dir = v; }},
        {"--cpu-max-nnz", [](BenchOptions& o, const std::string& v) { o.cpu_max_nnz = std::stoll(v); }},
        {"--bcsr-sweep", [](BenchOptions& o, const std::string&) { o.bcsr_sweep = true; }},
        {"--gemv-sweep", [](BenchOptions& o, const std::string&) { o.gemv_sweep = true; }},
        {"--gemv-max-n", [](BenchOptions& o, const std::string& v) { o.gemv_max_n = std::max(0, std::stoi(v)); }},
        {"--suitesparse-dir", [](BenchOptions& o, const std::string& v) { o.suitesparse_dir = v; }},
        {"--list", [](BenchOptions& o, const std::string&) { o.list = true; }},
    };
    return setters;
}

const auto g_start = std::chrono::steady_clock::now();  // the program's start, for progress lines

}  // namespace

BenchOptions parse_bench_options(int argc, char** argv) {
    BenchOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const std::size_t eq = a.find('=');
        const std::string key = a.substr(0, eq), value = eq == std::string::npos ? "" : a.substr(eq + 1);
        const auto it = option_setters().find(key);
        if (it == option_setters().end()) throw kit::Error("unknown option '" + a + "'\n" + bench_usage());
        it->second(o, value);
    }
    return o;
}

// ------------------------------------------------------------------ progress

double elapsed_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - g_start).count(); }

void progress(const char* format, ...) {
    va_list args;
    va_start(args, format);
    std::fprintf(stderr, "[%7.1fs] ", elapsed_s());
    std::vfprintf(stderr, format, args);
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
    va_end(args);
}

std::string millions(std::int64_t n) {
    char buf[32];
    if (n < 100'000)
        std::snprintf(buf, sizeof buf, "%.1fk", n / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.2fM", n / 1e6);
    return buf;
}

// ------------------------------------------------------------------ the run's state

bool is_csr_baseline(const kit::Variant& v) {
    return v.lab == "cusparse" && format_of(v.name) == "cusparse-csr";
}  // both algorithms

std::string BenchRun::key_of(int matrix, Precision p) const { return suite[matrix].name + "/" + kit::to_string(p); }

bool BenchRun::runs_on_gpu(Backend b) const {
    const auto it = on_gpu.find(b);
    return it != on_gpu.end() && it->second;
}

/// Lab 08's predictions for matrix `index` in every precision of the run, kept for the
/// records of its CUDA kernels. A limited matrix does not run every covered kernel, so it is
/// not predicted; neither is anything when the model is missing or its starter unfinished.
void BenchRun::predict_formats(int index, const kit::CooMatrix& A) {
    if (suite[index].own_formats_only || !have_cuda) return;
    for (Precision p : opt.precisions) try {
            predictions[key_of(index, p)] = kit::model::predict_formats(A, p, model_params);
        } catch (const kit::Error& e) {
            skipped_parts.push_back("skipped: lab 08's predictions: " + std::string(e.what()));
            return;
        }
}

const LoadedMatrix& BenchRun::load(int index) {
    if (loaded.index == index) return loaded;
    loaded = LoadedMatrix{};  // free the previous matrix first
    loaded.index = index;
    const MatrixSpec& spec = suite[index];
    // a compressed file's estimate is 0: its size line is read with the matrix
    const std::string about = spec.nnz_estimate > 0 ? "about " + millions(spec.nnz_estimate) + " nnz" : "size unknown";
    progress("matrix %d/%zu %s: making (%s)", index + 1, suite.size(), spec.name.c_str(), about.c_str());
    const double t0 = elapsed_s();
    try {
        kit::CooMatrix A = spec.make();
        if (!A.is_normalized()) A.normalize();
        kit::RandomXY xy = kit::random_xy(A.cols, A.rows, 1000 + index);
        loaded.ref = std::make_unique<kit::Reference>(std::move(A), std::move(xy.x), std::move(xy.y));
    } catch (const std::exception& e) {
        loaded.error = std::string("cannot make ") + spec.name + ": " + e.what();
        progress("%s", loaded.error.c_str());
        return loaded;
    }
    const kit::CooMatrix& A = loaded.ref->matrix();
    progress("matrix %d/%zu %s: %d x %d, %s nnz, made and run through the oracle in %.1f s", index + 1, suite.size(),
             spec.name.c_str(), A.rows, A.cols, millions(A.nnz()).c_str(), elapsed_s() - t0);
    predict_formats(index, A);
    return loaded;
}

kit::RunOptions BenchRun::run_options(const BenchJob& job, std::int64_t nnz) const {
    kit::RunOptions o;
    o.precision = job.precision;
    o.warmup = opt.warmup;
    // host kernels take ~1 ns per entry and more: fewer repeats keep big matrices affordable
    o.repeats =
        runs_on_gpu(job.variant->backend)
            ? opt.repeats
            : static_cast<int>(std::clamp<std::int64_t>(20'000'000 / std::max<std::int64_t>(nnz, 1), 3, opt.repeats));
    o.steady_calls = runs_on_gpu(job.variant->backend) ? opt.steady : 0;
    o.tunables = job.tunables;
    return o;
}

void BenchRun::note_baseline(const std::string& key, double ms) {
    auto it = csr_baseline_ms.find(key);
    if (ms > 0 && (it == csr_baseline_ms.end() || ms < it->second)) csr_baseline_ms[key] = ms;
}

double BenchRun::csr_baseline(const BenchJob& job, const LoadedMatrix& m) {
    const std::string key = key_of(job.matrix, job.precision);
    for (const kit::Variant& v : variants) {
        if (!is_csr_baseline(v) || !baseline_runs.insert(key + "/" + v.name).second) continue;
        BenchJob b = job;
        b.variant = &v;
        b.tunables.clear();  // the job's forced tunables are its own variant's
        // the median of a checked run, or a negative value if it failed or was wrong
        const kit::CheckedRun c = kit::run_checked(v, *m.ref, run_options(b, m.ref->matrix().nnz()));
        note_baseline(key, c.status == kit::RunStatus::ok ? c.result.median_ms() : -1);
    }
    const auto it = csr_baseline_ms.find(key);
    return it == csr_baseline_ms.end() ? 0.0 : it->second;
}

}  // namespace bench
