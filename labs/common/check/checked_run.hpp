/// @file checked_run.hpp
/// @brief The one checked run: run a registered variant, compare its y with the oracle, and
/// name the outcome. The CLI (`run`, `table`), the tests, the benchmark and every lab driver
/// call run_checked; none of them compares results on its own.
///
/// A Reference is built once per matrix and vectors: it holds the oracle's y and the
/// bound-derived tolerance of each precision, so a table of twenty variants computes the
/// oracle once, not twenty times.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "formats/coo.hpp"
#include "io/matrix_market.hpp"
#include "check/oracle.hpp"
#include "registry/variants.hpp"

namespace kit {

/// @brief What became of one checked run.
enum class RunStatus {
    ok,       ///< y matches the oracle within the tolerance
    wrong,    ///< y is outside the tolerance in at least one row: the kernel's fault
    todo,     ///< the student has not written this step yet (kit::TodoError)
    refused,  ///< the format or precision does not suit this matrix (a finding, not a failure)
    skipped,  ///< the backend cannot run here (no GPU, no OpenCL platform)
    error     ///< anything else went wrong (an exception the kit did not expect)
};

/// @brief "ok", "WRONG", "TODO", "REFUSED", "SKIPPED" or "ERROR", as tables print it.
/// @param s [in] status
std::string to_string(RunStatus s);

/// @brief True for the statuses that count as a failure in a table or a test: wrong and error.
/// @param s [in] status
inline bool is_failure(RunStatus s) { return s == RunStatus::wrong || s == RunStatus::error; }

/// @brief How strictly y is compared with the oracle.
enum class Comparison {
    bound,  ///< each row within the bound of spmv_tolerance (any summation order passes)
    exact   ///< every row equal (tier 1: small integers are exact in float and double)
};

/// @brief The read limits of a program that checks variants against a Reference (spmv-kit run):
/// what it allocates per declared row and column besides the entries, so that the reader
/// refuses a size line that cannot fit before anything is allocated.
/// @return ReadOptions with row_bytes, col_bytes and row_use set; the budget left at its default
ReadOptions checked_run_read_options();

/// @brief The oracle's answer for one problem, computed once, and the tolerance of each precision.
///
/// It also knows when a precision cannot represent the problem: a float run of a matrix whose
/// values or row sums exceed the float range, or any run whose row sums overflow double. Such
/// runs are refused with the reason, never blamed on the kernel.
class Reference {
public:
    /// @brief Computes the oracle and both tolerances. Throws kit::Error if x or y has the wrong length.
    /// @param A [in] hub matrix  @param x [in] A.cols values  @param y [in] A.rows values (initial y)
    Reference(CooMatrix A, std::vector<double> x, std::vector<double> y);

    /// @brief The matrix. @return the hub matrix the reference was built for
    const CooMatrix& matrix() const { return A_; }
    /// @brief The input vector x.
    const std::vector<double>& x() const { return x_; }
    /// @brief The initial y.
    const std::vector<double>& y() const { return y_; }
    /// @brief y + A x from the oracle (double precision, one loop over COO).
    const std::vector<double>& expected() const { return expected_; }
    /// @brief Per-row tolerance of results computed in precision p (see spmv_tolerance).
    /// @param p [in] precision of the run
    const std::vector<double>& tolerance(Precision p) const { return p == Precision::f32 ? tol_f32_ : tol_f64_; }
    /// @brief Why results in precision p cannot be checked, or nothing if they can.
    /// @param p [in] precision of the run
    const std::optional<std::string>& unrepresentable(Precision p) const {
        return p == Precision::f32 ? why_not_f32_ : why_not_f64_;
    }

private:
    CooMatrix A_;
    std::vector<double> x_, y_, expected_, tol_f32_, tol_f64_;
    std::optional<std::string> why_not_f32_, why_not_f64_;
};

/// @brief One checked run of one variant.
struct CheckedRun {
    RunStatus status = RunStatus::error;  ///< the verdict
    std::string message;                  ///< why, when status is not ok (names the lab and step when wrong)
    RunResult result;                     ///< what the variant produced (y, timings, bytes, notes)
    Mismatch mismatch;                    ///< the comparison with the oracle (valid for ok and wrong)
    double gflops = 0;                    ///< cold: 2 nnz / median time (0 if not timed)
    double gbytes = 0;                    ///< cold: bytes model / median time, GB/s decimal (0 if not timed)
    double steady_gflops = 0;             ///< steady: 2 nnz / time per back-to-back call (0 if not measured)
    double steady_gbytes = 0;             ///< steady: bytes model / time per call, GB/s (0 if not measured)
};

/// @brief Runs a variant on the reference's problem and checks y against the oracle.
///
/// Never throws for anything the variant does: a TODO, a refused conversion, a missing
/// backend and any other exception become the status and message of the result.
/// @param v   [in] the variant
/// @param ref [in] the problem and its oracle answer
/// @param opt [in] precision, repeats, tunables
/// @param cmp [in] tolerance from the bound, or exact equality
CheckedRun run_checked(const Variant& v, const Reference& ref, const RunOptions& opt,
                       Comparison cmp = Comparison::bound);

/// @brief run_checked with the variant's run replaced by `act`, which returns what the run
/// produced (or throws what it threw). The tests pass a call that the grader can record in
/// the student's program and replay in a judge that never runs student code.
/// @param v [in] the variant  @param ref [in] problem and oracle answer  @param opt [in] options
/// @param cmp [in] comparison  @param act [in] stands for v.run(ref.matrix(), ref.x(), ref.y(), opt)
CheckedRun run_checked(const Variant& v, const Reference& ref, const RunOptions& opt, Comparison cmp,
                       const std::function<RunResult()>& act);

/// @brief "02-csr step 2 (csr-vector on cuda in float)": where a result came from, for messages.
/// @param v [in] variant  @param p [in] precision
std::string where(const Variant& v, Precision p);

}  // namespace kit
