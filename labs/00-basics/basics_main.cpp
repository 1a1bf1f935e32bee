// Lab 00 driver: the TU Delft exercise. Prints the input and output y of y <- y + A x for
// the 4x4 example (x = y = [1,2,3,4]) and for rdb450 (x = y = 1), on the CPU and the GPU.
#include <cstdio>
#include <cstring>

#include "check/checked_run.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"

namespace {

void print_vector(const char* label, const std::vector<double>& v) {
    const std::size_t shown = v.size() <= 8 ? v.size() : 4;
    for (std::size_t i = 0; i < shown; ++i) std::printf("  %s y(%zu) = %f\n", label, i, v[i]);
    if (shown < v.size())
        std::printf("  ... (%zu more; last %s y(%zu) = %f)\n", v.size() - shown, label, v.size() - 1, v.back());
}

int exercise(const char* title, const kit::CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y) {
    std::printf("\n== %s: %d x %d, %lld nonzeros\n", title, A.rows, A.cols, static_cast<long long>(A.nnz()));
    print_vector("input ", y);
    const kit::Reference ref(A, x, y);
    kit::RunOptions opt;
    opt.precision = kit::Precision::f32;  // the exercise uses float
    int failures = 0;
    for (kit::Backend b : {kit::Backend::cpu, kit::Backend::cuda}) {
        const kit::Variant* v = kit::registry().find("csr", b);
        if (!v) continue;
        const kit::CheckedRun c = kit::run_checked(*v, ref, opt);
        if (c.status == kit::RunStatus::skipped) {
            std::printf("-- %s: skipped (%s)\n", kit::to_string(b).c_str(), c.message.c_str());
            continue;
        }
        if (c.status != kit::RunStatus::ok && c.status != kit::RunStatus::wrong) {
            std::printf("-- %s: %s: %s\n", kit::to_string(b).c_str(), kit::to_string(c.status).c_str(),
                        c.message.c_str());
            ++failures;
            continue;
        }
        std::printf("-- %s (%s):\n", kit::to_string(b).c_str(), c.result.device.c_str());
        print_vector("output", c.result.y);
        std::printf("  check against the oracle: %s\n", kit::describe(c.mismatch).c_str());
        failures += c.status != kit::RunStatus::ok;
    }
    return failures;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::printf(
            "usage: basics [MATRICES_DIR]\n\nLab 00 driver (the TU Delft exercise): y <- y + A x with your CSR\n"
            "kernels on the CPU and the GPU, for the 4x4 example and for rdb450 with x = y = 1.\n");
        return 0;
    }
    const std::string dir = argc > 1 ? argv[1] : KIT_MATRICES_DIR;
    try {
        int failures = exercise("4x4 example, x = y = [1,2,3,4]", kit::read_matrix_market(dir + "/example4x4.mtx"),
                                {1, 2, 3, 4}, {1, 2, 3, 4});
        const kit::CooMatrix rdb = kit::read_matrix_market(dir + "/rdb450.mtx");
        failures +=
            exercise("rdb450, x = y = 1", rdb, std::vector<double>(rdb.cols, 1.0), std::vector<double>(rdb.rows, 1.0));
        return failures ? 1 : 0;
    } catch (const kit::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
}
