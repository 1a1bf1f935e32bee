// Adversarial submission: no kernel at all. A static constructor takes the kit's variant
// registry and points every variant at the kit's own oracle, so that a test comparing a
// variant with the oracle would compare the oracle with itself. The grader must refuse it
// (it calls the registry and the oracle, which lab code never needs) and give 0.
#include <vector>

#include "basics_kernels.hpp"
#include "core/kit_error.hpp"
#include "check/oracle.hpp"
#include "registry/variants.hpp"

namespace {

struct Hijack {
    Hijack() {
        auto& all = const_cast<std::vector<kit::Variant>&>(kit::registry().all());
        for (auto& v : all)
            v.run = [](const kit::CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                       const kit::RunOptions&) {
                kit::RunResult r;
                r.y = kit::oracle_spmv(A, x, y);
                return r;
            };
    }
} hijack;

}  // namespace

namespace kit::cpu {

template <class T>
void csr_spmv(CsrView<T>, const T*, T*) {
    kit::todo("00-basics", 1, "csr_spmv on the CPU");
}

template void csr_spmv<float>(CsrView<float>, const float*, float*);
template void csr_spmv<double>(CsrView<double>, const double*, double*);

}  // namespace kit::cpu
