// When the augmented-Lagrangian updates of contact stop (theory.md §15.3): settled when the largest
// penetration is within the tolerance and no partner face changes; at the limit of updates
// otherwise, and then the step is accepted with a warning that names the shortfall and the
// parameters to raise; penalty contact (no updates asked for) has no tolerance to miss.
#include <gtest/gtest.h>

#include <hydrostat/physics/rigid_contact.h>

using namespace hydrostat;

namespace
{
  RigidContact::Controls controls(const double tolerance, const unsigned int max_augmentations)
  {
    RigidContact::Controls c;
    c.tolerance         = tolerance;
    c.max_augmentations = max_augmentations;
    return c;
  }
} // namespace

TEST(ContactAugmentation, StopsWhenSettled)
{
  std::string why = "left from before";
  EXPECT_TRUE(controls(0.01, 20).stop_augmenting(0.01, false, 3, why));
  EXPECT_EQ(why, "");
}

TEST(ContactAugmentation, GoesOnBelowTheLimit)
{
  std::string why;
  EXPECT_FALSE(controls(0.01, 20).stop_augmenting(0.0101, false, 19, why));
  EXPECT_FALSE(controls(0.01, 20).stop_augmenting(0.001, true, 0, why)); // a partner changed
  EXPECT_EQ(why, "");
}

TEST(ContactAugmentation, StopsAtTheLimitAndSaysWhy)
{
  std::string why;
  EXPECT_TRUE(controls(0.01, 20).stop_augmenting(0.0534, false, 20, why));
  EXPECT_EQ(why, "largest penetration 0.0534 of the cell size after 20 augmentations (parameter "
                 "'Contact/Penetration tolerance' = 0.01): raise 'Contact/Maximum augmentations' or "
                 "'Contact/Penalty factor'");
  EXPECT_TRUE(controls(0.01, 1).stop_augmenting(0.001, true, 1, why));
  EXPECT_EQ(why, "largest penetration 0.001 of the cell size and partner faces still changing after 1 "
                 "augmentation (parameter 'Contact/Penetration tolerance' = 0.01): raise 'Contact/Maximum "
                 "augmentations' or 'Contact/Penalty factor'");
}

TEST(ContactAugmentation, PenaltyContactHasNoShortfall)
{
  std::string why;
  EXPECT_TRUE(controls(0.001, 0).stop_augmenting(0.3, false, 0, why));
  EXPECT_EQ(why, "");
}
