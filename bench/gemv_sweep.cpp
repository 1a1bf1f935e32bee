// spmv-bench --gemv-sweep (see gemv_sweep.hpp).
#include "gemv_sweep.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "measure/bandwidth_ceiling.hpp"
#include "measure/bytes_model.hpp"
#include "check/checked_run.hpp"
#include "core/kit_error.hpp"
#include "io/generators.hpp"
#include "registry/variants.hpp"
#if KIT_HAVE_CUDA
#include "cublas_baselines.hpp"
#include "cusparse_baselines.hpp"
#endif

namespace bench {
namespace {

// Square sizes: 256..4500 in steps of 256 for the cuBLAS target (the paper's range; 2000 is the
// suite's dense matrix), 8192 and up for the ceiling.
const int kSizes[] = {256,  512,  768,  1024, 1280, 1536, 1792, 2000, 2048, 2304, 2560,
                      2816, 3072, 3328, 3584, 3840, 4096, 4352, 4500, 8192, 10240};
// Shapes are tuned at these sizes (none of them a sweep size) and each sweep size takes the
// shape tuned nearest to it (in log n): the best shape changes with n, as the paper found.
const int kTuneSizes[] = {640, 1408, 2944, 5632};
const int kSparseSizes[] = {2000, 4096};  // the link back to SpMV
#if KIT_HAVE_CUDA
struct Timed {
    bool ok = false;
    std::string status;  // why not ok
    double ms = 0, steady_ms = 0, gbs = 0, steady_gbs = 0;
    kit::count_t bytes = 0;
    std::string shape;  // the shape a shape-tuned kernel ran, as its note names it ("64x4"); "" for others
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
    kit::RandomXY xy = kit::random_xy(n, n, n);
    return kit::Reference(kit::generate_dense(n, n, 51 + n), std::move(xy.x), std::move(xy.y));
}

const char* const kOpName[2] = {"N", "T"};

bool failed(const Timed& r) { return r.status.rfind("WRONG", 0) == 0 || r.status.rfind("ERROR", 0) == 0; }

/// One sweep: the kernels it compares, the shapes it tuned, the figures it gathered.
class GemvSweep {
public:
    explicit GemvSweep(const GemvSweepOptions& o) : o_(o) {
        // Ours: the dense kernels whose shape is tuned, without and with the transpose; the
        // link back to SpMV: every other CUDA kernel of the kit, and cuSPARSE's.
        for (const kit::Variant& v : kit::registry().all()) {
            if (v.backend != kit::Backend::cuda) continue;
            if (v.family != "dense")
                sparse_.push_back(v);
            else if (v.has_role(kit::role::shape_tuned))
                ours_[v.has_role(kit::role::transposed) ? 1 : 0] = &v;
        }
        if (!ours_[0] || !ours_[1]) throw kit::Error("gemv-sweep: the shape-tuned GEMV variants are not in this build");
        add_cublas_variants(cublas_);
        add_cusparse_variants(sparse_);
        ceiling_ = kit::measure_device_ceiling(kit::Backend::cuda, 0, 20);
        std::printf("gemv-sweep on %s: read ceiling %.1f GB/s (copy kernel %.1f, copy API %.1f)\n",
                    ceiling_.device.c_str(), ceiling_.read_gbs, ceiling_.copy_kernel_gbs, ceiling_.copy_api_gbs);
        if (!o_.out_dir.empty()) {
            csv_.open(o_.out_dir + "/gemv_sweep.csv");
            csv_ << "n,precision,op,kernel,ms,gbs,steady_ms,steady_gbs,bytes,pct_read_ceiling,status,shape\n";
        }
    }

    /// 1. The fastest shape per precision and transpose at each tuning size.
    void tune() {
        for (int size : kTuneSizes) {
            const kit::Reference ref = dense_reference(size);
            for (kit::Precision p : o_.precisions)
                for (int t = 0; t < 2; ++t) tune_one(ref, size, p, t);
        }
    }

    /// 2. Ours against cuBLAS at every size.
    void sweep() {
        std::printf("\n%6s %-6s %2s %10s %10s %10s %10s %8s %8s\n", "n", "prec", "op", "ours GB/s", "cuBLAS", "steady",
                    "cuBLAS st", "x cuBLAS", "%read");
        for (int n : kSizes) {
            if (skipped(n)) continue;
            const kit::Reference ref = dense_reference(n);
            for (kit::Precision p : o_.precisions)
                for (int t = 0; t < 2; ++t) compare(ref, n, p, t);
        }
    }

    /// 3. The link back to SpMV: the best sparse kernel of the kit on the same dense matrices.
    void sparse_link() {
        std::printf("\nthe same dense matrices as sparse matrices (cold figures; bytes from each format's model):\n");
        std::printf("%6s %-6s %-24s %10s %12s %10s\n", "n", "prec", "kernel", "ms", "MB moved", "GB/s");
        for (int n : kSparseSizes) {
            if (skipped(n)) continue;
            const kit::Reference ref = dense_reference(n);
            for (kit::Precision p : o_.precisions) best_sparse(ref, n, p);
        }
    }

    /// 4. The targets; returns the exit status.
    int targets() {
        std::printf("\ntargets:\n");
        double all_sum = 0;
        int all_count = 0;
        for (const auto& [key, sc] : log_ratio_) {
            const double g = std::exp(sc.first / sc.second);
            all_sum += sc.first;
            all_count += sc.second;
            std::printf("  %s geomean x cuBLAS over n = 256..4500, %s %s: %.2f\n", g >= 1.0 ? "PASS" : "MISS",
                        kit::to_string(key.first).c_str(), kOpName[key.second], g);
        }
        if (all_count)
            std::printf("  %s geomean x cuBLAS over all of them: %.2f (target >= 1.0)\n",
                        std::exp(all_sum / all_count) >= 1.0 ? "PASS" : "MISS", std::exp(all_sum / all_count));
        for (const std::string& l : ceiling_lines_) std::printf("%s (target >= 90%%)\n", l.c_str());
        std::printf("gemv-sweep: ceiling targets %d PASS, %d MISS%s\n", ceiling_pass_, ceiling_miss_,
                    wrong_ ? "; some results were WRONG or ERROR (see above)" : "");
        if (csv_.is_open()) std::printf("gemv-sweep: wrote %s/gemv_sweep.csv\n", o_.out_dir.c_str());
        return wrong_ ? 1 : 0;
    }

private:
    struct Tuned {
        std::map<std::string, int> tunables;  // the shape, as tunables
        std::string name;                     // and as the kernel names it in its note
    };

    bool skipped(int n) const { return o_.max_n > 0 && n > o_.max_n; }

    double pct_of_read(double gbs) const { return ceiling_.read_gbs > 0 ? 100 * gbs / ceiling_.read_gbs : 0; }

    void tune_one(const kit::Reference& ref, int size, kit::Precision p, int t) {
        double best_ms = 0;
        std::printf("tuning %s %s at n = %d:", kit::to_string(p).c_str(), kOpName[t], size);
        // Every declared shape: one that is not built, or not for this transpose, is refused.
        for (const auto& shape : kit::tunable_settings(*ours_[t])) {
            const Timed r = timed(*ours_[t], ref, o_, p, shape);
            if (!r.ok) {
                wrong_ = wrong_ || failed(r);
                continue;
            }
            std::printf(" %s %.1f GB/s;", r.shape.c_str(), r.gbs);
            if (best_ms == 0 || r.ms < best_ms) best_ms = r.ms, tuned_[{size, p, t}] = {shape, r.shape};
        }
        std::printf("\n  best: %s\n", tuned_[{size, p, t}].name.c_str());
    }

    /// The shape tuned at the size nearest to n, in log n.
    std::map<std::string, int> best_shape(int n, kit::Precision p, int t) {
        int nearest = kTuneSizes[0];
        for (int size : kTuneSizes)
            if (std::abs(std::log(double(size) / n)) < std::abs(std::log(double(nearest) / n))) nearest = size;
        return tuned_[{nearest, p, t}].tunables;
    }

    void csv_row(int n, kit::Precision p, const char* op, const std::string& name, const Timed& r) {
        if (!csv_.is_open()) return;
        csv_ << n << "," << kit::to_string(p) << "," << op << "," << name << "," << r.ms << "," << r.gbs << ","
             << r.steady_ms << "," << r.steady_gbs << "," << r.bytes << "," << pct_of_read(r.gbs) << ","
             << (r.ok ? "ok" : r.status) << "," << r.shape << "\n";
    }

    void compare(const kit::Reference& ref, int n, kit::Precision p, int t) {
        const Timed a = timed(*ours_[t], ref, o_, p, best_shape(n, p, t));
        const Timed b = timed(cublas_[t], ref, o_, p);
        for (const auto& [name, r] : {std::pair{ours_[t]->name, a}, std::pair{cublas_[t].name, b}}) {
            if (!r.ok) {
                std::printf("%6d %-6s %2s %s: %s\n", n, kit::to_string(p).c_str(), kOpName[t], name.c_str(),
                            r.status.c_str());
                wrong_ = wrong_ || failed(r);
            }
            csv_row(n, p, kOpName[t], name, r);
        }
        if (!a.ok || !b.ok) return;
        const double ratio = b.ms / a.ms, pct = pct_of_read(a.gbs);
        std::printf("%6d %-6s %2s %10.1f %10.1f %10.1f %10.1f %8.2f %7.0f%%\n", n, kit::to_string(p).c_str(),
                    kOpName[t], a.gbs, b.gbs, a.steady_gbs, b.steady_gbs, ratio, pct);
        if (n <= 4500) {
            log_ratio_[{p, t}].first += std::log(ratio);
            ++log_ratio_[{p, t}].second;
        }
        if (n >= 8192) {
            char line[160];
            std::snprintf(line, sizeof line, "  %s n = %d %s %s: %.0f%% of the read ceiling",
                          pct >= 90 ? "PASS" : "MISS", n, kit::to_string(p).c_str(), kOpName[t], pct);
            ceiling_lines_.push_back(line);
            ++(pct >= 90 ? ceiling_pass_ : ceiling_miss_);
        }
    }

    void best_sparse(const kit::Reference& ref, int n, kit::Precision p) {
        const Timed a = timed(*ours_[0], ref, o_, p, best_shape(n, p, 0));
        const Timed b = timed(cublas_[0], ref, o_, p);
        std::string best_name = "none";
        Timed best;
        for (const kit::Variant& v : sparse_) {
            const Timed r = timed(v, ref, o_, p);
            if (r.ok && (!best.ok || r.ms < best.ms)) best = r, best_name = v.name;
        }
        for (const auto& [name, r] :
             {std::pair{ours_[0]->name, a}, std::pair{cublas_[0].name, b}, std::pair{best_name, best}})
            if (r.ok)
                std::printf("%6d %-6s %-24s %10.4f %12.1f %10.1f\n", n, kit::to_string(p).c_str(), name.c_str(), r.ms,
                            r.bytes / 1e6, r.gbs);
        if (best.ok) csv_row(n, p, "N", "best-sparse:" + best_name, best);
    }

    const GemvSweepOptions& o_;
    const kit::Variant* ours_[2] = {nullptr, nullptr};
    std::vector<kit::Variant> cublas_, sparse_;
    kit::BandwidthCeiling ceiling_;
    std::ofstream csv_;
    bool wrong_ = false;
    std::map<std::tuple<int, kit::Precision, int>, Tuned> tuned_;                 // (size, p, op) -> best shape
    std::map<std::pair<kit::Precision, int>, std::pair<double, int>> log_ratio_;  // sum of log(cuBLAS / ours), count
    std::vector<std::string> ceiling_lines_;
    int ceiling_pass_ = 0, ceiling_miss_ = 0;
};
#endif

}  // namespace

int run_gemv_sweep(const GemvSweepOptions& o) {
    if (auto why = kit::backend_unavailable(kit::Backend::cuda)) {
        std::fprintf(stderr, "gemv-sweep: needs a CUDA device: %s\n", why->c_str());
        return 2;
    }
#if KIT_HAVE_CUDA
    GemvSweep sweep(o);
    sweep.tune();
    sweep.sweep();
    sweep.sparse_link();
    return sweep.targets();
#else
    (void)o;
    return 2;
#endif
}

}  // namespace bench
