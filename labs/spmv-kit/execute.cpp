#include <cstdlib>
#include <limits>
#include <random>

#include "bytes_model.hpp"
#include "commands.hpp"
#include "kit_error.hpp"
#include "oracle.hpp"

namespace kit::cli {

void make_vectors(const CooMatrix& A, const std::string& kind, std::vector<double>& x, std::vector<double>& y) {
    const std::string k = kind == "auto" ? (A.rows <= 16 ? "ramp" : "ones") : kind;
    x.assign(A.cols, 1.0);
    y.assign(A.rows, 1.0);
    if (k == "ones") return;
    if (k == "ramp") {
        for (std::size_t j = 0; j < x.size(); ++j) x[j] = static_cast<double>(j + 1);
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<double>(i + 1);
        return;
    }
    if (k == "random") {
        std::mt19937 rng(12345);
        std::uniform_real_distribution<double> u(-1, 1);
        for (double& v : x) v = u(rng);
        for (double& v : y) v = u(rng);
        return;
    }
    throw Error("unknown --vectors '" + kind + "': use auto, ones, ramp or random");
}

Outcome execute(const Variant& v, const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                const RunOptions& opt) {
    Outcome o;
    if (auto why = backend_unavailable(v.backend)) {
        o.status = "SKIPPED";
        o.message = *why;
        return o;
    }
    try {
        o.result = v.run(A, x, y, opt);
    } catch (const TodoError& e) {
        o.status = "TODO";
        o.message = e.what();
        return o;
    } catch (const ConversionRefused& e) {
        o.status = "REFUSED";  // the format does not suit this matrix: a finding, not a failure
        o.message = e.what();
        return o;
    } catch (const BackendUnavailable& e) {
        o.status = "SKIPPED";
        o.message = e.what();
        return o;
    } catch (const std::exception& e) {
        o.status = "ERROR";
        o.message = e.what();
        return o;
    }
    const auto expected = oracle_spmv(A, x, y);
    const double eps = opt.precision == Precision::f32 ? std::numeric_limits<float>::epsilon()
                                                       : std::numeric_limits<double>::epsilon();
    const Mismatch m = compare_with_oracle(expected, o.result.y, spmv_tolerance(A, x, y, eps));
    o.max_error = m.max_error;
    o.status = m.row < 0 ? "ok" : "WRONG";
    if (m.row >= 0) o.message = v.lab + " step " + std::to_string(v.step) + ": " + describe(m);
    const double ms = o.result.median_ms();
    if (ms > 0) {
        o.gflops = static_cast<double>(spmv_flops(A.nnz())) / (ms * 1e6);
        o.gbytes = static_cast<double>(o.result.bytes) / (ms * 1e6);
    }
    return o;
}

void select_opencl(const std::string& platform, const std::string& device) {
    if (!platform.empty()) setenv("KIT_CL_PLATFORM", platform.c_str(), 1);
    if (!device.empty()) setenv("KIT_CL_DEVICE", device.c_str(), 1);
}

}  // namespace kit::cli
