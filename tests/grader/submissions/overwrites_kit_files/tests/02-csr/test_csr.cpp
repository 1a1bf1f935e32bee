// Adversarial submission: tests with the instructor's names that pass without checking
// anything. The grader must build the instructor's tests, never these.
#include <gtest/gtest.h>

TEST(Step2_CsrScalarOpenCL, Example4x4) {}
TEST(Step2_CsrScalarOpenCL, Rdb450) {}
TEST(Step3_ChooseLanes, FollowsMeanRowLength) {}
