// Lab 07 driver: the DIA optimisation path of the AMD case study on the case study's matrix.
// Generates the radius grid, measures the copy-bandwidth ceiling of the device, runs every
// step, checks it against the oracle, and prints GFLOP/s next to the step's bound.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "measure/bytes_model.hpp"
#include "measure/bandwidth_ceiling.hpp"
#include "dia_path.hpp"
#include "io/generators.hpp"
#include "check/checked_run.hpp"
#include "registry/variants.hpp"

namespace {

const char* const usage = R"(usage: dia_path [options]

Lab 07 driver: the DIA optimisation path of the AMD case study (handouts/07-dia-opencl.md).
Builds the case study's matrix (a 2-D grid, each point coupled to every point within a
radius), measures the bandwidth ceiling of the OpenCL device (the highest of a read kernel,
a copy kernel and clEnqueueCopyBuffer), then runs each step, checks it against the oracle and
prints its GFLOP/s in both timing modes (cold: caches evicted before each repeat; steady:
calls back to back) next to the case study's 2010 bound: ceiling * 2 / (bytes per 2 flops).

  --nx N, --ny N        grid size (default 481 x 321: the article's 154401 rows)
  --radius R            coupling radius (default 5: 81 diagonals in 11 bands)
  --large               a 1283 x 857 grid: 1099531 rows (not a multiple of 32 or 4), about
                        88M nonzeros, a matrix far larger than any GPU cache (the targets' size)
  --precision P         float (default, as in the case study) or double; step 5 and
                        dia-texture are float only: n/a in double
  --repeats N           cold repeats per step, median reported (default 20)
  --steady N            calls back to back for the steady figure (default 100)
  --copy-mb N           buffer size of the ceiling measurement in MB (default 256)
  --cuda                also run the CUDA counterparts against the CUDA copy ceiling
  --cl-platform P       OpenCL platform: index or name substring (default: $KIT_CL_PLATFORM,
                        else the first with a GPU)
  --cl-device D         OpenCL device: index or name substring (default: $KIT_CL_DEVICE)
  --help                this text

Small or odd grids (e.g. --nx 37 --ny 29, rows % 4 != 0) check the edge cases.
Exit status: 0 if every step that ran matched the oracle, 1 otherwise, 2 on bad options.
)";

struct Options {
    int nx = 481, ny = 321, radius = 5, repeats = 20, steady = 100, copy_mb = 256;
    kit::Precision precision = kit::Precision::f32;
    bool cuda = false;
    kit::OpenClChoice opencl;  ///< --cl-platform, --cl-device
};

long parse_int(const char* name, const char* text, long lo, long hi) {
    char* end = nullptr;
    const long v = text ? std::strtol(text, &end, 10) : 0;
    if (!text || *end != '\0' || v < lo || v > hi)
        throw kit::Error(std::string("dia_path: ") + name + " needs an integer in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]; see --help");
    return v;
}

/// An option that takes an integer in [lo, hi].
struct IntOption {
    const char* name;
    int Options::*field;
    long lo, hi;
};

const IntOption int_options[] = {
    {"--nx", &Options::nx, 1, 1 << 16},           {"--ny", &Options::ny, 1, 1 << 16},
    {"--radius", &Options::radius, 0, 64},        {"--repeats", &Options::repeats, 1, 10000},
    {"--copy-mb", &Options::copy_mb, 1, 1 << 16}, {"--steady", &Options::steady, 1, 100000},
};

/// Applies option `a`, taking its value from value() where it has one; false if `a` is unknown.
template <class Value>
bool apply_option(const std::string& a, Value&& value, Options& o) {
    for (const IntOption& opt : int_options)
        if (a == opt.name) {
            o.*opt.field = static_cast<int>(parse_int(opt.name, value(), opt.lo, opt.hi));
            return true;
        }
    if (a == "--large") {
        o.nx = 1283, o.ny = 857;
    } else if (a == "--cuda") {
        o.cuda = true;
    } else if (a == "--precision") {
        const char* p = value();
        if (!p) throw kit::Error("dia_path: --precision needs float or double");
        o.precision = kit::parse_precision(p);
    } else if (a == "--cl-platform" || a == "--cl-device") {
        const char* v = value();
        if (!v) throw kit::Error("dia_path: " + a + " needs a value");
        (a == "--cl-platform" ? o.opencl.platform : o.opencl.device) = v;
    } else {
        return false;
    }
    return true;
}

/// Parses argv; returns false after printing the help.
bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
        auto value = [&] {
            ++i;
            return next;
        };
        if (a == "--help" || a == "-h") {
            std::fputs(usage, stdout);
            return false;
        }
        if (!apply_option(a, value, o)) throw kit::Error("dia_path: unknown option '" + a + "'; see --help");
    }
    return true;
}

/// Bandwidth ceiling of a backend in GB/s, or 0 (with a printed reason) where it cannot be measured.
double ceiling(kit::Backend b, const Options& o) {
    kit::RunOptions device;
    device.opencl = o.opencl;  // the first OpenCL use fixes the device: the ceiling comes first
    if (auto why = kit::backend_unavailable(b, device)) {
        std::printf("%-7s ceiling: not measured (%s)\n", kit::to_string(b).c_str(), why->c_str());
        return 0;
    }
    const std::size_t bytes = static_cast<std::size_t>(o.copy_mb) * 1000 * 1000;
    const kit::BandwidthCeiling c = kit::measure_device_ceiling(b, bytes, 10);
    std::printf("%-7s ceiling: %.1f GB/s on %s (%s; read %.1f, copy kernel %.1f, copy API %.1f GB/s)\n",
                kit::to_string(b).c_str(), c.gbs, c.device.c_str(), c.how.c_str(), c.read_gbs, c.copy_kernel_gbs,
                c.copy_api_gbs);
    return c.gbs;
}

/// Runs step s, checks it and prints its row of the table; returns 1 if it failed, else 0.
/// cl_gbs and cuda_gbs are the backends' ceilings (0: not measured).
int run_step(const kit::dia_path::StepInfo& s, const kit::Reference& ref, const Options& o, double cl_gbs,
             double cuda_gbs) {
    std::printf("%-4d %-12s %-7s ", s.step, s.variant, kit::to_string(s.backend).c_str());
    const kit::Variant* v = kit::registry().find(s.variant, s.backend);
    if (!v) {
        std::printf("SKIPPED: not registered in this build\n");
        return 0;
    }
    kit::RunOptions opt;
    opt.precision = o.precision;
    opt.repeats = o.repeats;
    opt.steady_calls = o.steady;
    opt.opencl = o.opencl;
    const kit::CheckedRun c = kit::run_checked(*v, ref, opt);
    if (c.status == kit::RunStatus::skipped && !kit::backend_unavailable(s.backend, opt)) {
        std::printf("n/a: %s\n", c.message.c_str());  // the device is here: the step takes float only
        return 0;
    }
    if (c.status != kit::RunStatus::ok && c.status != kit::RunStatus::wrong) {
        std::printf("%s: %s\n", kit::to_string(c.status).c_str(), c.message.c_str());
        return c.status == kit::RunStatus::todo || kit::is_failure(c.status) ? 1 : 0;
    }
    const int vb = static_cast<int>(kit::value_bytes_of(o.precision));
    const double gbs = s.backend == kit::Backend::cuda ? cuda_gbs : cl_gbs;
    std::printf("%10.3f %9.2f %9.2f %8d ", c.result.median_ms(), c.gflops, c.steady_gflops,
                kit::dia_path::bytes_per_2_flops(s.step, vb));
    if (s.backend == kit::Backend::cpu || gbs <= 0) {
        std::printf("%9s %8s  ", "-", "-");
    } else {
        const double bound = kit::dia_path::gflops_bound(s.step, vb, gbs);
        std::printf("%9.2f %7.1f%%  ", bound, 100.0 * c.gflops / bound);
    }
    std::printf("%s\n", c.status == kit::RunStatus::ok ? "ok" : ("WRONG: " + c.message).c_str());
    return c.status != kit::RunStatus::ok ? 1 : 0;
}

int run(const Options& o) {
    const kit::CooMatrix A = kit::generate_radius_grid(o.nx, o.ny, o.radius);
    const kit::Dia<float> layout = kit::Dia<float>::from_coo(A);
    std::printf("matrix: radius-%d grid %d x %d: %d rows, %lld nonzeros, %d diagonals, fill %.3f (slots / nonzeros)\n",
                o.radius, o.nx, o.ny, A.rows, static_cast<long long>(A.nnz()), layout.diagonals(), layout.fill());
    kit::RandomXY xy = kit::random_xy(A.cols, A.rows, 2010);
    const kit::Reference ref(A, std::move(xy.x), std::move(xy.y));

    const double cl_gbs = ceiling(kit::Backend::opencl, o);
    const double cuda_gbs = o.cuda ? ceiling(kit::Backend::cuda, o) : 0.0;
    std::printf(
        "precision %s; cold: median of %d repeats, caches evicted before each; steady: %d calls back to back\n"
        "B/2flop and bound are the case study's 2010 model (history); %% bound compares the cold figure\n\n",
        kit::to_string(o.precision).c_str(), o.repeats, o.steady);
    std::printf("%-4s %-12s %-7s %10s %9s %9s %8s %9s %8s  %s\n", "step", "kernel", "backend", "cold ms", "cold GF/s",
                "steady GF", "B/2flop", "bound", "% bound", "check");
    int bad = 0;
    for (const auto& s : kit::dia_path::steps())
        if (s.backend != kit::Backend::cuda || o.cuda) bad += run_step(s, ref, o, cl_gbs, cuda_gbs);
    std::printf(
        "\nThe CPU step runs on one host thread and has no device bound. History: the case study\n"
        "measured 13.1, 13.9, 24.5, 32.9, 49.2 GFLOP/s for steps 1-5 on a Radeon HD 5870, against\n"
        "bounds of 25.6, 25.6, 38.4, 38.4, 76.8 from its 153.6 GB/s peak bandwidth.\n");
    return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        Options o;
        if (!parse(argc, argv, o)) return 0;
        return run(o);
    } catch (const kit::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "dia_path: %s\n", e.what());
        return 2;
    }
}
