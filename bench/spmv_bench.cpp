// spmv-bench: every registered SpMV variant and the cuSPARSE baselines on the matrix suite,
// as Google Benchmark benchmarks. `make bench` runs it; bench/README.md explains the method.
//
// This file sets the run up (devices, ceilings, kernels) and writes the summary at the end;
// spmv_bench_run.* hold the run's state, which every benchmark is given, and
// spmv_bench_cases.cpp the benchmarks themselves.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <sys/stat.h>

#include "core/kit_error.hpp"
#include "core/text.hpp"
#include "gemv_sweep.hpp"
#include "measure/bandwidth_ceiling.hpp"
#include "registry/variants.hpp"
#include "report.hpp"
#include "spmv_bench_run.hpp"
#include "suite.hpp"
#if KIT_HAVE_CUDA
#include "cusparse_baselines.hpp"
#endif

namespace bench {
namespace {

using kit::Backend;

/// A console reporter that prints nothing: every figure it would print is in the JSON, and
/// the summary prints the same figures readably.
class QuietReporter : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
};

// ------------------------------------------------------------------ setup

void measure_ceilings(BenchRun& run) {
    const kit::BandwidthCeiling cpu = kit::measure_cpu_ceiling(128, 5);
    run.ceilings[Backend::cpu] = cpu;
    run.on_gpu[Backend::cpu] = false;
    progress("ceiling cpu: %.1f GB/s (%s)", cpu.gbs, cpu.how.c_str());
    for (auto [b, repeats] : {std::pair{Backend::cuda, 20}, std::pair{Backend::opencl, 10}}) {
        if (kit::backend_unavailable(b)) continue;
        const kit::BandwidthCeiling c = kit::measure_device_ceiling(b, 0, repeats);
        run.ceilings[b] = c;
        run.on_gpu[b] = c.is_gpu;
        progress("ceiling %s: %.1f GB/s (%s on %s; read %.1f, copy kernel %.1f, copy API %.1f)",
                 kit::to_string(b).c_str(), c.gbs, c.how.c_str(), c.device.c_str(), c.read_gbs, c.copy_kernel_gbs,
                 c.copy_api_gbs);
    }
    // Lab 08's device parameters: a calibrate file if $KIT_DEVICE_PARAMS names one, else the
    // documented defaults with this run's measured CUDA bandwidth.
    run.model_params = kit::model::load_device_params(&run.model_source);
    if (!std::getenv("KIT_DEVICE_PARAMS") && run.ceilings.count(Backend::cuda)) {
        run.model_params.bandwidth_gbs = run.ceilings[Backend::cuda].gbs;
        run.model_params.device = run.ceilings[Backend::cuda].device;
        run.model_source = "defaults, bandwidth measured by this run";
    }
}

void collect_variants(BenchRun& run) {
    std::map<Backend, int> dropped;
    for (const kit::Variant& v : kit::registry().all()) {
        if (kit::backend_unavailable(v.backend))
            ++dropped[v.backend];
        else
            run.variants.push_back(v);
    }
#if KIT_HAVE_CUDA
    if (run.have_cuda)
        add_cusparse_variants(run.variants);
    else
        run.skipped_parts.push_back("skipped: cuSPARSE baselines (no CUDA device)");
#else
    run.skipped_parts.push_back(
        "skipped: CUDA kernels and cuSPARSE baselines (built without CUDA: nvcc was not found)");
#endif
    for (const auto& [backend, n] : dropped)
        run.skipped_parts.push_back("skipped: " + std::to_string(n) + " " + kit::to_string(backend) +
                                    " kernels: " + kit::backend_unavailable(backend).value_or(""));
}

void print_list(const BenchRun& run, std::ostream& out) {
    out << "matrices (" << run.suite.size() << "):\n";
    for (const MatrixSpec& m : run.suite) {
        out << "  " << m.name << "  family=" << m.family << "  ~" << millions(m.nnz_estimate) << " nnz";
        if (!m.own_formats.empty()) {
            out << "  own structure of:";
            for (const std::string& f : m.own_formats) out << " " << f;
        }
        out << (m.double_only ? "  (double only)" : "") << "\n";
    }
    out << "kernels (" << run.variants.size() << "):\n";
    for (const kit::Variant& v : run.variants)
        out << "  " << kit::to_string(v.backend) << ":" << v.name << "  format=" << format_of(v.name)
            << "  lab=" << v.lab << " step " << v.step << "\n";
}

void make_dir(const std::string& dir) {
    std::string path;
    for (const std::string& part : kit::split(dir, '/')) {
        path += part + "/";
        mkdir(path.c_str(), 0755);  // existing folders are fine
    }
}

int finish(const BenchRun& run, const std::string& out_dir) {
    std::ostringstream text;
    print_table(text, run.records);
    const TargetTally tally = print_targets(text, run.records, run.have_cuda);
    int ok = 0, wrong = 0, errors = 0, skipped = 0;
    for (const Record& r : run.records) {
        if (r.status == "ok")
            ++ok;
        else if (r.status == "WRONG")
            ++wrong;
        else if (r.status == "ERROR")
            ++errors;
        else
            ++skipped;
    }
    text << "\n";
    for (const std::string& line : run.skipped_parts) text << line << "\n";
    char line[512];
    for (const auto& [backend, c] : run.ceilings) {
        std::snprintf(line, sizeof line, "ceiling %s: %.1f GB/s (%s, %s; read %.1f, copy kernel %.1f, copy API %.1f)\n",
                      kit::to_string(backend).c_str(), c.gbs, c.how.c_str(), c.device.c_str(), c.read_gbs,
                      c.copy_kernel_gbs, c.copy_api_gbs);
        text << line;
    }
    std::snprintf(
        line, sizeof line,
        "bench: %zu runs: %d ok, %d wrong, %d errors, %d skipped; targets %d PASS, %d MISS, %d NOT RUN; %.0f s\n",
        run.records.size(), ok, wrong, errors, skipped, tally.pass, tally.miss, tally.not_run, elapsed_s());
    text << line;
    std::cout << text.str() << std::flush;
    if (!out_dir.empty()) {
        std::ofstream(out_dir + "/summary.txt") << text.str();
        write_csv(out_dir + "/summary.csv", run.records);
        std::cout << "bench: wrote " << out_dir << "/bench.json, summary.txt, summary.csv\n";
    }
    return wrong + errors > 0 ? 1 : 0;
}

/// Google Benchmark's arguments: --out=DIR also sends its JSON there (the folder is made),
/// unless --benchmark_out is given. `out_dir` gets DIR.
std::vector<std::string> benchmark_args(int argc, char** argv, std::string& out_dir) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--help") std::cout << bench_usage() << "\nGoogle Benchmark flags:\n";
    std::vector<std::string> args(argv, argv + argc);
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
    return args;
}

/// The devices, the suite and the kernels of the run; returns the matrix size it chose.
Size start_run(BenchRun& run) {
    run.have_cuda = !kit::backend_unavailable(Backend::cuda);
    for (Backend b : {Backend::cuda, Backend::opencl}) {
        const auto why = kit::backend_unavailable(b);
        progress("%s: %s", kit::to_string(b).c_str(),
                 why ? ("SKIPPED: " + *why).c_str() : kit::backend_device_name(b).c_str());
    }
    const Size size = run.opt.size == "auto" ? (run.have_cuda ? Size::large : Size::small) : parse_size(run.opt.size);
    run.cpu_max_nnz = run.opt.cpu_max_nnz >= 0 ? run.opt.cpu_max_nnz : (run.have_cuda ? 4'000'000 : -1);
    run.suite = build_suite(size, run.opt.suitesparse_dir);
    collect_variants(run);
    return size;
}

/// The size, the GPU backends and the ceilings, in bench.json's context.
void add_context(const BenchRun& run, Size size) {
    benchmark::AddCustomContext("kit_size", to_string(size));
    std::string gpu_backends;
    for (const auto& [backend, on] : run.on_gpu)
        if (on) gpu_backends += (gpu_backends.empty() ? "" : ",") + kit::to_string(backend);
    benchmark::AddCustomContext("gpu_backends", gpu_backends);
    for (const auto& [backend, c] : run.ceilings) {
        benchmark::AddCustomContext("ceiling_" + kit::to_string(backend) + "_GBs", std::to_string(c.gbs));
        benchmark::AddCustomContext("device_" + kit::to_string(backend), c.device);
    }
}

int main_impl(int argc, char** argv) {
    std::string out_dir;
    std::vector<std::string> args = benchmark_args(argc, argv, out_dir);
    std::vector<char*> cargs;
    for (std::string& a : args) cargs.push_back(a.data());
    int cargc = static_cast<int>(cargs.size());
    benchmark::Initialize(&cargc, cargs.data());
    BenchRun run;
    run.opt = parse_bench_options(cargc, cargs.data());
    if (run.opt.gemv_sweep)
        return run_gemv_sweep(
            {run.opt.precisions, run.opt.repeats, run.opt.steady, run.opt.warmup, out_dir, run.opt.gemv_max_n});

    const Size size = start_run(run);
    if (run.opt.list) {
        print_list(run, std::cout);
        return 0;
    }
    for (const std::string& line : run.skipped_parts) progress("%s", line.c_str());
    progress("size %s: %zu matrices, %zu kernels, %d repeats each (median reported)", to_string(size).c_str(),
             run.suite.size(), run.variants.size(), run.opt.repeats);
    measure_ceilings(run);
    add_context(run, size);
    register_benchmarks(run);
    // Google Benchmark's own rows (300-character lines with SI prefixes) go to the JSON only;
    // the terminal gets the kit's progress lines and, at the end, the summary table.
    QuietReporter quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
    benchmark::Shutdown();
    return finish(run, out_dir);  // run, and cuSPARSE's handle with its variants, go while CUDA is up
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
