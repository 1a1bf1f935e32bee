// calibrate: measures the device parameters of lab 08's time model on the CUDA GPU and writes
// them as a text file for $KIT_DEVICE_PARAMS. Measured: DRAM bandwidth (the kit's read/copy
// ceiling) and the launch cost (the cold median of csr-scalar on the 4x4 example, all launch and
// no data). Kept at the documented H100 defaults: clock, SMs, lanes, warp, step, gather and PCIe
// figures (format_model.hpp); edit the file to change them.
#include <cstdio>
#include <string>

#include "bandwidth_ceiling.hpp"
#include "checked_run.hpp"
#include "format_model.hpp"
#include "kit_error.hpp"
#include "variants.hpp"

namespace {

const char* kHelp =
    "usage: calibrate [--out FILE]   (default FILE: device_params.txt)\n"
    "Measures DRAM bandwidth and kernel launch cost on the CUDA GPU and writes lab 08's\n"
    "device parameter file; point KIT_DEVICE_PARAMS at it for spmv-kit info and run --format auto.\n"
    "Exit status: 0 written, 2 on bad arguments or no CUDA device.\n";

}  // namespace

int main(int argc, char** argv) {
    std::string out = "device_params.txt";
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--help" || a == "-h") {
                std::printf("%s", kHelp);
                return 0;
            }
            if (a == "--out" && i + 1 < argc) out = argv[++i];
            else throw kit::Error("unknown argument '" + a + "'; see calibrate --help");
        }
        if (auto why = kit::backend_unavailable(kit::Backend::cuda)) throw kit::BackendUnavailable("CUDA: " + *why);
        kit::model::DeviceParams p = kit::model::h100_defaults();
        const kit::BandwidthCeiling c = kit::measure_device_ceiling(kit::Backend::cuda, std::size_t(1) << 30, 10);
        p.device = c.device;
        p.bandwidth_gbs = c.gbs;

        kit::CooMatrix A;
        A.rows = A.cols = 4;
        const int rows[] = {0, 0, 1, 1, 2, 2, 2, 3, 3}, cols[] = {0, 1, 1, 2, 0, 2, 3, 1, 3};
        for (int k = 0; k < 9; ++k) A.add(rows[k], cols[k], 1.0);
        A.normalize();
        const kit::Reference ref(A, std::vector<double>(4, 1.0), std::vector<double>(4, 1.0));
        const kit::Variant* v = kit::registry().find("csr-scalar", kit::Backend::cuda);
        if (!v) throw kit::Error("csr-scalar is not built in");
        kit::RunOptions opt;
        opt.repeats = 50;
        const kit::CheckedRun run = kit::run_checked(*v, ref, opt);
        if (run.status != kit::RunStatus::ok) throw kit::Error("csr-scalar on the 4x4 example: " + run.message);
        p.launch_us = run.result.median_ms() * 1e3;

        kit::model::write_device_params(out, p,
                                        "lab 08 device parameters, written by calibrate\nbandwidth_gbs: " + c.how +
                                            "; launch_us: cold median of csr-scalar on the 4x4 example\n"
                                            "the other keys are the documented H100 defaults (format_model.hpp)");
        std::printf("calibrate  %s: %.1f GB/s (%s), launch %.2f us -> %s\n", p.device.c_str(), p.bandwidth_gbs,
                    c.how.c_str(), p.launch_us, out.c_str());
        return 0;
    } catch (const kit::Error& e) {
        std::fprintf(stderr, "calibrate: %s\n", e.what());
        return 2;
    }
}
