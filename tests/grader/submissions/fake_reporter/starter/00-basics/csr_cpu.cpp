// Adversarial submission: the starter's unfinished kernel, plus a static object that
// installs GoogleTest's own fake test-part reporter before the tests start. Every failure
// and every GTEST_SKIP then goes to the fake reporter, and GoogleTest writes a consistent
// all-passed results file. The grader must refuse to run this code.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "basics_kernels.hpp"
#include "core/kit_error.hpp"

namespace {
testing::TestPartResultArray swallowed;
testing::ScopedFakeTestPartResultReporter* fake = nullptr;
struct Install {
    Install() {
        fake = new testing::ScopedFakeTestPartResultReporter(
            testing::ScopedFakeTestPartResultReporter::INTERCEPT_ALL_THREADS, &swallowed);
    }
} install;
}  // namespace

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    kit::todo("00-basics", 1, "cpu::csr_spmv");
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
