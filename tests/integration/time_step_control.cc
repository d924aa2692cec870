// TimeStepControl: after a cut-back the step grows back towards Time step, but a size that has
// just failed is tried again only after Retry after steps converged steps.
#include <hydrostat/integration/newton_control.h>

#include <gtest/gtest.h>

using namespace hydrostat;

namespace
{
  /// Time step 0.1, cut-back ½.
  TimeStepControl control_with(const unsigned int retry_after, const unsigned int growth_iterations = 0)
  {
    TimeStepControl control;
    control.time_step         = 0.1;
    control.cut_back          = 0.5;
    control.retry_after       = retry_after;
    control.growth_iterations = growth_iterations;
    return control;
  }
} // namespace

TEST(TimeStepControl, GrowsBackButDoesNotRetryAFailedSizeAtOnce)
{
  TimeStepControl control = control_with(2);
  EXPECT_DOUBLE_EQ(control.next_step(0.1, 3), 0.1);

  // 0.1 fails, 0.05 fails, 0.025 converges: growth to 0.05 waits for two more converged steps.
  control.record_cut_back(0.1);
  control.record_cut_back(0.05);
  EXPECT_DOUBLE_EQ(control.next_step(0.025, 3), 0.025);
  EXPECT_DOUBLE_EQ(control.next_step(0.025, 3), 0.025);
  EXPECT_DOUBLE_EQ(control.next_step(0.025, 3), 0.05);
  EXPECT_DOUBLE_EQ(control.next_step(0.05, 3), 0.1);
}

TEST(TimeStepControl, RetryAfterZeroGrowsAtOnce)
{
  TimeStepControl control = control_with(0);
  control.record_cut_back(0.1);
  EXPECT_DOUBLE_EQ(control.next_step(0.05, 3), 0.1);
}

TEST(TimeStepControl, GrowthIterationsHoldTheStepAfterHardSteps)
{
  TimeStepControl control = control_with(0, 4);
  EXPECT_DOUBLE_EQ(control.next_step(0.05, 5), 0.05);
  EXPECT_DOUBLE_EQ(control.next_step(0.05, 4), 0.1);
}
