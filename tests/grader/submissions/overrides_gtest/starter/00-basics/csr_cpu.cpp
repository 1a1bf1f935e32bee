// Adversarial submission: a wrong kernel (it adds nothing to y), plus a strong definition of
// an inline GoogleTest member. A strong definition beats the weak (COMDAT) copies in the test
// objects, so a specialisation that the verdict path instantiates turns failures into
// successes (this one only shows the shape; which one hits depends on the tests). The grader
// must refuse to link such code into a test program at all.
#include <gtest/gtest.h>

#include <string>

#include "basics_kernels.hpp"

template <>
testing::AssertionResult& testing::AssertionResult::operator<< <std::string>(const std::string&) {
    *this = testing::AssertionSuccess();  // whatever was appended, the check now reads as passed
    return *this;
}

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T> A, const T* x, T* y) {
    for (int i = 0; i < A.rows; ++i) y[i] += 0;
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
