// Lab 01 public tests. Tier 1: the 4x4 example, exact. Tier 2: rdb450 against the oracle.
#include "test_support.hpp"

using kit::Backend;
using namespace kit::testing;

KIT_SPMV_TEST(Step1_CooCpu, Example4x4, "coo", Backend::cpu, example4x4_problem(), true)
KIT_SPMV_TEST(Step1_CooCpu, Rdb450, "coo", Backend::cpu, rdb450_problem(), false)
KIT_SPMV_TEST(Step2_CooAtomicCuda, Example4x4, "coo-atomic", Backend::cuda, example4x4_problem(), true)
KIT_SPMV_TEST(Step2_CooAtomicCuda, Rdb450, "coo-atomic", Backend::cuda, rdb450_problem(), false)
KIT_SPMV_TEST(Step3_CooSegmentedCuda, Example4x4, "coo-segmented", Backend::cuda, example4x4_problem(), true)
KIT_SPMV_TEST(Step3_CooSegmentedCuda, Rdb450, "coo-segmented", Backend::cuda, rdb450_problem(), false)
