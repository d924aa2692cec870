// hydrostat-hill: runs the piglet muscle–tendon-unit experiments of Kleinbach et al. 2017
// (isometric, concentric, quick release) with the extended Hill-type model and writes one CSV
// time series per case. Usage: hydrostat-hill case.prm | --help | --print-parameters.
#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/hill/hill_experiment.h>
#include <hydrostat/io/case_file.h>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace hydrostat;
using dealii::Patterns::Double;

namespace
{
  void declare(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Experiment");
    prm.declare_entry("Kind", "isometric", dealii::Patterns::Selection("isometric|concentric|quick release"),
                      "isometric: both ends held; concentric: mass resting on a support at the start length, "
                      "lifted when F_MTC > m g; quick release: held until the release time, then free with the mass.");
    prm.declare_entry("MTC lengths", "0.0615", dealii::Patterns::List(Double(0.0), 1),
                      "Start lengths l_MTC [m]; one run per length and mass.");
    prm.declare_entry("Masses", "0", dealii::Patterns::List(Double(0.0), 1),
                      "Masses [kg] at the lower node (ignored for isometric runs).");
    prm.declare_entry("Case names", "", dealii::Patterns::List(dealii::Patterns::Anything(), 0),
                      "Names of the runs for the output files, lengths-major (empty: numbered).");
    prm.declare_entry("Gravity", "9.81", Double(0.0), "Gravity [m/s^2], lengthening the MTC.");
    prm.declare_entry("End time", "1.5", Double(0.0), "End time [s].");
    prm.declare_entry("Release time", "1.0", Double(0.0), "Quick release: time [s] at which the lower end is freed.");
    prm.declare_entry("Stimulation", "0,0; 0.1,0; 0.1,1; 1.1,1; 1.1,0; 1.5,0", dealii::Patterns::Anything(),
                      "Stimulation load curve STIM(t): 't0,v0; t1,v1; ...' (a repeated t is a jump).");
    prm.declare_entry("LCINT", "100", dealii::Patterns::Integer(0),
                      "Resample the stimulation at this many points as LS-DYNA does (0: use the curve as given).");
    prm.leave_subsection();

    prm.enter_subsection("Time integration");
    prm.declare_entry("Integrator", "lsdyna", dealii::Patterns::Selection("lsdyna|adaptive"),
                      "lsdyna: explicit central difference + umat41 explicit-Euler cycle (reproduces the published "
                      "transients); adaptive: Dormand-Prince 5(4) with error control.");
    prm.declare_entry("Time step", "0", Double(0.0), "lsdyna: fixed dt [s]; 0 = LS-DYNA's rule TSSFAC l_MTC/c.");
    prm.declare_entry("TSSFAC", "0.9", Double(0.0), "LS-DYNA time-step scale factor.");
    prm.declare_entry("Density", "1e-6", Double(0.0), "Truss density [kg/m^3] in LS-DYNA's time-step rule.");
    prm.declare_entry("Relative tolerance", "1e-10", Double(0.0), "adaptive: relative error tolerance per step.");
    prm.declare_entry("Absolute tolerance", "1e-13", Double(0.0), "adaptive: absolute error tolerance per step.");
    prm.declare_entry("Output interval", "1e-3", Double(0.0), "adaptive: output spacing [s].");
    prm.leave_subsection();

    prm.enter_subsection("Muscle");
    HillMuscleTendonUnit::declare_parameters(prm);
    prm.leave_subsection();
    prm.enter_subsection("Activation");
    ActivationDynamics::declare_parameters(prm);
    prm.leave_subsection();

    prm.enter_subsection("Output");
    prm.declare_entry("Directory", "output/hill", dealii::Patterns::FileName(dealii::Patterns::FileName::output),
                      "Directory for the CSV files (created if missing); a relative path set in the case file "
                      "is taken from that file's folder, the default from the working directory.");
    prm.declare_entry("Prefix", "run", dealii::Patterns::Anything(),
                      "File name prefix: <Directory>/<Prefix>_<case>.csv.");
    prm.leave_subsection();
  }

  /// Subsections Experiment and Time integration: the set-up shared by all runs, and the grid of
  /// MTC lengths × masses with one name per run (or none).
  ExperimentSetup parse_experiment(dealii::ParameterHandler &prm, std::vector<double> &lengths,
                                   std::vector<double> &masses, std::vector<std::string> &names)
  {
    ExperimentSetup setup;
    prm.enter_subsection("Experiment");
    const std::string kind = prm.get("Kind");
    setup.kind             = kind == "isometric"  ? ExperimentSetup::Kind::isometric :
                             kind == "concentric" ? ExperimentSetup::Kind::concentric :
                                                    ExperimentSetup::Kind::quick_release;
    lengths = dealii::Utilities::string_to_double(dealii::Utilities::split_string_list(prm.get("MTC lengths")));
    masses  = dealii::Utilities::string_to_double(dealii::Utilities::split_string_list(prm.get("Masses")));
    if (setup.kind == ExperimentSetup::Kind::isometric)
      masses = {0.0};
    names           = dealii::Utilities::split_string_list(prm.get("Case names"));
    setup.gravity   = prm.get_double("Gravity");
    setup.t_end     = prm.get_double("End time");
    setup.t_release = prm.get_double("Release time");
    try
      {
        setup.stimulation = LoadCurve::parse(prm.get("Stimulation"));
      }
    catch (const hydrostat::InputError &e)
      {
        throw hydrostat::InputError("Experiment/Stimulation: " + std::string(e.what()));
      }
    setup.lcint = prm.get_integer("LCINT");
    hydrostat::require(setup.lcint != 1, "Experiment/LCINT must be 0 or at least 2.");
    prm.leave_subsection();
    hydrostat::require(names.empty() || names.size() == lengths.size() * masses.size(),
                       "Experiment/Case names: need one name per run (" +
                         std::to_string(lengths.size() * masses.size()) + ") or none.");

    prm.enter_subsection("Time integration");
    setup.integrator =
      prm.get("Integrator") == "lsdyna" ? ExperimentSetup::Integrator::lsdyna : ExperimentSetup::Integrator::adaptive;
    setup.time_step   = prm.get_double("Time step");
    setup.tssfac      = prm.get_double("TSSFAC");
    setup.density     = prm.get_double("Density");
    setup.rtol        = prm.get_double("Relative tolerance");
    setup.atol        = prm.get_double("Absolute tolerance");
    setup.output_step = prm.get_double("Output interval");
    prm.leave_subsection();

    return setup;
  }

  int run(const std::string &file_name)
  {
    dealii::ParameterHandler prm;
    declare(prm);
    hydrostat::require(std::filesystem::exists(file_name), "Parameter file '" + file_name + "' not found.");
    hydrostat::CaseFile::read(prm, file_name);

    std::vector<double>      lengths, masses;
    std::vector<std::string> names;
    ExperimentSetup          setup = parse_experiment(prm, lengths, masses, names);

    prm.enter_subsection("Muscle");
    const HillMuscleTendonUnit mtu(HillMuscleTendonUnit::parse_parameters(prm));
    prm.leave_subsection();
    prm.enter_subsection("Activation");
    const ActivationDynamics activation(ActivationDynamics::parse_parameters(prm));
    prm.leave_subsection();
    const HillIntegrator integrator(mtu, activation);

    prm.enter_subsection("Output");
    const std::string directory = prm.get("Directory");
    const std::string prefix    = prm.get("Prefix");
    prm.leave_subsection();
    std::filesystem::create_directories(directory);

    unsigned int index = 0;
    for (const double l : lengths)
      for (const double m : masses)
        {
          setup.l_MTC0              = l;
          setup.mass                = m;
          const auto        samples = run_experiment(integrator, setup);
          const std::string name    = names.empty() ? std::to_string(index) : names[index];
          const std::string file    = directory + "/" + prefix + "_" + name + ".csv";
          write_csv(samples, file);
          double F_max = 0.0, v_max = 0.0;
          for (const auto &s : samples)
            {
              F_max = std::max(F_max, s.forces.F_MTC);
              v_max = std::max(v_max, -s.dl_MTC);
            }
          std::cout << std::setprecision(6) << name << ": l_MTC0 = " << l << " m, mass = " << m
                    << " kg, F_MTC(0) = " << samples.front().forces.F_MTC << " N, max F_MTC = " << F_max
                    << " N, max shortening speed = " << v_max << " m/s -> " << file << '\n';
          ++index;
        }
    return 0;
  }
} // namespace

int main(int argc, char **argv)
{
  const std::string usage = "Usage: hydrostat-hill <case.prm> | --help | --print-parameters\n"
                            "Runs the Hill-type MTU experiments (doc/hill.md) and writes CSV time series.\n";
  if (argc != 2)
    {
      std::cerr << usage;
      return 2;
    }
  const std::string arg = argv[1];
  try
    {
      if (arg == "--help" || arg == "-h")
        {
          std::cout << usage;
          return 0;
        }
      if (arg == "--print-parameters")
        {
          dealii::ParameterHandler prm;
          declare(prm);
          prm.print_parameters(std::cout, dealii::ParameterHandler::PRM);
          return 0;
        }
      return run(arg);
    }
  catch (const hydrostat::InputError &e)
    {
      std::cerr << "hydrostat-hill: error in '" << arg << "': " << e.what() << '\n';
      return 1;
    }
  catch (const dealii::ExceptionBase &e)
    {
      // Only the message (it names the parameter and the value), not deal.II's source location.
      std::cerr << "hydrostat-hill: error in '" << arg << "': ";
      e.print_info(std::cerr);
      std::cerr << '\n';
      return 1;
    }
  catch (const std::exception &e)
    {
      std::cerr << "hydrostat-hill: error: " << e.what() << '\n';
      return 1;
    }
}
