// libFuzzer target: the Matrix Market reader, then every format's from_coo and to_coo on
// what it accepted, then every registered CPU kernel (reference implementation) against
// the oracle through kit::run_checked, in float and double. Built with clang under
// AddressSanitizer and UBSan (fuzz/fuzz.mk).
//
// What counts as a finding: a crash, a sanitizer report, an exception that is not one of
// the kit's (kit::Error), or a broken invariant: the reader's matrix is not normalized or
// has an index out of range, a format does not give the matrix back, or a CPU kernel's
// checked run ends WRONG or ERROR. Refusals (kit::InputError from the reader,
// kit::ConversionRefused from a conversion, RunStatus::refused from a checked run, such as
// a float run of a matrix outside the float range) are the correct answer to hostile input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "formats/bcsr.hpp"
#include "check/checked_run.hpp"
#include "formats/coo.hpp"
#include "formats/csr.hpp"
#include "formats/csr5.hpp"
#include "formats/dia.hpp"
#include "formats/ell.hpp"
#include "formats/hyb.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"
#include "model/matrix_stats.hpp"
#include "registry/variants.hpp"

namespace {

[[noreturn]] void finding(const std::string& what) {
    std::fprintf(stderr, "mtx-fuzz: %s\n", what.c_str());
    std::abort();  // libFuzzer saves the input as a crash
}

/// The hub matrix in precision T with the zeros dropped: what every format must give back.
/// (DIA, ELL, HYB and BCSR cannot tell an explicit zero from padding.)
template <class T>
kit::CooMatrix expected_in(const kit::CooMatrix& A) {
    kit::CooMatrix E;
    E.rows = A.rows;
    E.cols = A.cols;
    for (std::size_t k = 0; k < A.vals.size(); ++k) {
        const T v = static_cast<T>(A.vals[k]);
        if (v != T(0)) E.add(A.row_idx[k], A.col_idx[k], static_cast<double>(v));
    }
    return E;
}

kit::CooMatrix without_zeros(kit::CooMatrix B) {
    kit::CooMatrix E;
    E.rows = B.rows;
    E.cols = B.cols;
    B.normalize();
    for (std::size_t k = 0; k < B.vals.size(); ++k)
        if (B.vals[k] != 0.0) E.add(B.row_idx[k], B.col_idx[k], B.vals[k]);
    return E;
}

void same(const kit::CooMatrix& want, const kit::CooMatrix& got, const char* format) {
    const kit::CooMatrix g = without_zeros(got);
    if (g.rows != want.rows || g.cols != want.cols || g.row_idx != want.row_idx || g.col_idx != want.col_idx ||
        g.vals != want.vals)
        finding(std::string(format) + ": to_coo(from_coo(A)) differs from A");
}

template <class F>
void conversion(const char* format, F&& round_trip) {
    try {
        round_trip();
    } catch (const kit::ConversionRefused&) {
        // a refusal with figures is the documented answer to too much fill
    } catch (const kit::Error& e) {
        finding(std::string(format) + ": unexpected kit::Error: " + e.what());
    }
}

template <class T>
void every_format(const kit::CooMatrix& A) {
    const kit::CooMatrix want = expected_in<T>(A);
    conversion("coo", [&] { same(want, kit::Coo<T>::from_coo(A).to_coo(), "coo"); });
    conversion("csr", [&] { same(want, kit::Csr<T>::from_coo(A).to_coo(), "csr"); });
    conversion("dia", [&] { same(want, kit::Dia<T>::from_coo(A).to_coo(), "dia"); });
    conversion("ell", [&] { same(want, kit::Ell<T>::from_coo(A).to_coo(), "ell"); });
    conversion("hyb", [&] { same(want, kit::Hyb<T>::from_coo(A).to_coo(), "hyb"); });
    conversion("csr5", [&] { same(want, kit::Csr5<T>::from_coo(A).to_coo(), "csr5"); });
    for (int r = 1; r <= 4; ++r)
        for (int c = 1; c <= 4; ++c)
            conversion("bcsr", [&] { same(want, kit::Bcsr<T>::from_coo(A, r, c).to_coo(), "bcsr"); });
}

/// Every CPU variant in both precisions, checked against the oracle.
void every_cpu_kernel(const kit::CooMatrix& A) {
    // x and y with varied signs and magnitudes, so a kernel that drops or repeats a term shows
    std::vector<double> x(static_cast<std::size_t>(A.cols)), y(static_cast<std::size_t>(A.rows));
    for (std::size_t j = 0; j < x.size(); ++j)
        x[j] = 1.0 + static_cast<double>(j % 7) * 0.25 - (j % 3 == 0 ? 3.0 : 0.0);
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<double>(i % 5) - 2.0;
    const kit::Reference ref(A, x, y);
    for (const kit::Variant& v : kit::registry().all()) {
        if (v.backend != kit::Backend::cpu) continue;
        for (kit::Precision p : {kit::Precision::f64, kit::Precision::f32}) {
            kit::RunOptions opt;
            opt.precision = p;
            const kit::CheckedRun run = kit::run_checked(v, ref, opt);
            if (kit::is_failure(run.status))
                finding(kit::where(v, p) + ": " + kit::to_string(run.status) + ": " + run.message);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    kit::ReadOptions opt;
    opt.memory_budget = std::int64_t{64} << 20;  // 64 MiB: keeps each run small and fast
    opt.max_line = 4096;
    kit::CooMatrix A;
    try {
        A = kit::read_matrix_market_bytes(reinterpret_cast<const char*>(data), size, "fuzz.mtx", nullptr, opt);
    } catch (const kit::InputError& e) {
        const std::string m = e.what();
        if (m.rfind("fuzz.mtx:", 0) != 0) finding("reader error without FILE:LINE: " + m);
        return 0;
    } catch (const kit::Error& e) {
        finding(std::string("reader threw a kit::Error that is not an InputError: ") + e.what());
    }
    if (!A.is_normalized()) finding("reader returned an unnormalized matrix");
    for (std::size_t k = 0; k < A.vals.size(); ++k)
        if (A.row_idx[k] < 0 || A.row_idx[k] >= A.rows || A.col_idx[k] < 0 || A.col_idx[k] >= A.cols)
            finding("reader returned an entry outside the matrix");

    // `spmv-kit info`'s statistics cost memory by entries, whatever the declared size (issue 42).
    const kit::MatrixStats s = kit::compute_stats(A);
    if (s.nnz != A.nnz() || s.diagonals > A.nnz() || kit::nonempty_blocks(A, 3, 5) > A.nnz())
        finding("statistics disagree with the entries");

    // Formats allocate per row (CSR, ELL, DIA): only small shapes, so each run stays fast.
    if (static_cast<std::int64_t>(A.rows) + A.cols > 20000) return 0;
    every_format<double>(A);
    every_format<float>(A);
    every_cpu_kernel(A);
    return 0;
}
