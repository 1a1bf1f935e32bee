/// @file variants.hpp
/// @brief The registry of SpMV variants: one entry per (kernel, backend), shared by
/// `spmv-kit`, `make run`, the tests and the benchmarks.
///
/// A variant owns the whole path from the hub matrix to a result: convert to its
/// format, move data to its device, run y <- y + A x, time it, bring y back. Each lab
/// registers its variants in `labs/NN-name/register.cpp`; the kernels themselves live
/// in the student files (`reference/NN-name/`, `starter/NN-name/`).
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/kit_error.hpp"
#include "formats/coo.hpp"
#include "core/timing.hpp"
#include "core/types.hpp"

namespace kit {

/// @brief Which OpenCL device to run on: for the platform and the device, an index or a part
/// of the name. Empty: $KIT_CL_PLATFORM / $KIT_CL_DEVICE, else the first GPU, else the first device.
struct OpenClChoice {
    std::string platform;  ///< platform index or name part ("": the default rule)
    std::string device;    ///< device index or name part ("": the default rule)
    /// @brief True if nothing is chosen.
    bool empty() const { return platform.empty() && device.empty(); }
};

/// @brief A CUDA kernel bound to a matrix already converted and on the GPU, for a caller that
/// runs it inside a pipeline of its own (lab 10's ranks multiply their blocks with the kit's
/// registered kernels). Made by bind_kernel().
struct BoundKernel {
    virtual ~BoundKernel() = default;
    /// @brief Enqueues y += A x on the legacy default stream, where the kit's kernels launch.
    /// @param x [in] device x of the precision it was bound in  @param y [in,out] device y
    virtual void apply(const void* x, void* y) = 0;
    Precision precision = Precision::f64;  ///< the value type of x, y and the stored matrix
    count_t bytes = 0;                     ///< bytes per SpMV, from the format's bytes model
    std::string note;                      ///< the format's facts, as a run's note
};

/// @brief How to run a variant.
struct RunOptions {
    Precision precision = Precision::f64;  ///< working precision
    int repeats = 0;                       ///< cold timed repeats after the checked run (0: none); see timing.hpp
    int warmup = 2;                        ///< untimed runs before the timed ones
    int steady_calls = 0;                  ///< calls timed back to back for the steady figure (0: none)
    /// Format parameters by name, as each variant declares them (Variant::tunables, with their
    /// ranges). A name that is absent means the format's default or its autotuner; no lab's
    /// names live in the kit's common options.
    std::map<std::string, int> tunables;
    /// The OpenCL device; it takes effect through backend_unavailable(Backend, const RunOptions&),
    /// and the first OpenCL use in a process fixes the device for the rest of it.
    OpenClChoice opencl;
    /// Set by bind_kernel(): a CUDA variant built with cuda_variant then converts and uploads the
    /// matrix, hands the bound kernel over here and runs nothing (an empty RunResult).
    std::function<void(std::unique_ptr<BoundKernel>)> bind = {};
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

/// @brief One format parameter a variant reads from RunOptions::tunables, declared once in its
/// lab's registration so that the CLI can offer it and check_tunables() can check it; no other
/// code spells its range.
struct Tunable {
    std::string name;            ///< key in RunOptions::tunables, e.g. a block dimension
    int min = 0;                 ///< smallest accepted value
    int max = 0;                 ///< largest accepted value
    std::string help;            ///< one line: what it sets
    bool powers_of_two = false;  ///< only powers of two in min..max are built
    /// Tunables of one group are set together, and a variant reads one group at a time (a
    /// launch shape given as block size and height, or as columns per warp); "": its own group.
    std::string group = {};
};

/// @brief Roles a lab declares for a variant (Variant::roles), for the tools that treat some
/// kernels apart (the benchmark's targets, the GEMV sweep) without naming them.
namespace role {
/// Splits the work evenly whatever the row lengths: held to a target of its own against the vendor's CSR.
inline const std::string load_balanced = "load-balanced";
/// The kernel a user runs without a model: the "always this kernel" rule the format model must beat.
inline const std::string default_choice = "default-choice";
/// Takes its launch shape from tunables, which the GEMV sweep tunes per size.
inline const std::string shape_tuned = "shape-tuned";
/// Multiplies by the transpose of the stored matrix.
inline const std::string transposed = "transposed";
}  // namespace role

/// @brief One SpMV kernel on one backend.
struct Variant {
    std::string name;     ///< kernel name, "<format>-<how>" by convention; unique per backend
    Backend backend;      ///< where it runs
    std::string lab;      ///< lab folder, NN-name
    int step;             ///< step of the lab's handout that writes it
    std::string summary;  ///< one line: how threads map to data
    RunFunction run;      ///< the whole path: convert, upload, run, time, download
    /// Optional: a lab's own bytes model per multiply-add (2 flops) for a value of the given
    /// size, when the lab teaches one (lab 07's case study); the benchmark reports the bound it implies.
    std::function<double(int value_bytes)> lab_bytes_per_2flops = {};
    /// The format parameters it reads (RunOptions::tunables), with their ranges; empty: none.
    std::vector<Tunable> tunables = {};
    /// The family a user picks it from: kernels over the same stored entries in the same order
    /// ("csr" for the CSR kernels, CSR5 and the segmented COO kernel; "dense" for GEMV); "": its own.
    std::string family = {};
    /// Its roles (kit::role), for the benchmark; empty: none.
    std::set<std::string> roles = {};
    /// @brief True if the lab declared role `r` for it. @param r [in] a kit::role
    bool has_role(const std::string& r) const { return roles.count(r) > 0; }
    /// @brief The declaration of tunable `name`, or nullptr if the variant reads no such tunable.
    /// @param tunable_name [in] key in RunOptions::tunables
    const Tunable* find_tunable(const std::string& tunable_name) const {
        for (const Tunable& t : tunables)
            if (t.name == tunable_name) return &t;
        return nullptr;
    }
};

/// @brief A command-line spelling of a group of tunables, offered by the lab that reads them
/// (`spmv-kit run OPTION VALUE`), so the CLI parses it without knowing the lab.
struct TunableOption {
    std::string option;  ///< e.g. "--block"
    std::string syntax;  ///< what VALUE looks like, for --help
    std::string help;    ///< one line for --help
    /// VALUE -> the tunables it sets (an empty map leaves the defaults); throws Error on a
    /// malformed VALUE. Ranges are checked afterwards, against the variant's declarations.
    std::function<std::map<std::string, int>(const std::string& value)> parse;
};

/// @brief A lab's own program run as an `spmv-kit` subcommand (a profiler, a calibration):
/// the CLI lists and runs it by the name it registers, never by the lab's name.
struct LabTool {
    std::string name;   ///< subcommand, e.g. "calibrate"
    std::string lab;    ///< lab folder that owns it
    std::string usage;  ///< one line for `spmv-kit --help`
    /// Runs it on the arguments after the subcommand; returns the exit status, throws kit::Error.
    std::function<int(const std::vector<std::string>& args)> run;
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
    /// @brief Adds a lab's subcommand. @param tool [in] the tool (its name must be new)
    void add_tool(LabTool tool);
    /// @brief Every lab tool, in registration order.
    const std::vector<LabTool>& tools() const { return tools_; }
    /// @brief The tool named `name`, or nullptr. @param name [in] subcommand
    const LabTool* find_tool(const std::string& name) const;
    /// @brief Adds a lab's command-line spelling of its tunables. @param option [in] the option
    void add_option(TunableOption option) { options_.push_back(std::move(option)); }
    /// @brief Every tunable option, in registration order.
    const std::vector<TunableOption>& options() const { return options_; }

private:
    std::vector<Variant> variants_;
    std::vector<LabTool> tools_;
    std::vector<TunableOption> options_;
};

/// @brief Every setting of `v`'s tunables that a search should try: one group at a time, the
/// product of its tunables' values (powers of two where declared so, else every value).
/// @param v [in] the variant
std::vector<std::map<std::string, int>> tunable_settings(const Variant& v);

/// @brief Checks every tunable set in `opt` against `v`'s declarations: the one place where a
/// tunable's range is enforced for user input. Throws Error naming the tunable, its range and
/// its help, or the tunables `v` reads when it reads no such name.
/// @param v [in] the variant to run  @param opt [in] the options holding the tunables
void check_tunables(const Variant& v, const RunOptions& opt);

/// @brief Binds CUDA variant `v` to matrix A on the GPU, once: converted, uploaded, ready to
/// multiply device vectors (BoundKernel::apply). Throws Error if `v` cannot be bound (it is not
/// a CUDA variant built with cuda_variant, or its backend cannot run here).
/// @param v [in] the variant  @param A [in] normalized hub matrix  @param opt [in] precision, tunables
std::unique_ptr<BoundKernel> bind_kernel(const Variant& v, const CooMatrix& A, RunOptions opt);

/// @brief The registry, filled on first use with every lab's variants.
const Registry& registry();

/// @brief Why a backend cannot run here (not built in, no device), or nothing if it can.
/// @param b [in] backend
std::optional<std::string> backend_unavailable(Backend b);

/// @brief As backend_unavailable(b), on the device `opt` chooses: its OpenCL choice becomes the
/// process's (an error once another device is in use). @param b [in] backend
/// @param opt [in] run options (their OpenCL choice)
std::optional<std::string> backend_unavailable(Backend b, const RunOptions& opt);

/// @brief The OpenCL device chosen through backend_unavailable(b, opt) (empty if none was).
const OpenClChoice& opencl_choice();

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

/// @brief y as a CPU kernel sees it, between two bands of kGuard entries holding -0.0: a
/// kernel that writes outside y[0, n) (a row index past the matrix's edge with no check) turns
/// a band's -0.0 into another value, even when it adds a zero (-0.0 + 0.0 is +0.0), and check()
/// says so, where the write would otherwise land silently in the heap.
template <class T>
class GuardedY {
public:
    static constexpr std::size_t kGuard = 64;  ///< entries in each band
    /// @brief Copies y between the bands. @param y [in] initial y
    explicit GuardedY(const std::vector<T>& y) : buf_(y.size() + 2 * kGuard, T(-0.0)) {
        std::copy(y.begin(), y.end(), buf_.begin() + kGuard);
    }
    /// @brief The kernel's y: entry 0 of the part between the bands. @return a pointer to it
    T* data() { return buf_.data() + kGuard; }
    /// @brief y without the bands. @return the n values
    std::vector<T> values() const { return std::vector<T>(buf_.begin() + kGuard, buf_.end() - kGuard); }
    /// @brief Throws Error naming the first band entry that changed, if any.
    void check() const {
        const std::size_t n = buf_.size() - 2 * kGuard;
        for (std::size_t k = 0; k < kGuard; ++k) {
            if (changed(k)) throw Error("the kernel wrote before y[0] (y[-" + std::to_string(kGuard - k) + "])");
            if (changed(kGuard + n + k))
                throw Error("the kernel wrote past the end of y (y[" + std::to_string(n + k) + "], y has " +
                            std::to_string(n) +
                            " entries): a row index of rows or more needs a check, such as the last block "
                            "row's rows past the matrix's edge");
        }
    }

private:
    /// Whether band entry i no longer holds -0.0 (compared by sign too: +0.0 == -0.0).
    bool changed(std::size_t i) const { return !(buf_[i] == T(0) && std::signbit(buf_[i])); }
    std::vector<T> buf_;
};

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
    GuardedY<T> guarded(yt);  // the result's run only: the timed runs below reuse yt
    kernel(xt.data(), guarded.data());
    guarded.check();
    RunResult out;
    out.y = to_double(guarded.values());
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

/// @brief The conversion a variant makes unless it names another: Format<T>::from_coo(A).
/// A variant whose format takes parameters (a block shape, a tile size, a transpose) passes
/// its own callable of the same form to cpu_variant or cuda_variant.
template <template <class> class Format>
struct FromCoo {
    /// @brief Format<T>::from_coo(A). @param A [in] hub matrix  @param opt [in] run options (unused)
    /// @param tag [in] T{}, the working precision
    template <class T>
    Format<T> operator()(const CooMatrix& A, const RunOptions& opt, T tag) const {
        (void)opt;
        (void)tag;
        return Format<T>::from_coo(A);
    }
};

/// @brief Builds the RunFunction of a CPU variant from its format and kernel.
///
/// The returned function converts the hub matrix to Format<T> once (`convert`), runs
/// `call(format.view(), x, y)` through run_on_cpu, and fills in the bytes model and the note
/// from the container it built.
/// @param call     [in] generic callable call(view, const T* x, T* y) invoking the kernel
/// @param bytes    [in] generic callable bytes(const Format<T>&, count_t value_bytes) -> count_t
/// @param describe [in] generic callable describe(const Format<T>&) -> std::string, the run's note
/// @param convert  [in] generic callable convert(const CooMatrix&, const RunOptions&, T{}) -> Format<T>
template <template <class> class Format, class Call, class Bytes, class Describe = NoNote,
          class Convert = FromCoo<Format>>
RunFunction cpu_variant(Call call, Bytes bytes, Describe describe = {}, Convert convert = {}) {
    return [call, bytes, describe, convert](const CooMatrix& A, const std::vector<double>& x,
                                            const std::vector<double>& y, const RunOptions& opt) {
        return dispatch_precision(opt.precision, [&](auto tag) {
            using T = decltype(tag);
            const Format<T> m = convert(A, opt, tag);
            RunResult out = run_on_cpu<T>(x, y, opt, [&](const T* xp, T* yp) { call(m.view(), xp, yp); });
            out.bytes = bytes(m, static_cast<count_t>(sizeof(T)));
            out.note = describe(m);
            return out;
        });
    };
}

}  // namespace kit
