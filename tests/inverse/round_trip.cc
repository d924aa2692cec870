// Round trip of the inverse run (theory.md §16, issue 28): a forward run with known smooth
// activations of three groups (longitudinal fibres in the halves x > 0, x < 0 and y > 0 of a
// cylinder clamped at its base: each bends the tip its own way and shortens it) records its tip
// displacement; the inverse run with that record as targets of the three components must find the
// three activations (as many marker components as exciters) and follow the tip; the replay that it
// writes (its activations as tables) must repeat the inverse run. Quasi-static and dynamic.
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 60
#include <gtest/gtest.h>

#include "case_builder.h"
#include "clamped_cylinder.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  constexpr double end_time = 0.1;
  // The forward activations, functions of s = t / end_time.
  double right(const double s) { return 0.3 * s; }
  double left(const double s) { return 0.2 * s * s; }
  double upper(const double s) { return 0.25 * std::sin(M_PI / 2 * s); }

  /// The case in @p mode; @p inverse: the groups controlled and the targets from @p target_file.
  std::string parameters(const std::string &mode, const bool inverse, const std::string &directory,
                         const std::string &target_file = "")
  {
    const auto source = [&](const std::string &expression) {
      return test_support::activation_source(inverse ? "" : expression);
    };
    return test_support::clamped_cylinder(
      mode, directory,
      {{"right", source("0.3 * t / 0.1")},
       {"left", source("0.2 * (t / 0.1)^2")},
       {"upper", source("0.25 * sin(pi / 2 * t / 0.1)")}},
      inverse ? "subsection Inverse\n  set Enabled = true\n  set Markers = 0, 0, 0.04\n  set Target file = " +
                  target_file + "\n  set Tolerance = 1e-9\n  set Maximum updates = 8\nend\n" :
                "");
  }
} // namespace

TEST(InverseRoundTrip, RecoversThreeActivationsFromTheTipAndReplaysThem)
{
  for (const std::string mode : {"quasi-static", "dynamic"})
    {
      const std::string forward_dir = "round_trip_forward_" + mode, inverse_dir = "round_trip_inverse_" + mode;
      {
        test_support::Case forward(parameters(mode, false, forward_dir));
        ASSERT_EQ(forward.simulation->run(), Simulation::Outcome::finished) << forward.log.str();
      }
      MPI_Barrier(MPI_COMM_WORLD); // rank 0 has closed the CSV files before any rank reads them
      {
        test_support::Case inverse(parameters(mode, true, inverse_dir, forward_dir + "/solution.csv"));
        ASSERT_EQ(inverse.simulation->run(), Simulation::Outcome::finished) << inverse.log.str();
        std::istringstream log(inverse.log.str());
        for (std::string line; std::getline(log, line);)
          if (line.rfind("Inverse:", 0) == 0)
            std::cout << line << std::endl;
        // The first Newton solve of each step updates the activations along its iterations
        // (theory.md eq. (77)): 3 of the 10 steps are solved again (updates only after converged
        // solves: 3 solves per step).
        const auto counts = inverse.simulation->run_statistics();
        std::cout << mode << ": " << counts.newton_iterations << " Newton iterations, " << counts.control_updates
                  << " solves again after an update" << std::endl;
        EXPECT_LE(counts.control_updates, 3u);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      {
        test_support::Case replay(test_support::text_of(inverse_dir + "/solution_replay.prm"));
        ASSERT_EQ(replay.simulation->run(), Simulation::Outcome::finished) << replay.log.str();
      }
      MPI_Barrier(MPI_COMM_WORLD);
      const auto forward  = test_support::read_csv(forward_dir + "/solution.csv"),
                 found    = test_support::read_csv(inverse_dir + "/solution_inverse.csv"),
                 tracked  = test_support::read_csv(inverse_dir + "/solution.csv"),
                 replayed = test_support::read_csv(inverse_dir + "/replay/solution.csv");
      ASSERT_EQ(found.at("time").size(), 11u);
      double activation_error = 0, tip_error = 0, replay_error = 0, travel = 0;
      for (unsigned int i = 1; i < 11; ++i)
        {
          const double s = found.at("time")[i] / end_time;
          activation_error =
            std::max({activation_error, std::abs(found.at("right")[i] - right(s)),
                      std::abs(found.at("left")[i] - left(s)), std::abs(found.at("upper")[i] - upper(s))});
          for (const std::string c : {"p0_ux", "p0_uy", "p0_uz"})
            {
              tip_error    = std::max(tip_error, std::abs(tracked.at(c)[i] - forward.at(c)[i]));
              replay_error = std::max(replay_error, std::abs(replayed.at(c)[i] - tracked.at(c)[i]));
              travel       = std::max(travel, std::abs(forward.at(c)[i]));
            }
        }
      std::cout << mode << ": largest tip travel " << travel << " m; activations within " << activation_error
                << " of the forward run's, tip within " << tip_error << " m, replay within " << replay_error << " m"
                << std::endl;
      EXPECT_GT(travel, 1e-3); // the tip moves by millimetres
      EXPECT_LT(activation_error, 1e-6);
      EXPECT_LT(tip_error, 1e-6 * travel);
      EXPECT_LT(replay_error, 1e-6 * travel);
    }
}
