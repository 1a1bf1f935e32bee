/// @file variants.hpp
/// @brief The registry of SpMV variants: one entry per (kernel, backend), shared by
/// `spmv-kit`, `make run`, the tests and the benchmarks.
///
/// A variant owns the whole path from the hub matrix to a result: convert to its
/// format, move data to its device, run y <- y + A x, time it, bring y back. Each lab
/// registers its variants in `labs/NN-name/register.cpp`; the kernels themselves live
/// in the student files (`reference/NN-name/`, `starter/NN-name/`).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/coo.hpp"
#include "core/timing.hpp"
#include "core/types.hpp"

namespace kit {

/// @brief How to run a variant.
struct RunOptions {
    Precision precision = Precision::f64;  ///< working precision
    int repeats = 0;                       ///< cold timed repeats after the checked run (0: none); see timing.hpp
    int warmup = 2;                        ///< untimed runs before the timed ones
    int steady_calls = 0;                  ///< calls timed back to back for the steady figure (0: none)
    /// Format parameters by name, e.g. "block_r" and "block_c" (BCSR) or "csr5_sigma" (CSR5).
    /// A name that is absent means the format's default or its autotuner. Each lab documents
    /// the names its variants read, so no lab's knowledge lives in the kit's common options.
    std::map<std::string, int> tunables;
    /// @brief The tunable `name`, or 0 when it is not set. @param name [in] tunable name
    int tunable(const std::string& name) const {
        const auto it = tunables.find(name);
        return it == tunables.end() ? 0 : it->second;
    }
};

/// @brief What a run produced.
struct RunResult {
    std::vector<double> y;         ///< y + A x from the first (untimed) run, widened to double
    std::vector<double> times_ms;  ///< cold: one entry per timed repeat, caches evicted before each (GPU)
    double steady_ms = 0;          ///< steady: time per call of steady_calls back-to-back calls (0: not measured)
    count_t bytes = 0;             ///< bytes moved per SpMV, from the format's bytes model
    std::string device;            ///< where it ran, e.g. "NVIDIA H100 80GB HBM3"
    std::string note;              ///< format facts worth printing (fill, chosen block size, ...)
    std::string details;           ///< a longer report for `spmv-kit run` (e.g. the autotuner's table), or ""
    /// @brief Median of the cold times_ms (0 if not timed).
    double median_ms() const { return median(times_ms); }
};

/// @brief Signature of a variant's run function.
using RunFunction = std::function<RunResult(const CooMatrix& A, const std::vector<double>& x,
                                            const std::vector<double>& y, const RunOptions& opt)>;

/// @brief One SpMV kernel on one backend.
struct Variant {
    std::string name;     ///< kernel name, e.g. "csr-vector"; unique per backend
    Backend backend;      ///< where it runs
    std::string lab;      ///< lab folder, e.g. "02-csr"
    int step;             ///< step of the lab's handout that writes it
    std::string summary;  ///< one line: how threads map to data
    RunFunction run;      ///< the whole path: convert, upload, run, time, download
    /// Optional: a lab's own bytes model per multiply-add (2 flops) for a value of the given
    /// size, when the lab teaches one (lab 07's case study); the benchmark reports the bound it implies.
    std::function<double(int value_bytes)> lab_bytes_per_2flops = {};
};

/// @brief All variants the kit was built with.
class Registry {
public:
    /// @brief Adds a variant and returns the stored copy, for metadata set after the fact.
    /// @param v [in] the variant
    Variant& add(Variant v) {
        variants_.push_back(std::move(v));
        return variants_.back();
    }
    /// @brief Every variant, in registration order.
    const std::vector<Variant>& all() const { return variants_; }
    /// @brief The variant with this name and backend, or nullptr.
    /// @param name [in] kernel name  @param backend [in] backend
    const Variant* find(const std::string& name, Backend backend) const;

private:
    std::vector<Variant> variants_;
};

/// @brief The registry, filled on first use with every lab's variants.
const Registry& registry();

/// @brief Why a backend cannot run here (not built in, no device), or nothing if it can.
/// @param b [in] backend
std::optional<std::string> backend_unavailable(Backend b);

/// @brief Description of the device a backend runs on ("" if unavailable).
/// @param b [in] backend
std::string backend_device_name(Backend b);

/// @brief Converts a double vector to the working precision.
/// @param v [in] values
template <class T>
std::vector<T> to_precision(const std::vector<double>& v) {
    return std::vector<T>(v.begin(), v.end());
}

/// @brief Converts a working-precision vector back to double.
/// @param v [in] values
template <class T>
std::vector<double> to_double(const std::vector<T>& v) {
    return std::vector<double>(v.begin(), v.end());
}

/// @brief Calls f(float{}) or f(double{}) according to p, so run functions are written once as templates.
/// @param p [in] precision  @param f [in] generic callable
template <class F>
auto dispatch_precision(Precision p, F&& f) {
    return p == Precision::f32 ? f(float{}) : f(double{});
}

/// @brief Runs a CPU kernel once for the result, then times it on a scratch y with the kit's
/// protocol on a host clock: opt.repeats calls timed one by one (the host's caches are not
/// evicted: the CPU kernels are teaching references, not contenders), then opt.steady_calls
/// calls back to back.
/// @param x      [in] input vector
/// @param y      [in] initial y
/// @param opt    [in] repeats, warm-up, steady calls
/// @param kernel [in] callable kernel(const T* x, T* y) computing y += A x
template <class T, class Kernel>
RunResult run_on_cpu(const std::vector<double>& x, const std::vector<double>& y, const RunOptions& opt,
                     Kernel&& kernel) {
    const std::vector<T> xt = to_precision<T>(x);
    std::vector<T> yt = to_precision<T>(y);
    kernel(xt.data(), yt.data());
    RunResult out;
    out.y = to_double(yt);
    out.device = "host CPU (1 thread)";
    if (opt.repeats <= 0 && opt.steady_calls <= 0) return out;
    for (int w = 0; w < opt.warmup; ++w) kernel(xt.data(), yt.data());
    HostTimer t;
    for (int k = 0; k < opt.repeats; ++k) {
        t.start();
        kernel(xt.data(), yt.data());
        out.times_ms.push_back(t.elapsed_ms());
    }
    if (opt.steady_calls > 0) {
        t.start();
        for (int k = 0; k < opt.steady_calls; ++k) kernel(xt.data(), yt.data());
        out.steady_ms = t.elapsed_ms() / opt.steady_calls;
    }
    return out;
}

/// @brief A describe callback that adds no note: for formats with nothing to report.
struct NoNote {
    /// @brief Returns "". @param m [in] any format
    template <class Format>
    std::string operator()(const Format& m) const {
        (void)m;
        return "";
    }
};

/// @brief Builds the RunFunction of a CPU variant from its format and kernel.
///
/// The returned function converts the hub matrix to Format<T> (Format<T>::from_coo) once,
/// runs `call(format.view(), x, y)` through run_on_cpu, and fills in the bytes model and the
/// note from the container it built.
/// @param call     [in] generic callable call(view, const T* x, T* y) invoking the kernel
/// @param bytes    [in] generic callable bytes(const Format<T>&, count_t value_bytes) -> count_t
/// @param describe [in] generic callable describe(const Format<T>&) -> std::string, the run's note
template <template <class> class Format, class Call, class Bytes, class Describe = NoNote>
RunFunction cpu_variant(Call call, Bytes bytes, Describe describe = {}) {
    return [call, bytes, describe](const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                                   const RunOptions& opt) {
        return dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const Format<T> m = Format<T>::from_coo(A);
            RunResult out = run_on_cpu<T>(x, y, opt, [&](const T* xp, T* yp) { call(m.view(), xp, yp); });
            out.bytes = bytes(m, static_cast<count_t>(sizeof(T)));
            out.note = describe(m);
            return out;
        });
    };
}

}  // namespace kit
