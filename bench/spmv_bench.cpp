// spmv-bench: every registered SpMV variant and the cuSPARSE baselines on the matrix suite,
// as Google Benchmark benchmarks. `make bench` runs it; bench/README.md explains the method.
//
// Each benchmark runs one variant once through the registry (convert, upload, checked run,
// warm-up, timed repeats with CUDA events / OpenCL profiling events / a host clock), checks y
// against the oracle, and reports the median of the repeats as its manual time. A wrong
// result is reported as an error, never as a speed.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include "measure/bytes_model.hpp"
#include "check/checked_run.hpp"
#include "model/format_model.hpp"
#include "gemv_sweep.hpp"
#include "measure/bandwidth_ceiling.hpp"
#include "core/kit_error.hpp"
#include "report.hpp"
#include "suite.hpp"
#include "registry/variants.hpp"
#if KIT_HAVE_CUDA
#include "cusparse_baselines.hpp"
#endif

namespace bench {
namespace {

using kit::Backend;
using kit::Precision;

// ------------------------------------------------------------------ options

struct Options {
    std::string size = "auto";
    std::vector<Precision> precisions = {Precision::f64, Precision::f32};
    int repeats = 20;
    int steady = 100;
    int warmup = 3;
    std::string out_dir;
    std::int64_t cpu_max_nnz = -1;  // -1: 4M with a GPU, unlimited without
    bool bcsr_sweep = false;
    bool gemv_sweep = false;
    int gemv_max_n = 0;  // 0: every size
    bool list = false;
    std::string suitesparse_dir = std::string(KIT_MATRICES_DIR) + "/suitesparse";
};

const char* kUsage =
    "usage: spmv-bench [options] [--benchmark_* flags]\n"
    "  --size=auto|tiny|small|medium|large   matrix sizes (auto: large with a CUDA device, else small)\n"
    "  --precision=double,float              precisions to run, comma-separated\n"
    "  --repeats=N                           cold repeats per kernel, caches evicted before each (median; default 20)\n"
    "  --steady=N                            GPU calls back to back for the steady figure (default 100)\n"
    "  --warmup=N                            untimed runs before them (default 3)\n"
    "  --out=DIR                             write bench.json, summary.txt, summary.csv there\n"
    "  --cpu-max-nnz=N                       skip CPU kernels (and OpenCL on a CPU) above N nonzeros\n"
    "  --bcsr-sweep                          also run BCSR kernels at every block size 1..4 x 1..4\n"
    "  --gemv-sweep                          run lab 09's GEMV against cuBLAS on dense sizes instead (gemv_sweep.csv)\n"
    "  --gemv-max-n=N                        the sweep only: skip sizes above N (a quicker run; the tuning sizes stay)\n"
    "  --suitesparse-dir=DIR                 where matrices/download put the .mtx files\n"
    "  --list                                print the suite and the kernels, run nothing\n"
    "Select benchmarks with --benchmark_filter=REGEX on names spmv/<matrix>/<precision>/<backend>/<kernel>.\n";

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t end = s.find(sep, start);
        parts.push_back(s.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return parts;
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const std::size_t eq = a.find('=');
        const std::string key = a.substr(0, eq), value = eq == std::string::npos ? "" : a.substr(eq + 1);
        if (key == "--size") o.size = value;
        else if (key == "--precision") {
            o.precisions.clear();
            for (const std::string& p : split(value, ',')) o.precisions.push_back(kit::parse_precision(p));
        } else if (key == "--repeats") o.repeats = std::max(1, std::stoi(value));
        else if (key == "--steady") o.steady = std::max(0, std::stoi(value));
        else if (key == "--warmup") o.warmup = std::max(0, std::stoi(value));
        else if (key == "--out") o.out_dir = value;
        else if (key == "--cpu-max-nnz") o.cpu_max_nnz = std::stoll(value);
        else if (key == "--bcsr-sweep") o.bcsr_sweep = true;
        else if (key == "--gemv-sweep") o.gemv_sweep = true;
        else if (key == "--gemv-max-n") o.gemv_max_n = std::max(0, std::stoi(value));
        else if (key == "--suitesparse-dir") o.suitesparse_dir = value;
        else if (key == "--list") o.list = true;
        else throw kit::Error("unknown option '" + a + "'\n" + kUsage);
    }
    return o;
}

// ------------------------------------------------------------------ progress

const auto g_start = std::chrono::steady_clock::now();

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
    if (n < 100'000) std::snprintf(buf, sizeof buf, "%.1fk", n / 1e3);
    else std::snprintf(buf, sizeof buf, "%.2fM", n / 1e6);
    return buf;
}

// ------------------------------------------------------------------ state of the run

/// The matrix the benchmarks currently use, with its vectors and the oracle's answer.
/// Only one is held at a time: benchmarks run in registration order, matrix by matrix.
struct Loaded {
    int index = -1;
    std::unique_ptr<kit::Reference> ref;  // null until made, and when making it failed
    std::string error;                    // the matrix could not be made or read
};

struct Job {
    int matrix = 0;
    Precision precision = Precision::f64;
    const kit::Variant* variant = nullptr;
    int block_r = 0, block_c = 0;  // forced block size (--bcsr-sweep), 0: the variant picks
    std::string kernel;            // variant name, with "@RxC" for a forced block size
};

struct Run {
    Options opt;
    std::vector<MatrixSpec> suite;
    std::vector<kit::Variant> variants;  // the registry's, then cuSPARSE's
    std::map<Backend, kit::BandwidthCeiling> ceilings;
    std::map<Backend, bool> on_gpu;
    bool have_cuda = false;
    std::int64_t cpu_max_nnz = 0;
    Loaded loaded;
    std::vector<Record> records;
    std::map<std::string, double> csr_baseline_ms;     // "matrix/precision" -> fastest cuSPARSE CSR
    std::set<std::string> baseline_runs;                // "matrix/precision/kernel" already attempted
    std::vector<std::string> skipped_parts;             // lines for the start and the end of the run
    // Lab 08's model: its device parameters, and per "matrix/precision" each covered kernel's
    // predicted ms and the pick (empty when the model is not built in or the matrix is limited).
    kit::model::DeviceParams model_params;
    std::string model_source;
    std::map<std::string, kit::model::ModelReport> predictions;
};

Run g;

std::string key_of(int matrix, Precision p) { return g.suite[matrix].name + "/" + kit::to_string(p); }

/// Lab 08's predictions for matrix `index` in every precision of the run, kept for the
/// records of its CUDA kernels. A limited matrix does not run every covered kernel, so it is
/// not predicted; neither is anything when the model is missing or its starter unfinished.
void predict_formats(int index, const kit::CooMatrix& A) {
    if (g.suite[index].own_formats_only || !g.have_cuda) return;
    for (Precision p : g.opt.precisions) try {
            g.predictions[key_of(index, p)] = kit::model::predict_formats(A, p, g.model_params);
        } catch (const kit::Error& e) {
            g.skipped_parts.push_back("skipped: lab 08's predictions: " + std::string(e.what()));
            return;
        }
}

const Loaded& load(int index) {
    if (g.loaded.index == index) return g.loaded;
    g.loaded = Loaded{};  // free the previous matrix first
    g.loaded.index = index;
    const MatrixSpec& spec = g.suite[index];
    progress("matrix %d/%zu %s: making (about %s nnz)", index + 1, g.suite.size(), spec.name.c_str(),
             millions(spec.nnz_estimate).c_str());
    const double t0 = elapsed_s();
    try {
        kit::CooMatrix A = spec.make();
        if (!A.is_normalized()) A.normalize();
        // random vectors: zeros would hide unwritten outputs and wrong indexing
        std::mt19937_64 rng(1000 + index);
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        std::vector<double> x(A.cols), y(A.rows);
        for (double& v : x) v = u(rng);
        for (double& v : y) v = u(rng);
        g.loaded.ref = std::make_unique<kit::Reference>(std::move(A), std::move(x), std::move(y));
    } catch (const std::exception& e) {
        g.loaded.error = std::string("cannot make ") + spec.name + ": " + e.what();
        progress("%s", g.loaded.error.c_str());
        return g.loaded;
    }
    const kit::CooMatrix& A = g.loaded.ref->matrix();
    progress("matrix %d/%zu %s: %d x %d, %s nnz, made and run through the oracle in %.1f s", index + 1, g.suite.size(),
             spec.name.c_str(), A.rows, A.cols, millions(A.nnz()).c_str(), elapsed_s() - t0);
    predict_formats(index, A);
    return g.loaded;
}

double relative_error(const std::vector<double>& ref, const std::vector<double>& y) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < ref.size() && i < y.size(); ++i) {
        num += (y[i] - ref[i]) * (y[i] - ref[i]);
        den += ref[i] * ref[i];
    }
    return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

bool is_csr_baseline(const kit::Variant& v) { return v.lab == "cusparse" && format_of(v.name) == "cusparse-csr"; }  // both algorithms

bool runs_on_gpu(Backend b) { return g.on_gpu.count(b) && g.on_gpu[b]; }

kit::RunOptions run_options(const Job& job, std::int64_t nnz) {
    kit::RunOptions o;
    o.precision = job.precision;
    o.warmup = g.opt.warmup;
    // host kernels take ~1 ns per entry and more: fewer repeats keep big matrices affordable
    o.repeats = runs_on_gpu(job.variant->backend)
                    ? g.opt.repeats
                    : static_cast<int>(std::clamp<std::int64_t>(20'000'000 / std::max<std::int64_t>(nnz, 1), 3, g.opt.repeats));
    o.steady_calls = runs_on_gpu(job.variant->backend) ? g.opt.steady : 0;
    o.tunables["block_r"] = job.block_r;
    o.tunables["block_c"] = job.block_c;
    return o;
}


/// Median time of a checked run, or a negative value if it failed or was wrong.
double checked_median_ms(const kit::Variant& v, const Loaded& m, const kit::RunOptions& o) {
    const kit::CheckedRun c = kit::run_checked(v, *m.ref, o);
    return c.status == kit::RunStatus::ok ? c.result.median_ms() : -1;
}

void note_baseline(const std::string& key, double ms) {
    auto it = g.csr_baseline_ms.find(key);
    if (ms > 0 && (it == g.csr_baseline_ms.end() || ms < it->second)) g.csr_baseline_ms[key] = ms;
}

/// Fastest cuSPARSE CSR time on this matrix and precision; runs the baselines (unreported)
/// if their own benchmarks were filtered out. 0 if there is none.
double csr_baseline(const Job& job, const Loaded& m) {
    const std::string key = key_of(job.matrix, job.precision);
    for (const kit::Variant& v : g.variants) {
        if (!is_csr_baseline(v) || !g.baseline_runs.insert(key + "/" + v.name).second) continue;
        Job b = job;
        b.variant = &v;
        note_baseline(key, checked_median_ms(v, m, run_options(b, m.ref->matrix().nnz())));
    }
    const auto it = g.csr_baseline_ms.find(key);
    return it == g.csr_baseline_ms.end() ? 0.0 : it->second;
}

// ------------------------------------------------------------------ one benchmark

template <class S>
auto skip_impl(S& s, const std::string& m, int) -> decltype(s.SkipWithMessage(m), void()) {
    s.SkipWithMessage(m);  // Google Benchmark >= 1.8: a skip is not an error
}
template <class S>
void skip_impl(S& s, const std::string& m, long) {
    s.SkipWithError(m.c_str());  // older versions only know errors; the message says SKIPPED
}

void finish_not_ok(benchmark::State& state, Record& rec, kit::RunStatus status, const std::string& message) {
    rec.status = kit::to_string(status);
    rec.message = message;
    g.records.push_back(rec);
    const std::string text = rec.status + ": " + message;
    if (kit::is_failure(status)) state.SkipWithError(text.c_str());
    else skip_impl(state, text, 0);
}

/// Prints one short progress line per benchmark when it ends, with its wall time (conversion
/// and upload included), so a long run shows where its minutes go.
struct ProgressLine {
    std::size_t records_before = g.records.size();
    double start = elapsed_s();
    ~ProgressLine() {
        if (g.records.size() == records_before) return;
        const Record& r = g.records.back();
        const double wall = elapsed_s() - start;
        if (r.status != "ok") {
            progress("  %s:%s %s: %s (%.1f s)", r.backend.c_str(), r.kernel.c_str(), r.precision.c_str(), r.status.c_str(), wall);
            return;
        }
        char ratio[32] = "";
        if (r.ratio > 0) std::snprintf(ratio, sizeof ratio, ", %.2fx cuSPARSE", r.ratio);
        progress("  %s:%s %s: %.1f GFLOP/s, %.0f%% of ceiling%s (%.1f s)", r.backend.c_str(), r.kernel.c_str(),
                 r.precision.c_str(), r.gflops, r.pct_ceiling, ratio, wall);
    }
};

void run_benchmark(benchmark::State& state, const Job& job) {
    const ProgressLine line;
    const MatrixSpec& spec = g.suite[job.matrix];
    const kit::Variant& v = *job.variant;
    Record rec;
    rec.matrix = spec.name;
    rec.family = spec.family;
    rec.own_formats = spec.own_formats;
    rec.precision = kit::to_string(job.precision);
    rec.backend = kit::to_string(v.backend);
    rec.kernel = job.kernel;
    rec.lab = v.lab;
    rec.step = v.step;
    rec.gpu = runs_on_gpu(v.backend);

    load(job.matrix);
    const Loaded& m = g.loaded;
    if (!m.error.empty()) return finish_not_ok(state, rec, kit::RunStatus::skipped, m.error);
    rec.nnz = m.ref->matrix().nnz();
    const kit::RunOptions o = run_options(job, rec.nnz);

    const kit::CheckedRun c = kit::run_checked(v, *m.ref, o);
    const kit::RunResult& r = c.result;
    rec.device = r.device;
    rec.note = r.note;
    if (c.status == kit::RunStatus::ok || c.status == kit::RunStatus::wrong) rec.error = relative_error(m.ref->expected(), r.y);
    if (c.status != kit::RunStatus::ok) return finish_not_ok(state, rec, c.status, c.message);
    if (r.times_ms.empty() || r.median_ms() <= 0)
        return finish_not_ok(state, rec, kit::RunStatus::error, "the variant returned no timings");

    rec.ms = r.median_ms();
    rec.gflops = c.gflops;
    rec.gbs = c.gbytes;
    const kit::BandwidthCeiling& ceiling = g.ceilings[v.backend];
    if (ceiling.gbs > 0 && r.bytes > 0) {
        rec.pct_ceiling = 100.0 * rec.gbs / ceiling.gbs;
        rec.bound_gflops = ceiling.gbs * static_cast<double>(kit::spmv_flops(rec.nnz)) / static_cast<double>(r.bytes);
    }
    if (v.lab_bytes_per_2flops && ceiling.gbs > 0)  // a lab's own bytes model (lab 07's case study)
        rec.step_bound_gflops = ceiling.gbs * 2.0 / v.lab_bytes_per_2flops(job.precision == Precision::f32 ? 4 : 8);
    if (r.steady_ms > 0) {
        rec.steady_ms = r.steady_ms;
        rec.steady_gflops = c.steady_gflops;
        if (ceiling.gbs > 0) rec.steady_pct_ceiling = 100.0 * c.steady_gbytes / ceiling.gbs;
    }
    if (rec.pct_ceiling > 100.0)
        rec.note = "above ceiling: cache" + std::string(rec.note.empty() ? "" : "; ") + rec.note;
    if (is_csr_baseline(v)) {
        g.baseline_runs.insert(key_of(job.matrix, job.precision) + "/" + v.name);
        note_baseline(key_of(job.matrix, job.precision), rec.ms);
    }
    if (rec.gpu && g.have_cuda) {
        // a baseline compares with the baselines already timed; a kit kernel makes sure both ran
        const auto cached = g.csr_baseline_ms.find(key_of(job.matrix, job.precision));
        const double base = v.lab != "cusparse" ? csr_baseline(job, m)
                            : cached != g.csr_baseline_ms.end() ? cached->second : 0.0;
        if (base > 0) rec.ratio = base / rec.ms;
    }
    if (const auto it = g.predictions.find(key_of(job.matrix, job.precision)); it != g.predictions.end() &&
        v.backend == Backend::cuda)  // the model covers the CUDA kernels, not their OpenCL twins
        for (const kit::model::KernelPrediction& k : it->second.kernels)
            if (k.variant == rec.kernel && k.feasible) {
                rec.predicted_ms = k.total_ms;
                rec.model_pick = k.variant == it->second.pick;
            }
    g.records.push_back(rec);

    for (auto _ : state) state.SetIterationTime(rec.ms / 1e3);
    state.SetLabel(rec.device + (rec.note.empty() ? "" : "; " + rec.note));
    state.counters["GFLOPs"] = rec.gflops;
    state.counters["GBs"] = rec.gbs;
    state.counters["pct_ceiling"] = rec.pct_ceiling;
    state.counters["steady_GFLOPs"] = rec.steady_gflops;
    state.counters["steady_pct_ceiling"] = rec.steady_pct_ceiling;
    state.counters["vs_cusparse"] = rec.ratio;
    state.counters["bound_GFLOPs"] = rec.bound_gflops;
    if (rec.step_bound_gflops > 0) state.counters["step_bound_GFLOPs"] = rec.step_bound_gflops;
    state.counters["error"] = rec.error;
    state.counters["nnz"] = static_cast<double>(rec.nnz);
    state.counters["bytes"] = static_cast<double>(r.bytes);
    state.counters["ms_min"] = *std::min_element(r.times_ms.begin(), r.times_ms.end());
    state.counters["ms_max"] = *std::max_element(r.times_ms.begin(), r.times_ms.end());
    state.counters["repeats"] = static_cast<double>(r.times_ms.size());
    state.counters["lab"] = v.lab == "cusparse" ? -1.0 : std::atof(v.lab.c_str());
    state.counters["step"] = v.step;
}

void report_ceiling(benchmark::State& state, const kit::BandwidthCeiling& c) {
    for (auto _ : state) state.SetIterationTime(c.gbs > 0 ? 1.0 / c.gbs : 0.0);  // seconds per GB
    state.SetLabel(c.device + "; " + c.how);
    state.counters["GBs"] = c.gbs;
    state.counters["read_GBs"] = c.read_gbs;
    state.counters["copy_kernel_GBs"] = c.copy_kernel_gbs;
    state.counters["copy_api_GBs"] = c.copy_api_gbs;
}

/// A console reporter that prints nothing: every figure it would print is in the JSON, and
/// the summary prints the same figures readably.
class QuietReporter : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
};

// ------------------------------------------------------------------ setup

void measure_ceilings() {
    const kit::BandwidthCeiling cpu = kit::measure_cpu_ceiling(128, 5);
    g.ceilings[Backend::cpu] = cpu;
    g.on_gpu[Backend::cpu] = false;
    progress("ceiling cpu: %.1f GB/s (%s)", cpu.gbs, cpu.how.c_str());
    for (auto [b, repeats] : {std::pair{Backend::cuda, 20}, std::pair{Backend::opencl, 10}}) {
        if (kit::backend_unavailable(b)) continue;
        const kit::BandwidthCeiling c = kit::measure_device_ceiling(b, 0, repeats);
        g.ceilings[b] = c;
        g.on_gpu[b] = c.is_gpu;
        progress("ceiling %s: %.1f GB/s (%s on %s; read %.1f, copy kernel %.1f, copy API %.1f)", kit::to_string(b).c_str(),
                 c.gbs, c.how.c_str(), c.device.c_str(), c.read_gbs, c.copy_kernel_gbs, c.copy_api_gbs);
    }
    // Lab 08's device parameters: a calibrate file if $KIT_DEVICE_PARAMS names one, else the
    // documented defaults with this run's measured CUDA bandwidth.
    g.model_params = kit::model::load_device_params(&g.model_source);
    if (!std::getenv("KIT_DEVICE_PARAMS") && g.ceilings.count(Backend::cuda)) {
        g.model_params.bandwidth_gbs = g.ceilings[Backend::cuda].gbs;
        g.model_params.device = g.ceilings[Backend::cuda].device;
        g.model_source = "defaults, bandwidth measured by this run";
    }
}

void collect_variants() {
    std::map<Backend, int> dropped;
    for (const kit::Variant& v : kit::registry().all()) {
        if (kit::backend_unavailable(v.backend)) ++dropped[v.backend];
        else g.variants.push_back(v);
    }
#if KIT_HAVE_CUDA
    if (g.have_cuda) add_cusparse_variants(g.variants);
    else g.skipped_parts.push_back("skipped: cuSPARSE baselines (no CUDA device)");
#else
    g.skipped_parts.push_back("skipped: CUDA kernels and cuSPARSE baselines (built without CUDA: nvcc was not found)");
#endif
    for (const auto& [backend, n] : dropped)
        g.skipped_parts.push_back("skipped: " + std::to_string(n) + " " + kit::to_string(backend) +
                                  " kernels: " + kit::backend_unavailable(backend).value_or(""));
}

/// A matrix marked own_formats_only gets the CUDA kernels of its own formats and the cuSPARSE
/// CSR baselines (for the ratio); every other matrix gets every kernel.
bool runs_on(const kit::Variant& v, const MatrixSpec& m) {
    if (!m.own_formats_only || is_csr_baseline(v)) return true;
    const std::string f = format_of(v.name);
    return v.backend == Backend::cuda && v.lab != "cusparse" &&
           std::find(m.own_formats.begin(), m.own_formats.end(), f) != m.own_formats.end();
}

bool sweepable(const kit::Variant& v, const MatrixSpec& m) {
    const std::string f = format_of(v.name);
    return (f == "bcsr" || f == "cusparse-bsr") && (m.family == "fem-block" || m.family == "suitesparse");
}

void register_all() {
    for (auto [backend, c] : g.ceilings) {
        const std::string name = "ceiling/" + kit::to_string(backend) + "/copy";
        benchmark::RegisterBenchmark(name.c_str(), [c = c](benchmark::State& s) { report_ceiling(s, c); })
            ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
    }
    int host_limited = 0;
    for (int mi = 0; mi < static_cast<int>(g.suite.size()); ++mi) {
        const MatrixSpec& m = g.suite[mi];
        if (m.own_formats_only)
            g.skipped_parts.push_back("limited: " + m.name + " runs only the CUDA kernels of its own formats and cuSPARSE CSR (time budget)");
        for (Precision p : g.opt.precisions) {
            if (m.double_only && p != Precision::f64) {
                g.skipped_parts.push_back("skipped: " + m.name + " in " + kit::to_string(p) + " (double only, to keep the run short)");
                continue;
            }
            for (const kit::Variant& v : g.variants) {
                if (!runs_on(v, m)) continue;
                if (!runs_on_gpu(v.backend) && g.cpu_max_nnz >= 0 && m.nnz_estimate > g.cpu_max_nnz) {
                    ++host_limited;
                    continue;
                }
                std::vector<Job> jobs = {{mi, p, &v, 0, 0, v.name}};
                if (g.opt.bcsr_sweep && sweepable(v, m))
                    for (int r = 1; r <= 4; ++r)
                        for (int c = 1; c <= 4; ++c)
                            if (v.lab != "cusparse" || (r == c && r > 1))
                                jobs.push_back({mi, p, &v, r, c, v.name + "@" + std::to_string(r) + "x" + std::to_string(c)});
                for (const Job& job : jobs) {
                    const std::string name = "spmv/" + m.name + "/" + kit::to_string(p) + "/" + kit::to_string(v.backend) +
                                             "/" + job.kernel;
                    benchmark::RegisterBenchmark(name.c_str(), [job](benchmark::State& s) { run_benchmark(s, job); })
                        ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
                }
            }
        }
    }
    if (host_limited)
        g.skipped_parts.push_back("skipped: " + std::to_string(host_limited) + " host-side runs (CPU, or OpenCL on a CPU) on matrices above " +
                                  millions(g.cpu_max_nnz) + " nnz (--cpu-max-nnz)");
}

void print_list(std::ostream& out) {
    out << "matrices (" << g.suite.size() << "):\n";
    for (const MatrixSpec& m : g.suite) {
        out << "  " << m.name << "  family=" << m.family << "  ~" << millions(m.nnz_estimate) << " nnz";
        if (!m.own_formats.empty()) {
            out << "  own structure of:";
            for (const std::string& f : m.own_formats) out << " " << f;
        }
        out << (m.double_only ? "  (double only)" : "") << "\n";
    }
    out << "kernels (" << g.variants.size() << "):\n";
    for (const kit::Variant& v : g.variants)
        out << "  " << kit::to_string(v.backend) << ":" << v.name << "  format=" << format_of(v.name) << "  lab=" << v.lab
            << " step " << v.step << "\n";
}

void make_dir(const std::string& dir) {
    std::string path;
    for (const std::string& part : split(dir, '/')) {
        path += part + "/";
        mkdir(path.c_str(), 0755);  // existing folders are fine
    }
}

int finish(const std::string& out_dir) {
    std::ostringstream text;
    print_table(text, g.records);
    const TargetTally tally = print_targets(text, g.records, g.have_cuda);
    int ok = 0, wrong = 0, errors = 0, skipped = 0;
    for (const Record& r : g.records) {
        if (r.status == "ok") ++ok;
        else if (r.status == "WRONG") ++wrong;
        else if (r.status == "ERROR") ++errors;
        else ++skipped;
    }
    text << "\n";
    for (const std::string& line : g.skipped_parts) text << line << "\n";
    char line[512];
    for (const auto& [backend, c] : g.ceilings) {
        std::snprintf(line, sizeof line, "ceiling %s: %.1f GB/s (%s, %s; read %.1f, copy kernel %.1f, copy API %.1f)\n",
                      kit::to_string(backend).c_str(), c.gbs, c.how.c_str(), c.device.c_str(), c.read_gbs,
                      c.copy_kernel_gbs, c.copy_api_gbs);
        text << line;
    }
    std::snprintf(line, sizeof line, "bench: %zu runs: %d ok, %d wrong, %d errors, %d skipped; targets %d PASS, %d MISS, %d NOT RUN; %.0f s\n",
                  g.records.size(), ok, wrong, errors, skipped, tally.pass, tally.miss, tally.not_run, elapsed_s());
    text << line;
    std::cout << text.str() << std::flush;
    if (!out_dir.empty()) {
        std::ofstream(out_dir + "/summary.txt") << text.str();
        write_csv(out_dir + "/summary.csv", g.records);
        std::cout << "bench: wrote " << out_dir << "/bench.json, summary.txt, summary.csv\n";
    }
    return wrong + errors > 0 ? 1 : 0;
}

int main_impl(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--help") std::cout << kUsage << "\nGoogle Benchmark flags:\n";
    // --out=DIR also sends Google Benchmark's JSON there, unless --benchmark_out is given
    std::vector<std::string> args(argv, argv + argc);
    std::string out_dir;
    bool has_json = false;
    for (const std::string& a : args) {
        if (a.rfind("--out=", 0) == 0) out_dir = a.substr(6);
        if (a.rfind("--benchmark_out=", 0) == 0) has_json = true;
    }
    if (!out_dir.empty()) {
        make_dir(out_dir);
        if (!has_json) {
            args.push_back("--benchmark_out=" + out_dir + "/bench.json");
            args.push_back("--benchmark_out_format=json");
        }
    }
    std::vector<char*> cargs;
    for (std::string& a : args) cargs.push_back(a.data());
    int cargc = static_cast<int>(cargs.size());
    benchmark::Initialize(&cargc, cargs.data());
    g.opt = parse_options(cargc, cargs.data());

    if (g.opt.gemv_sweep)
        return run_gemv_sweep({g.opt.precisions, g.opt.repeats, g.opt.steady, g.opt.warmup, out_dir, g.opt.gemv_max_n});

    g.have_cuda = !kit::backend_unavailable(Backend::cuda);
    for (Backend b : {Backend::cuda, Backend::opencl}) {
        const auto why = kit::backend_unavailable(b);
        progress("%s: %s", kit::to_string(b).c_str(),
                 why ? ("SKIPPED: " + *why).c_str() : kit::backend_device_name(b).c_str());
    }
    const Size size = g.opt.size == "auto" ? (g.have_cuda ? Size::large : Size::small) : parse_size(g.opt.size);
    g.cpu_max_nnz = g.opt.cpu_max_nnz >= 0 ? g.opt.cpu_max_nnz : (g.have_cuda ? 4'000'000 : -1);
    g.suite = build_suite(size, g.opt.suitesparse_dir);
    collect_variants();
    if (g.opt.list) {
        print_list(std::cout);
        return 0;
    }
    for (const std::string& line : g.skipped_parts) progress("%s", line.c_str());
    progress("size %s: %zu matrices, %zu kernels, %d repeats each (median reported)", to_string(size).c_str(),
             g.suite.size(), g.variants.size(), g.opt.repeats);

    measure_ceilings();
    benchmark::AddCustomContext("kit_size", to_string(size));
    std::string gpu_backends;
    for (const auto& [backend, on] : g.on_gpu)
        if (on) gpu_backends += (gpu_backends.empty() ? "" : ",") + kit::to_string(backend);
    benchmark::AddCustomContext("gpu_backends", gpu_backends);
    for (const auto& [backend, c] : g.ceilings) {
        benchmark::AddCustomContext("ceiling_" + kit::to_string(backend) + "_GBs", std::to_string(c.gbs));
        benchmark::AddCustomContext("device_" + kit::to_string(backend), c.device);
    }
    register_all();
    // Google Benchmark's own rows (300-character lines with SI prefixes) go to the JSON only;
    // the terminal gets the kit's progress lines and, at the end, the summary table.
    QuietReporter quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
    benchmark::Shutdown();
    const int code = finish(out_dir);
#if KIT_HAVE_CUDA
    release_cusparse();
#endif
    return code;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
    try {
        return bench::main_impl(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "spmv-bench: " << e.what() << "\n";
        return 2;
    }
}
