// Lab 02 public tests. Tier 1: the 4x4 example, exact. Tier 2: rdb450 against the oracle.
#include "csr_kernels.hpp"
#include "test_support.hpp"

using kit::Backend;
using namespace kit::testing;

KIT_SPMV_TEST(Step1_CsrScalarCuda, Example4x4, "csr-scalar", Backend::cuda, example4x4_problem(), true)
KIT_SPMV_TEST(Step1_CsrScalarCuda, Rdb450, "csr-scalar", Backend::cuda, rdb450_problem(), false)
KIT_SPMV_TEST(Step1_CsrVectorCuda, Example4x4, "csr-vector", Backend::cuda, example4x4_problem(), true)
KIT_SPMV_TEST(Step1_CsrVectorCuda, Rdb450, "csr-vector", Backend::cuda, rdb450_problem(), false)
KIT_SPMV_TEST(Step2_CsrScalarOpenCL, Example4x4, "csr-scalar", Backend::opencl, example4x4_problem(), true)
KIT_SPMV_TEST(Step2_CsrScalarOpenCL, Rdb450, "csr-scalar", Backend::opencl, rdb450_problem(), false)
KIT_SPMV_TEST(Step3_CsrAdaptiveCuda, Example4x4, "csr-adaptive", Backend::cuda, example4x4_problem(), true)
KIT_SPMV_TEST(Step3_CsrAdaptiveCuda, Rdb450, "csr-adaptive", Backend::cuda, rdb450_problem(), false)

TEST(Step3_ChooseLanes, FollowsMeanRowLength) {
    try {
        EXPECT_EQ(kit::choose_lanes(0.0), 2) << "02-csr step 3: an empty matrix still needs a valid lane count";
        EXPECT_EQ(kit::choose_lanes(2.25), 4) << "02-csr step 3: the 4x4 example (mean 2.25) needs 4 lanes";
        EXPECT_EQ(kit::choose_lanes(5.73), 8) << "02-csr step 3: rdb450 (mean 5.73) needs 8 lanes";
        EXPECT_EQ(kit::choose_lanes(16.0), 16) << "02-csr step 3: mean 16 fits 16 lanes exactly";
        EXPECT_EQ(kit::choose_lanes(500.0), 32) << "02-csr step 3: long rows are capped at a warp";
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}
