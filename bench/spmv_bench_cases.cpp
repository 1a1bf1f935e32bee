// spmv-bench's benchmarks: one per kernel, matrix and precision, and one per bandwidth
// ceiling, each a lambda that captures the run (see spmv_bench_run.hpp).
//
// Each benchmark runs one variant once through the registry (convert, upload, checked run,
// warm-up, timed repeats with CUDA events / OpenCL profiling events / a host clock), checks y
// against the oracle, and reports the median of the repeats as its manual time. A wrong
// result is reported as an error, never as a speed.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "measure/bytes_model.hpp"
#include "spmv_bench_run.hpp"

namespace bench {
namespace {

using kit::Backend;
using kit::Precision;

double relative_error(const std::vector<double>& ref, const std::vector<double>& y) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < ref.size() && i < y.size(); ++i) {
        num += (y[i] - ref[i]) * (y[i] - ref[i]);
        den += ref[i] * ref[i];
    }
    return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

template <class S>
auto skip_impl(S& s, const std::string& m, int) -> decltype(s.SkipWithMessage(m), void()) {
    s.SkipWithMessage(m);  // Google Benchmark >= 1.8: a skip is not an error
}
template <class S>
void skip_impl(S& s, const std::string& m, long) {
    s.SkipWithError(m.c_str());  // older versions only know errors; the message says SKIPPED
}

void finish_not_ok(BenchRun& run, benchmark::State& state, Record& rec, kit::RunStatus status,
                   const std::string& message) {
    rec.status = kit::to_string(status);
    rec.message = message;
    run.records.push_back(rec);
    const std::string text = rec.status + ": " + message;
    if (kit::is_failure(status))
        state.SkipWithError(text.c_str());
    else
        skip_impl(state, text, 0);
}

/// Prints one short progress line per benchmark when it ends, with its wall time (conversion
/// and upload included), so a long run shows where its minutes go.
struct ProgressLine {
    explicit ProgressLine(const BenchRun& r) : run(r), records_before(r.records.size()) {}
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;
    ~ProgressLine() {
        if (run.records.size() == records_before) return;
        const Record& r = run.records.back();
        const double wall = elapsed_s() - start;
        if (r.status != "ok") {
            progress("  %s:%s %s: %s (%.1f s)", r.backend.c_str(), r.kernel.c_str(), r.precision.c_str(),
                     r.status.c_str(), wall);
            return;
        }
        char ratio[32] = "";
        if (r.ratio > 0) std::snprintf(ratio, sizeof ratio, ", %.2fx cuSPARSE", r.ratio);
        progress("  %s:%s %s: %.1f GFLOP/s, %.0f%% of ceiling%s (%.1f s)", r.backend.c_str(), r.kernel.c_str(),
                 r.precision.c_str(), r.gflops, r.pct_ceiling, ratio, wall);
    }

    const BenchRun& run;
    std::size_t records_before;
    double start = elapsed_s();
};

/// The record's identity: matrix, precision, backend, kernel and lab, before anything runs.
Record new_record(const BenchRun& run, const BenchJob& job) {
    const MatrixSpec& spec = run.suite[job.matrix];
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
    rec.gpu = run.runs_on_gpu(v.backend);
    return rec;
}

/// Speed, bandwidth and the bounds of a correct run, against the backend's ceiling.
void add_figures(Record& rec, const kit::CheckedRun& c, const kit::BandwidthCeiling& ceiling, const kit::Variant& v,
                 Precision precision) {
    const kit::RunResult& r = c.result;
    rec.ms = r.median_ms();
    rec.gflops = c.gflops;
    rec.gbs = c.gbytes;
    if (ceiling.gbs > 0 && r.bytes > 0) {
        rec.pct_ceiling = 100.0 * rec.gbs / ceiling.gbs;
        rec.bound_gflops = ceiling.gbs * static_cast<double>(kit::spmv_flops(rec.nnz)) / static_cast<double>(r.bytes);
    }
    if (v.lab_bytes_per_2flops && ceiling.gbs > 0)  // a lab's own bytes model (lab 07's case study)
        rec.step_bound_gflops = ceiling.gbs * 2.0 / v.lab_bytes_per_2flops(value_bytes_of(precision));
    if (r.steady_ms > 0) {
        rec.steady_ms = r.steady_ms;
        rec.steady_gflops = c.steady_gflops;
        if (ceiling.gbs > 0) rec.steady_pct_ceiling = 100.0 * c.steady_gbytes / ceiling.gbs;
    }
    if (rec.pct_ceiling > 100.0)
        rec.note = "above ceiling: cache" + std::string(rec.note.empty() ? "" : "; ") + rec.note;
}

/// The ratio to cuSPARSE CSR: a baseline compares with the baselines already timed; a kit
/// kernel makes sure both ran.
void add_baseline_ratio(BenchRun& run, const BenchJob& job, const LoadedMatrix& m, Record& rec) {
    const kit::Variant& v = *job.variant;
    const std::string key = run.key_of(job.matrix, job.precision);
    if (is_csr_baseline(v)) {
        run.baseline_runs.insert(key + "/" + v.name);
        run.note_baseline(key, rec.ms);
    }
    if (!rec.gpu || !run.have_cuda) return;
    double base = 0.0;
    if (v.lab != "cusparse")
        base = run.csr_baseline(job, m);
    else if (const auto cached = run.csr_baseline_ms.find(key); cached != run.csr_baseline_ms.end())
        base = cached->second;
    if (base > 0) rec.ratio = base / rec.ms;
}

/// Lab 08's prediction for this kernel, if the model covers it (the CUDA kernels, not their
/// OpenCL twins).
void add_prediction(const BenchRun& run, const BenchJob& job, Record& rec) {
    const auto it = run.predictions.find(run.key_of(job.matrix, job.precision));
    if (it == run.predictions.end() || job.variant->backend != Backend::cuda) return;
    for (const kit::model::KernelPrediction& k : it->second.kit)
        if (k.variant == rec.kernel && k.feasible) {
            rec.predicted_ms = k.total_ms;
            rec.model_pick = k.variant == it->second.pick;
        }
}

/// The manual time and the counters Google Benchmark writes to bench.json.
void report_record(benchmark::State& state, const Record& rec, const kit::RunResult& r, const kit::Variant& v) {
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

void run_benchmark(BenchRun& run, benchmark::State& state, const BenchJob& job) {
    const ProgressLine line(run);
    const kit::Variant& v = *job.variant;
    Record rec = new_record(run, job);

    const LoadedMatrix& m = run.load(job.matrix);
    if (!m.error.empty()) return finish_not_ok(run, state, rec, kit::RunStatus::skipped, m.error);
    rec.nnz = m.ref->matrix().nnz();
    const kit::CheckedRun c = kit::run_checked(v, *m.ref, run.run_options(job, rec.nnz));
    const kit::RunResult& r = c.result;
    rec.device = r.device;
    rec.note = r.note;
    if (c.status == kit::RunStatus::ok || c.status == kit::RunStatus::wrong)
        rec.error = relative_error(m.ref->expected(), r.y);
    if (c.status != kit::RunStatus::ok) return finish_not_ok(run, state, rec, c.status, c.message);
    if (r.times_ms.empty() || r.median_ms() <= 0)
        return finish_not_ok(run, state, rec, kit::RunStatus::error, "the variant returned no timings");

    add_figures(rec, c, run.ceilings[v.backend], v, job.precision);
    add_baseline_ratio(run, job, m, rec);
    add_prediction(run, job, rec);
    run.records.push_back(rec);
    report_record(state, rec, r, v);
}

void report_ceiling(benchmark::State& state, const kit::BandwidthCeiling& c) {
    for (auto _ : state) state.SetIterationTime(c.gbs > 0 ? 1.0 / c.gbs : 0.0);  // seconds per GB
    state.SetLabel(c.device + "; " + c.how);
    state.counters["GBs"] = c.gbs;
    state.counters["read_GBs"] = c.read_gbs;
    state.counters["copy_kernel_GBs"] = c.copy_kernel_gbs;
    state.counters["copy_api_GBs"] = c.copy_api_gbs;
}

// ------------------------------------------------------------------ registration

/// A matrix marked own_formats_only gets the CUDA kernels of its own formats and the cuSPARSE
/// CSR baselines (for the ratio); every other matrix gets every kernel.
bool runs_on(const kit::Variant& v, const MatrixSpec& m) {
    if (!m.own_formats_only || is_csr_baseline(v)) return true;
    return v.backend == Backend::cuda && v.lab != "cusparse" &&
           std::any_of(m.own_formats.begin(), m.own_formats.end(),
                       [&](const std::string& f) { return is_own_kernel(v, f); });
}

bool sweepable(const kit::Variant& v, const MatrixSpec& m) {
    const std::string f = format_of(v.name);
    return (f == "bcsr" || f == "cusparse-bsr") && (m.family == "fem-block" || m.family == "suitesparse");
}

/// The kernel at the variant's own choice, then (--bcsr-sweep) at every setting of the block
/// size it declares (kit::tunable_settings: 1..4 x 1..4 for lab 05's kernels, b x b for b in
/// 2..4 for cuSPARSE BSR), named "@" and the values in declaration order ("@2x3", "@2").
std::vector<BenchJob> jobs_of(const BenchRun& run, int matrix, Precision p, const kit::Variant& v) {
    std::vector<BenchJob> jobs = {{matrix, p, &v, {}, v.name}};
    if (!run.opt.bcsr_sweep || !sweepable(v, run.suite[matrix])) return jobs;
    for (std::map<std::string, int>& setting : kit::tunable_settings(v)) {
        std::string values;
        for (const kit::Tunable& t : v.tunables)
            if (const auto it = setting.find(t.name); it != setting.end())
                values += (values.empty() ? "@" : "x") + std::to_string(it->second);
        jobs.push_back({matrix, p, &v, std::move(setting), v.name + values});
    }
    return jobs;
}

void register_job(BenchRun& run, const BenchJob& job) {
    const std::string name = "spmv/" + run.suite[job.matrix].name + "/" + kit::to_string(job.precision) + "/" +
                             kit::to_string(job.variant->backend) + "/" + job.kernel;
    benchmark::RegisterBenchmark(name.c_str(), [&run, job](benchmark::State& s) { run_benchmark(run, s, job); })
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
}

/// Registers every kernel on matrix `mi` in precision `p`; returns the host-side runs left
/// out by --cpu-max-nnz.
int register_matrix(BenchRun& run, int mi, Precision p) {
    const MatrixSpec& m = run.suite[mi];
    int host_limited = 0;
    for (const kit::Variant& v : run.variants) {
        if (!runs_on(v, m)) continue;
        if (!run.runs_on_gpu(v.backend) && run.cpu_max_nnz >= 0 && m.nnz_estimate > run.cpu_max_nnz) {
            ++host_limited;
            continue;
        }
        for (const BenchJob& job : jobs_of(run, mi, p, v)) register_job(run, job);
    }
    return host_limited;
}

}  // namespace

void register_benchmarks(BenchRun& run) {
    for (const auto& [backend, c] : run.ceilings) {
        const std::string name = "ceiling/" + kit::to_string(backend) + "/copy";
        benchmark::RegisterBenchmark(name.c_str(), [c = c](benchmark::State& s) { report_ceiling(s, c); })
            ->UseManualTime()
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
    }
    int host_limited = 0;
    for (int mi = 0; mi < static_cast<int>(run.suite.size()); ++mi) {
        const MatrixSpec& m = run.suite[mi];
        if (m.own_formats_only)
            run.skipped_parts.push_back(
                "limited: " + m.name + " runs only the CUDA kernels of its own formats and cuSPARSE CSR (time budget)");
        for (Precision p : run.opt.precisions) {
            if (m.double_only && p != Precision::f64) {
                run.skipped_parts.push_back("skipped: " + m.name + " in " + kit::to_string(p) +
                                            " (double only, to keep the run short)");
                continue;
            }
            host_limited += register_matrix(run, mi, p);
        }
    }
    if (host_limited)
        run.skipped_parts.push_back("skipped: " + std::to_string(host_limited) +
                                    " host-side runs (CPU, or OpenCL on a CPU) on matrices above " +
                                    millions(run.cpu_max_nnz) + " nnz (--cpu-max-nnz)");
}

}  // namespace bench
