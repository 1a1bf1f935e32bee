// Adversarial submission: right, but on its first call it leaves 100 MB in /tmp and 100 MB in
// /dev/shm (two 50 MB files each: one file may not exceed the grader's output cap), plus a
// file in $TMPDIR. The grader must give each test program its own /tmp and /dev/shm and leave
// nothing of it behind; the suite checks that none of these names exists after grading.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "basics_kernels.hpp"
#include "core/kit_error.hpp"

namespace {

void fill(const std::string& path, std::size_t mb) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return;
    const std::vector<char> block(1 << 20, 'x');
    for (std::size_t i = 0; i < mb; ++i) std::fwrite(block.data(), 1, block.size(), f);
    std::fclose(f);
}

void leave_files_once() {
    static bool done = false;
    if (done) return;
    done = true;
    for (const char* top : {"/tmp", "/dev/shm"})
        for (int i = 1; i <= 2; ++i) fill(std::string(top) + "/kitgrade-fills-tmp-" + std::to_string(i), 50);
    if (const char* tmp = std::getenv("TMPDIR")) fill(std::string(tmp) + "/kitgrade-fills-tmp-scratch", 10);
}

}  // namespace

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    leave_files_once();
    for (index_t i = 0; i < A.rows; ++i) {
        T sum = 0;
        for (index_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) sum += A.vals[k] * x[A.col_idx[k]];
        y[i] += sum;
    }
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
