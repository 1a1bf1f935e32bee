// spmv-bench --gemv-sweep (see gemv_sweep.hpp).
#include "gemv_sweep.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "measure/bandwidth_ceiling.hpp"
#include "measure/bytes_model.hpp"
#include "check/checked_run.hpp"
#include "core/kit_error.hpp"
#include "suite.hpp"
#include "registry/variants.hpp"
#if KIT_HAVE_CUDA
#include "cublas_baselines.hpp"
#include "cusparse_baselines.hpp"
#endif

namespace bench {
namespace {

// Square sizes: 256..4500 in steps of 256 for the cuBLAS target (the paper's range; 2000 is the
// suite's dense matrix), 8192 and up for the ceiling.
const int kSizes[] = {256,  512,  768,  1024, 1280, 1536, 1792, 2000, 2048, 2304, 2560, 2816,
                      3072, 3328, 3584, 3840, 4096, 4352, 4500, 8192, 10240};
// Shapes are tuned at these sizes (none of them a sweep size) and each sweep size takes the
// shape tuned nearest to it (in log n): the best shape changes with n, as the paper found.
const int kTuneSizes[] = {640, 1408, 2944, 5632};
const int kSparseSizes[] = {2000, 4096};          // the link back to SpMV
// Candidate shapes as tunables (the bench does not see lab 09's shape table): the paper's
// blocks, then lab 09's warp-columns shapes (transposed only). Unbuilt ones are refused.
std::vector<std::map<std::string, int>> candidate_shapes() {
    std::vector<std::map<std::string, int>> out;
    for (int bs : {32, 64, 128})
        for (int ty : {1, 2, 4, 8, 16}) out.push_back({{"gemv_block_size", bs}, {"gemv_thread_y", ty}});
    for (int c : {1, 2, 4, 8}) out.push_back({{"gemv_columns_per_warp", c}});
    return out;
}

struct Timed {
    bool ok = false;
    std::string status;  // why not ok
    double ms = 0, steady_ms = 0, gbs = 0, steady_gbs = 0;
    kit::count_t bytes = 0;
    std::string shape;  // the shape the kernel ran, as lab 09 names it in its note ("64x4"); "" for others
};

Timed timed(const kit::Variant& v, const kit::Reference& ref, const GemvSweepOptions& o, kit::Precision p,
            std::map<std::string, int> tunables = {}) {
    kit::RunOptions opt;
    opt.precision = p;
    opt.repeats = o.repeats;
    opt.steady_calls = o.steady;
    opt.warmup = o.warmup;
    opt.tunables = std::move(tunables);
    const kit::CheckedRun c = kit::run_checked(v, ref, opt);
    Timed t;
    t.bytes = c.result.bytes;
    if (c.result.note.rfind("shape ", 0) == 0) t.shape = c.result.note.substr(6);
    if (c.status != kit::RunStatus::ok) {
        t.status = kit::to_string(c.status) + ": " + c.message;
        return t;
    }
    t.ok = true;
    t.ms = c.result.median_ms();
    t.gbs = c.gbytes;
    t.steady_ms = c.result.steady_ms;
    t.steady_gbs = t.steady_ms > 0 ? c.result.bytes / (t.steady_ms * 1e6) : 0;
    return t;
}

kit::Reference dense_reference(int n) {
    kit::CooMatrix A = generate_dense(n, 51 + n);
    std::mt19937_64 rng(n);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> x(n), y(n);
    for (double& v : x) v = u(rng);
    for (double& v : y) v = u(rng);
    return kit::Reference(std::move(A), std::move(x), std::move(y));
}

}  // namespace

int run_gemv_sweep(const GemvSweepOptions& o) {
    if (auto why = kit::backend_unavailable(kit::Backend::cuda)) {
        std::fprintf(stderr, "gemv-sweep: needs a CUDA device: %s\n", why->c_str());
        return 2;
    }
#if KIT_HAVE_CUDA
    const kit::Variant* ours[2] = {kit::registry().find("gemv-tuned", kit::Backend::cuda),
                                   kit::registry().find("gemv-tuned-t", kit::Backend::cuda)};
    if (!ours[0] || !ours[1]) throw kit::Error("gemv-sweep: lab 09's gemv-tuned variants are not in this build");
    std::vector<kit::Variant> cublas, sparse;
    add_cublas_variants(cublas);
    for (const kit::Variant& v : kit::registry().all())
        if (v.backend == kit::Backend::cuda && v.lab != "09-gemv") sparse.push_back(v);
    add_cusparse_variants(sparse);

    const kit::BandwidthCeiling ceiling = kit::measure_device_ceiling(kit::Backend::cuda, 0, 20);
    std::printf("gemv-sweep on %s: read ceiling %.1f GB/s (copy kernel %.1f, copy API %.1f)\n", ceiling.device.c_str(),
                ceiling.read_gbs, ceiling.copy_kernel_gbs, ceiling.copy_api_gbs);
    bool wrong = false;
    const char* op_name[2] = {"N", "T"};

    // 1. tune gemv_block_size x thread_y per precision and transpose at each tuning size
    struct Tuned {
        std::map<std::string, int> tunables;  // the shape, as tunables
        std::string name;                     // and as lab 09 names it
    };
    std::map<std::tuple<int, kit::Precision, int>, Tuned> tuned;  // (size, p, op) -> best shape
    for (int size : kTuneSizes) {
        const kit::Reference ref = dense_reference(size);
        for (kit::Precision p : o.precisions)
            for (int t = 0; t < 2; ++t) {
                double best_ms = 0;
                std::printf("tuning %s %s at n = %d:", kit::to_string(p).c_str(), op_name[t], size);
                for (const auto& shape : candidate_shapes()) {
                    const Timed r = timed(*ours[t], ref, o, p, shape);
                    if (!r.ok) {
                        wrong = wrong || r.status.rfind("WRONG", 0) == 0 || r.status.rfind("ERROR", 0) == 0;
                        continue;  // a shape that is not built, or not for this transpose, is refused
                    }
                    std::printf(" %s %.1f GB/s;", r.shape.c_str(), r.gbs);
                    if (best_ms == 0 || r.ms < best_ms) best_ms = r.ms, tuned[{size, p, t}] = {shape, r.shape};
                }
                std::printf("\n  best: %s\n", tuned[{size, p, t}].name.c_str());
            }
    }
    // The shape tuned at the size nearest to n, in log n.
    const auto best_shape = [&](int n, kit::Precision p, int t) {
        int nearest = kTuneSizes[0];
        for (int size : kTuneSizes)
            if (std::abs(std::log(double(size) / n)) < std::abs(std::log(double(nearest) / n))) nearest = size;
        return tuned[{nearest, p, t}].tunables;
    };

    // 2. the sweep: ours against cuBLAS
    std::ofstream csv;
    if (!o.out_dir.empty()) {
        csv.open(o.out_dir + "/gemv_sweep.csv");
        csv << "n,precision,op,kernel,ms,gbs,steady_ms,steady_gbs,bytes,pct_read_ceiling,status,shape\n";
    }
    std::map<std::pair<kit::Precision, int>, std::pair<double, int>> log_ratio;  // sum of log(cuBLAS ms / ours ms), count
    std::vector<std::string> ceiling_lines;
    int ceiling_pass = 0, ceiling_miss = 0;
    std::printf("\n%6s %-6s %2s %10s %10s %10s %10s %8s %8s\n", "n", "prec", "op", "ours GB/s", "cuBLAS", "steady",
                "cuBLAS st", "x cuBLAS", "%read");
    const auto skipped = [&](int n) { return o.max_n > 0 && n > o.max_n; };
    for (int n : kSizes) {
        if (skipped(n)) continue;
        const kit::Reference ref = dense_reference(n);
        for (kit::Precision p : o.precisions)
            for (int t = 0; t < 2; ++t) {
                const Timed a = timed(*ours[t], ref, o, p, best_shape(n, p, t));
                const Timed b = timed(cublas[t], ref, o, p);
                for (const auto& [name, r] : {std::pair{ours[t]->name, a}, std::pair{cublas[t].name, b}}) {
                    if (!r.ok) {
                        std::printf("%6d %-6s %2s %s: %s\n", n, kit::to_string(p).c_str(), op_name[t], name.c_str(), r.status.c_str());
                        wrong = wrong || r.status.rfind("WRONG", 0) == 0 || r.status.rfind("ERROR", 0) == 0;
                    }
                    if (csv.is_open())
                        csv << n << "," << kit::to_string(p) << "," << op_name[t] << "," << name << "," << r.ms << "," << r.gbs
                            << "," << r.steady_ms << "," << r.steady_gbs << "," << r.bytes << ","
                            << (ceiling.read_gbs > 0 ? 100 * r.gbs / ceiling.read_gbs : 0) << "," << (r.ok ? "ok" : r.status) << ","
                            << r.shape << "\n";
                }
                if (!a.ok || !b.ok) continue;
                const double ratio = b.ms / a.ms, pct = ceiling.read_gbs > 0 ? 100 * a.gbs / ceiling.read_gbs : 0;
                std::printf("%6d %-6s %2s %10.1f %10.1f %10.1f %10.1f %8.2f %7.0f%%\n", n, kit::to_string(p).c_str(),
                            op_name[t], a.gbs, b.gbs, a.steady_gbs, b.steady_gbs, ratio, pct);
                if (n <= 4500) {
                    log_ratio[{p, t}].first += std::log(ratio);
                    ++log_ratio[{p, t}].second;
                }
                if (n >= 8192) {
                    char line[160];
                    std::snprintf(line, sizeof line, "  %s n = %d %s %s: %.0f%% of the read ceiling", pct >= 90 ? "PASS" : "MISS",
                                  n, kit::to_string(p).c_str(), op_name[t], pct);
                    ceiling_lines.push_back(line);
                    ++(pct >= 90 ? ceiling_pass : ceiling_miss);
                }
            }
    }

    // 3. the link back to SpMV: the best sparse kernel of the kit on the same dense matrices
    std::printf("\nthe same dense matrices as sparse matrices (cold figures; bytes from each format's model):\n");
    std::printf("%6s %-6s %-24s %10s %12s %10s\n", "n", "prec", "kernel", "ms", "MB moved", "GB/s");
    for (int n : kSparseSizes) {
        if (skipped(n)) continue;
        const kit::Reference ref = dense_reference(n);
        for (kit::Precision p : o.precisions) {
            const Timed a = timed(*ours[0], ref, o, p, best_shape(n, p, 0));
            const Timed b = timed(cublas[0], ref, o, p);
            std::string best_name = "none";
            Timed best;
            for (const kit::Variant& v : sparse) {
                const Timed r = timed(v, ref, o, p);
                if (r.ok && (!best.ok || r.ms < best.ms)) best = r, best_name = v.name;
            }
            for (const auto& [name, r] : {std::pair{ours[0]->name, a}, std::pair{cublas[0].name, b}, std::pair{best_name, best}})
                if (r.ok)
                    std::printf("%6d %-6s %-24s %10.4f %12.1f %10.1f\n", n, kit::to_string(p).c_str(), name.c_str(), r.ms,
                                r.bytes / 1e6, r.gbs);
            if (csv.is_open() && best.ok)
                csv << n << "," << kit::to_string(p) << ",N,best-sparse:" << best_name << "," << best.ms << "," << best.gbs << ","
                    << best.steady_ms << "," << best.steady_gbs << "," << best.bytes << ","
                    << (ceiling.read_gbs > 0 ? 100 * best.gbs / ceiling.read_gbs : 0) << ",ok,\n";
        }
    }

    // 4. targets
    std::printf("\ntargets:\n");
    double all_sum = 0;
    int all_count = 0;
    for (const auto& [key, sc] : log_ratio) {
        const double g = std::exp(sc.first / sc.second);
        all_sum += sc.first;
        all_count += sc.second;
        std::printf("  %s geomean x cuBLAS over n = 256..4500, %s %s: %.2f\n", g >= 1.0 ? "PASS" : "MISS",
                    kit::to_string(key.first).c_str(), op_name[key.second], g);
    }
    if (all_count)
        std::printf("  %s geomean x cuBLAS over all of them: %.2f (target >= 1.0)\n",
                    std::exp(all_sum / all_count) >= 1.0 ? "PASS" : "MISS", std::exp(all_sum / all_count));
    for (const std::string& l : ceiling_lines) std::printf("%s (target >= 90%%)\n", l.c_str());
    std::printf("gemv-sweep: ceiling targets %d PASS, %d MISS%s\n", ceiling_pass, ceiling_miss,
                wrong ? "; some results were WRONG or ERROR (see above)" : "");
    if (csv.is_open()) std::printf("gemv-sweep: wrote %s/gemv_sweep.csv\n", o.out_dir.c_str());
    release_cublas();
    return wrong ? 1 : 0;
#else
    (void)o;
    return 2;
#endif
}

}  // namespace bench
