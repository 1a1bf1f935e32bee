// Lab 00 public tests. Tier 1: the 4x4 example, exact. Tier 2: rdb450 against the oracle.
#include "test_support.hpp"

using kit::Backend;
using namespace kit::testing;

KIT_SPMV_TEST(Step1_CsrCpu, Example4x4, "csr", Backend::cpu, example4x4_problem(), true)
KIT_SPMV_TEST(Step1_CsrCpu, Rdb450, "csr", Backend::cpu, rdb450_problem(), false)
KIT_SPMV_TEST(Step2_CsrCuda, Example4x4, "csr", Backend::cuda, example4x4_problem(), true)
KIT_SPMV_TEST(Step2_CsrCuda, Rdb450, "csr", Backend::cuda, rdb450_problem(), false)
