// Lab 09, step 5 driver: the tuning sweep. For a few square dense matrices it times
// gemv-tuned and gemv-tuned-t at every built shape (gemv_block_size x thread_y, and for the
// transposed kernel the warp-columns shapes) with the kit's
// protocol (checked run first, then cold repeats with L2 evicted and steady calls back to
// back), and prints the fastest shape of each precision and transpose.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "measure/bytes_model.hpp"
#include "check/checked_run.hpp"
#include "gemv_kernels.hpp"
#include "core/kit_error.hpp"
#include "core/text.hpp"
#include "io/generators.hpp"

namespace {

const char* kHelp =
    "usage: gemv_tune [--sizes N,N,...] [--precision float|double|both] [--repeats N]\n\n"
    "Lab 09 driver (needs a CUDA GPU). Times gemv-tuned (A x) and gemv-tuned-t (A^T stored, the\n"
    "transposed kernel) at every shape built into gemv_cuda.cu (gemv_block_size x thread_y, and the\n"
    "warp-columns shapes, transposed only: REFUSED for gemv-tuned), on n x n dense\n"
    "matrices, checking each result against the oracle first. Reports GB/s of the dense bytes model\n"
    "(cold: median of repeats with L2 evicted; steady: calls back to back) and the best shape by the\n"
    "geometric mean of cold GB/s over the sizes.\n\n"
    "  --sizes      square sizes (default 512,2048,4500)\n"
    "  --precision  float, double or both (default both)\n"
    "  --repeats    cold repeats per shape (default 20)\n"
    "Exit status: 0 on success, 1 if a result was wrong, 2 on errors or without a GPU.\n";

/// What the command line asks for.
struct TuneOptions {
    std::vector<int> sizes = {512, 2048, 4500};
    std::vector<kit::Precision> precisions = {kit::Precision::f32, kit::Precision::f64};
    int repeats = 20;
    bool help = false;
};

std::vector<int> parse_sizes(const std::string& value) {
    std::vector<int> sizes;
    for (const std::string& piece : kit::split(value, ',')) sizes.push_back(std::stoi(piece));
    return sizes;
}

TuneOptions parse_options(int argc, char** argv) {
    TuneOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        const std::string value = has_value ? argv[i + 1] : "";
        if (a == "--help" || a == "-h")
            o.help = true;
        else if (a == "--sizes" && has_value)
            o.sizes = parse_sizes(value), ++i;
        else if (a == "--precision" && has_value)
            o.precisions = value == "both" ? o.precisions : std::vector<kit::Precision>{kit::parse_precision(value)},
            ++i;
        else if (a == "--repeats" && has_value)
            o.repeats = std::max(1, std::stoi(value)), ++i;
        else
            throw kit::Error("gemv_tune: unknown argument '" + a + "'\n" + kHelp);
    }
    return o;
}

/// log GB/s summed per (kernel and precision, shape), for the geometric mean over the sizes.
struct ShapeTally {
    std::map<std::string, std::map<std::string, double>> log_sum;
    std::map<std::string, int> counted;
    bool wrong = false;
};

/// One kernel in one precision on one matrix, at every built shape (the others are refused).
[[maybe_unused]] void time_shapes(const kit::Variant& v, const kit::Reference& ref, kit::Precision p, int n,
                                  const std::vector<kit::GemvShape>& shapes, int repeats, ShapeTally& tally) {
    std::printf("\n%s, n = %d, %s:\n  %-8s %10s %10s %10s\n", v.name.c_str(), n, kit::to_string(p).c_str(), "shape",
                "cold ms", "cold GB/s", "steady GB/s");
    for (const kit::GemvShape s : shapes) {
        kit::RunOptions opt;
        opt.precision = p;
        opt.repeats = repeats;
        opt.steady_calls = 100;
        opt.tunables = kit::gemv_tunables(s);
        const kit::CheckedRun c = kit::run_checked(v, ref, opt);
        if (c.status != kit::RunStatus::ok) {
            tally.wrong = tally.wrong || kit::is_failure(c.status);
            std::printf("  %-8s %s: %s\n", kit::to_string(s).c_str(), kit::to_string(c.status).c_str(),
                        c.message.c_str());
            continue;
        }
        std::printf("  %-8s %10.4f %10.1f %10.1f\n", kit::to_string(s).c_str(), c.result.median_ms(), c.gbytes,
                    c.steady_gbytes);
        const std::string key = v.name + " " + kit::to_string(p);
        tally.log_sum[key][kit::to_string(s)] += std::log(c.gbytes);
        ++tally.counted[key + kit::to_string(s)];
    }
}

/// The shape with the best geometric mean of each kernel and precision, among the shapes that
/// ran at every size.
[[maybe_unused]] void print_best(const std::vector<int>& sizes, ShapeTally& tally) {
    std::printf("\nbest shape by geometric mean of cold GB/s over n =");
    for (int n : sizes) std::printf(" %d", n);
    std::printf(":\n");
    for (const auto& [key, per_shape] : tally.log_sum) {
        std::string best;
        double best_mean = -1;
        for (const auto& [shape, sum] : per_shape) {
            if (tally.counted[key + shape] != static_cast<int>(sizes.size())) continue;  // failed somewhere
            const double mean = std::exp(sum / tally.counted[key + shape]);
            if (mean > best_mean) best_mean = mean, best = shape;
        }
        std::printf("  %-20s %s (%.1f GB/s)\n", key.c_str(), best.empty() ? "none" : best.c_str(), best_mean);
    }
}

/// An n x n dense matrix, x and y in [-1, 1], seeded by n: the same problem every run.
[[maybe_unused]] kit::Reference dense_problem(int n) {
    kit::RandomXY xy = kit::random_xy(n, n, n);
    return kit::Reference(kit::generate_dense(n, n, 91 + n), std::move(xy.x), std::move(xy.y));
}

int run(int argc, char** argv) {
    const TuneOptions o = parse_options(argc, argv);
    if (o.help) {
        std::printf("%s", kHelp);
        return 0;
    }
    if (auto why = kit::backend_unavailable(kit::Backend::cuda)) {
        std::fprintf(stderr, "gemv_tune: needs a CUDA GPU: %s\n", why->c_str());
        return 2;
    }
#if KIT_HAVE_CUDA
    const std::vector<kit::GemvShape> shapes = kit::cuda::gemv_shapes();
    std::printf("device: %s\n", kit::backend_device_name(kit::Backend::cuda).c_str());
    ShapeTally tally;
    for (int n : o.sizes) {
        const kit::Reference ref = dense_problem(n);
        for (kit::Precision p : o.precisions)
            for (const char* name : {"gemv-tuned", "gemv-tuned-t"}) {
                const kit::Variant* v = kit::registry().find(name, kit::Backend::cuda);
                if (!v) throw kit::Error(std::string("gemv_tune: variant ") + name + " is not registered");
                time_shapes(*v, ref, p, n, shapes, o.repeats, tally);
            }
    }
    print_best(o.sizes, tally);
    return tally.wrong ? 1 : 0;
#else
    return 2;
#endif
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const kit::TodoError& e) {  // the starter's step 5: "your code is still TODO" is exit 1, as everywhere
        std::fprintf(stderr, "gemv_tune: %s\n", e.what());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gemv_tune: %s\n", e.what());
        return 2;
    }
}
