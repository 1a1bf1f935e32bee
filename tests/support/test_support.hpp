/// @file test_support.hpp
/// @brief What every lab's GoogleTest tests share: the standard matrices and vectors, and
/// one assertion that runs a registered variant and compares it with the oracle.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "check/checked_run.hpp"
#include "core/kit_error.hpp"
#include "formats/coo.hpp"
#include "registry/variants.hpp"

namespace kit::testing {

/// @brief The inputs of one SpMV check.
struct Problem {
    CooMatrix A;            ///< matrix
    std::vector<double> x;  ///< input vector
    std::vector<double> y;  ///< initial y
};

/// @brief Tier 1: the 4x4 example with x = y = [1,2,3,4]; y + Ax = [16,30,53,32].
Problem example4x4_problem();
/// @brief Tier 2: rdb450 read from matrices/rdb450.mtx, with x = y = 1 (the TU Delft exercise).
Problem rdb450_problem();
/// @brief Any matrix with deterministic pseudo-random x and y in [-1, 1].
/// @param A [in] matrix  @param seed [in] random seed
Problem random_vectors(CooMatrix A, unsigned seed);

/// @brief The precisions of an SpMV test: a typed test (KIT_PRECISION_SUITE) runs once in each.
using Precisions = ::testing::Types<float, double>;

/// @brief Names the instances of a typed suite "Suite/float" and "Suite/double": the names
/// the lab manifests grade (GoogleTest's own would be "Suite/0" and "Suite/1").
struct PrecisionNames {
    /// @brief The instance name of type T. @return "float" or "double"
    template <class T>
    static std::string GetName(int) {
        static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "SpMV tests run in float or double");
        return std::is_same_v<T, float> ? "float" : "double";
    }
};

/// @brief The fixture of a typed test over Precisions: `this->precision` is TypeParam as the
/// kit::Precision that a run is given.
template <class T>
class PrecisionTest : public ::testing::Test {
protected:
    static constexpr Precision precision =
        std::is_same_v<T, float> ? Precision::f32 : Precision::f64;  ///< of this instance
};

/// @brief A registered variant's run on one problem, checked against the oracle: what an SpMV
/// test acts on before it asserts with matches_oracle(const OracleRun&).
struct OracleRun {
    CheckedRun checked;   ///< the verdict and what the variant produced
    std::string failure;  ///< why the run does not match the oracle (lab, step, row, values); empty when it does
};

/// @brief Act: runs variant `name` on `backend` in precision `p` on the problem, observed
/// (observed_run_checked), and compares y with the oracle.
///
/// Comparison::exact demands every row equal (tier 1: small integers are exact in float);
/// Comparison::bound each row within the bound of kit::spmv_tolerance.
/// @param name [in] variant name  @param backend [in] backend  @param p [in] precision
/// @param problem [in] matrix and vectors  @param cmp [in] comparison
/// @param options [in] run options (tile shapes, ...); its precision is replaced by p
OracleRun run_against_oracle(const std::string& name, Backend backend, Precision p, const Problem& problem,
                             Comparison cmp = Comparison::bound, const RunOptions& options = {});

/// @brief Assert: success when the run matched the oracle; otherwise the failure, naming the
/// lab and step, the row, and the expected and actual values. @param run [in] a checked run
::testing::AssertionResult matches_oracle(const OracleRun& run);

/// @brief Runs variant `name` on `backend` in precision `p` and compares with the oracle.
///
/// With exact = true every row must match exactly (tier 1: small integers are exact in
/// float); otherwise each row must lie within the bound of kit::spmv_tolerance. The
/// failure message names the lab and step, the row, and the expected and actual values.
/// @param name [in] variant name  @param backend [in] backend  @param p [in] precision
/// @param problem [in] matrix and vectors  @param exact [in] demand exact equality
/// @param options [in] run options (tile shapes, ...); its precision is replaced by p
::testing::AssertionResult matches_oracle(const std::string& name, Backend backend, Precision p, const Problem& problem,
                                          bool exact = false, const RunOptions& options = {});

/// @brief kit::run_checked of a registered variant with its run observed (observe.hpp): in the
/// grader, recorded in the student's program and replayed by the judge. Every test that runs a
/// variant goes through it. @param v [in] variant  @param ref [in] problem and oracle answer
/// @param opt [in] options  @param cmp [in] comparison
CheckedRun observed_run_checked(const Variant& v, const Reference& ref, const RunOptions& opt,
                                Comparison cmp = Comparison::bound);

/// @brief Tier 3: the hostile gallery, each matrix with its name and random vectors.
///
/// Empty matrix, all-empty rows, empty rows between full ones, one dense row, rectangular
/// (wide and tall), fewer entries than a warp, sizes one past a multiple of 32, long
/// random rows, and a single row and a single column.
std::vector<std::pair<std::string, Problem>> hostile_gallery();

/// @brief Runs matches_oracle on every gallery matrix in float and double.
/// @param name [in] variant  @param backend [in] backend
::testing::AssertionResult passes_gallery(const std::string& name, Backend backend);

/// @brief Named problems, as in the gallery.
using ProblemList = std::vector<std::pair<std::string, Problem>>;

/// @brief The problems whose matrix a format accepts; the others are left out with a reason.
///
/// For formats that refuse some matrices (DIA, ELL): `convert` builds the format from the
/// matrix and throws ConversionRefused when it refuses. Any other error propagates.
/// @param problems [in] candidates  @param convert [in] callable convert(const CooMatrix&)
/// @param refused [out] "name: reason" for each problem left out
ProblemList accepted_by(const ProblemList& problems, const std::function<void(const CooMatrix&)>& convert,
                        std::vector<std::string>& refused);

/// @brief Runs matches_oracle on every problem in float and double; names the first that fails.
/// @param name [in] variant  @param backend [in] backend  @param problems [in] the problems
/// @param options [in] run options (tile shapes, ...); the precision is set for each run
::testing::AssertionResult passes_problems(const std::string& name, Backend backend, const ProblemList& problems,
                                           const RunOptions& options = {});

/// @brief How many times faster than the kit's single-threaded CPU oracle a CUDA variant must
/// be on a large matrix to show that the GPU did the work. An honest kernel, even a naive one,
/// is many times faster there; a CPU loop behind a CUDA launcher, with its copies, is slower
/// than the oracle. A grading gate with a wide margin, not a performance target (bench/ has those).
constexpr double kGpuFloorSpeedup = 4.0;

/// @brief The hidden gate of a CUDA step: runs variant `name` on `A` (large) in float,
/// checks y, and compares its cold median time with the oracle's on the same problem, timed
/// in this process (in the grader: by the judge, which never runs student code).
/// @param name [in] CUDA variant  @param A [in] a matrix of a few million entries
/// @param options [in] run options; precision and repeats are set here
::testing::AssertionResult gpu_did_the_work(const std::string& name, const CooMatrix& A,
                                            const RunOptions& options = {});

/// @brief The gate's default matrix: a 5-point stencil on a 1024 x 1024 grid (5.2 million entries).
CooMatrix gpu_floor_matrix();

}  // namespace kit::testing

/// Defines the hidden gate of a CUDA step (tests/hidden): the grader gives the step's other
/// CUDA tests of the same suite, typed instances included (Suite/float, Suite/double), no
/// points unless this passes (manifest: "gates": true).
#define KIT_GPU_FLOOR_TEST(Suite, variant, matrix)                        \
    TEST(Suite, GpuDidTheWork) {                                          \
        KIT_REQUIRE_BACKEND(::kit::Backend::cuda);                        \
        EXPECT_TRUE(::kit::testing::gpu_did_the_work(variant, (matrix))); \
    }

/// Declares the typed test suite `Suite` over float and double (instances Suite/float and
/// Suite/double); its TYPED_TESTs read `this->precision`.
#define KIT_PRECISION_SUITE(Suite)                  \
    template <class T>                              \
    using Suite = ::kit::testing::PrecisionTest<T>; \
    TYPED_TEST_SUITE(Suite, ::kit::testing::Precisions, ::kit::testing::PrecisionNames)

/// Defines a hidden-tier test that runs one variant over the whole hostile gallery.
#define KIT_GALLERY_TEST(Suite, Name, variant, backend)                \
    TEST(Suite, Name) {                                                \
        KIT_REQUIRE_BACKEND(backend);                                  \
        EXPECT_TRUE(::kit::testing::passes_gallery(variant, backend)); \
    }

/// Runs `statements`; a TodoError skips the test, naming the step it needs, instead of failing
/// it. For the kit tests (tests/NN-name/kit/, not graded) that run a lab's code: in the student
/// edition they link the starter, where that step may still be a TODO.
#define KIT_SKIP_IF_TODO(...)                                                  \
    try {                                                                      \
        __VA_ARGS__;                                                           \
    } catch (const ::kit::TodoError& kit_todo) {                               \
        GTEST_SKIP() << "needs the student's code: " << kit_todo.what();       \
    }

/// Skips the test, with the reason, when a backend cannot run here. Put it first in a test body.
#define KIT_REQUIRE_BACKEND(backend)                                                      \
    do {                                                                                  \
        if (auto kit_why = ::kit::backend_unavailable(backend)) GTEST_SKIP() << *kit_why; \
    } while (0)
