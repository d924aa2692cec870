// hydrostat: runs a case file (see README.md), or prints/checks parameters.
#include <deal.II/base/mpi.h>
#include <deal.II/base/parameter_handler.h>

#include <Trilinos_version.h>
#include <hydrostat/base/errors.h>
#include <hydrostat/driver/simulation.h>
#include <hydrostat/io/case_file.h>
#include <hydrostat/io/run_record.h>
#include <hydrostat/version.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <streambuf>
#include <string>

namespace
{
  const char *usage = R"(Usage:
  hydrostat CASE.prm [--set PATH=VALUE]... [--resume] [--quiet]
                                   run a case (in parallel: mpirun -np N hydrostat CASE.prm)
  hydrostat --check CASE.prm [--set PATH=VALUE]...
                                   parse CASE.prm and build its mesh without running
  hydrostat --print-parameters [SUBSECTION]
                                   print every parameter with its default and documentation (a
                                   numbered block that repeats the one before it, e.g. Group 2 …
                                   Group 6, once), or those of one subsection (e.g. Contact,
                                   "Muscles/Group 1")
  hydrostat --version              print the program version, git commit, deal.II and Trilinos versions
  hydrostat --help                 this text
--set overrides one parameter of CASE.prm and may be repeated; PATH is the subsection path and the
name, e.g. --set "Materials/Material 0/c1=3e3" or --set "Time stepping/End time=0.5". It is checked
like a line of the file. A relative path in CASE.prm (an include, the mesh, a table, the output
directory) is taken from the folder of the file that holds it, one given with --set from the
working directory. --resume continues the run from the newest complete checkpoint in its
output directory (same case, overrides and number of ranks; see 'Output/Checkpoint interval');
SIGTERM or SIGUSR1 make a run write a checkpoint at the end of the current step and exit with
status 3. --quiet reports progress at every 10 % only. Ready-to-run cases are in parameters/;
output (ParaView .pvd, CSV time series, parameters.prm, parameters_changed.prm with the entries
that differ from their defaults, and run.json with the provenance and statistics of the run) goes
to 'Output/Directory', by default output/<the case file's name without .prm>.
)";

  /// The command line: what to do, the case file and the --set overrides.
  struct Arguments
  {
    enum class Action
    {
      run,
      check,
      help,
      print_parameters,
      version,
      usage_error
    } action = Action::usage_error;
    std::string              case_file;
    std::string              subsection; // of --print-parameters
    std::vector<std::string> overrides;
    bool                     resume = false;
    bool                     quiet  = false;
  };

  Arguments parse_arguments(const std::vector<std::string> &args)
  {
    Arguments a;
    if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h"))
      a.action = Arguments::Action::help;
    else if ((args.size() == 1 || args.size() == 2) && args[0] == "--print-parameters")
      {
        a.action     = Arguments::Action::print_parameters;
        a.subsection = args.size() == 2 ? args[1] : "";
      }
    else if (args.size() == 1 && args[0] == "--version")
      a.action = Arguments::Action::version;
    if (a.action != Arguments::Action::usage_error)
      return a;
    bool check = false;
    for (unsigned int i = 0; i < args.size(); ++i)
      if (args[i] == "--check" && !check)
        check = true;
      else if (args[i] == "--set" && i + 1 < args.size())
        a.overrides.push_back(args[++i]);
      else if (args[i] == "--resume" && !a.resume)
        a.resume = true;
      else if (args[i] == "--quiet" && !a.quiet)
        a.quiet = true;
      else if (args[i].rfind("-", 0) != 0 && a.case_file.empty())
        a.case_file = args[i];
      else
        return Arguments();
    if (check && (a.resume || a.quiet))
      return Arguments();
    if (!a.case_file.empty())
      a.action = check ? Arguments::Action::check : Arguments::Action::run;
    return a;
  }

  /// The lines of @p prm's parameter file (PRM format) inside the subsection @p path ("A/B"), with
  /// the lines that open and close its parents and the comments before each printed line.
  std::string subsection_text(const dealii::ParameterHandler &prm, const std::string &path)
  {
    const std::vector<std::string> wanted = dealii::Utilities::split_string_list(path, '/');
    std::ostringstream             all, out;
    prm.print_parameters(all, dealii::ParameterHandler::PRM);
    std::istringstream       lines(all.str());
    std::vector<std::string> stack, top_level;
    std::string              line, comments;
    bool                     found = false;
    // Whether @p a is a prefix of @p b.
    const auto prefix = [](const std::vector<std::string> &a, const std::vector<std::string> &b) {
      return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
    };
    while (std::getline(lines, line))
      {
        const std::string text = dealii::Utilities::trim(line);
        if (text.rfind("#", 0) == 0)
          {
            comments += line + "\n";
            continue;
          }
        std::vector<std::string> here  = stack;
        const bool               opens = text.rfind("subsection ", 0) == 0, closes = text == "end";
        if (opens)
          {
            here.push_back(dealii::Utilities::trim(text.substr(11)));
            if (stack.empty())
              top_level.push_back(here.back());
            found = found || here == wanted;
          }
        const bool inside = prefix(wanted, here), parent = (opens || closes) && prefix(here, wanted);
        if (inside || parent)
          out << (inside ? comments : "") << line << "\n";
        comments.clear();
        if (opens)
          stack = here;
        else if (closes && !stack.empty())
          stack.pop_back();
      }
    std::string names;
    for (const std::string &name : top_level)
      names += (names.empty() ? "" : ", ") + name;
    hydrostat::require(found, "--print-parameters '" + path + "': no such subsection, the top-level ones are " + names +
                                " (nested: e.g. \"Muscles/Group 1\").");
    return out.str();
  }

  /**
   * @p text (PRM format) with the numbered sibling subsections X k+1 … X N that repeat X k printed
   * once, as X k and one comment line: their entries, defaults and documentation are X k's, a line
   * that differs only by holding its own number where X k's holds k (a default Name) included.
   */
  std::string collapse_repeated_blocks(const std::string &text)
  {
    std::vector<std::string> lines;
    std::istringstream       in(text);
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    // The number of the block that opens at line @p i ("subsection NAME k"), its name and indent.
    const auto opening = [&](const std::size_t i, std::string &indent, std::string &name) -> int {
      const std::string &line  = lines[i];
      const std::size_t  start = line.find_first_not_of(' ');
      if (start == std::string::npos || line.compare(start, 11, "subsection ") != 0)
        return -1;
      const std::size_t space  = line.find_last_of(' ');
      const std::string digits = line.substr(space + 1);
      if (space < start + 11 || digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return -1;
      indent = line.substr(0, start);
      name   = line.substr(start + 11, space - start - 11);
      return std::stoi(digits);
    };
    // The line that closes the block opening at @p i.
    const auto closing = [&](const std::size_t i, const std::string &indent) {
      std::size_t j = i + 1;
      while (j < lines.size() && lines[j] != indent + "end")
        ++j;
      return j;
    };
    // Whether line @p other of block @p k is @p line of block @p first, up to the block's number.
    const auto same_line = [](const std::string &line, std::string other, const int k, const int first) {
      const std::string number = std::to_string(k), replacement = std::to_string(first);
      for (std::size_t at = other.find(number); other != line && at != std::string::npos;
           at             = other.find(number, at + replacement.size()))
        other.replace(at, number.size(), replacement);
      return other == line;
    };
    std::ostringstream out;
    for (std::size_t i = 0; i < lines.size(); ++i)
      {
        std::string indent, name;
        const int   first = opening(i, indent, name);
        if (first < 0)
          {
            out << lines[i] << "\n";
            continue;
          }
        const std::size_t end = closing(i, indent);
        for (std::size_t j = i; j <= end && j < lines.size(); ++j)
          out << lines[j] << "\n";
        // The blocks first + 1, first + 2, … that follow (after blank lines) with its lines.
        int         last     = first;
        bool        numbered = false; // a line differs by the block's number
        std::size_t next     = end + 1;
        while (true)
          {
            std::size_t j = next;
            while (j < lines.size() && dealii::Utilities::trim(lines[j]).empty())
              ++j;
            std::string other_indent, other_name;
            if (j >= lines.size() || opening(j, other_indent, other_name) != last + 1 || other_indent != indent ||
                other_name != name)
              break;
            const std::size_t other_end = closing(j, indent);
            bool              same      = other_end - j == end - i;
            for (std::size_t l = 1; same && l < end - i; ++l)
              {
                same     = same_line(lines[i + l], lines[j + l], last + 1, first);
                numbered = numbered || lines[i + l] != lines[j + l];
              }
            if (!same)
              break;
            ++last;
            next = other_end + 1;
          }
        if (last > first)
          out << "\n"
              << indent << "# subsection " << name << " " << first + 1 << " … " << name << " " << last
              << ": the same entries as " << name << " " << first
              << (numbered ? " (with their own number in place of " + std::to_string(first) + ")" : std::string())
              << "\n";
        i = next - 1;
      }
    return out.str();
  }

  /// Parses the case file (its relative paths taken from its folder, CaseFile::read), then each
  /// override "Section/.../Name=value" as the parameter-file text it stands for, so that it is
  /// validated exactly like a line of the file.
  void read_case(dealii::ParameterHandler &prm, const Arguments &arguments)
  {
    hydrostat::require(std::filesystem::exists(arguments.case_file),
                       "Case file '" + arguments.case_file + "' does not exist" +
                         hydrostat::where_looked(arguments.case_file) + ".");
    hydrostat::CaseFile::read(prm, arguments.case_file);
    for (const std::string &entry : arguments.overrides)
      {
        const auto equal = entry.find('=');
        hydrostat::require(equal != std::string::npos && equal > 0,
                           "--set '" + entry + "': expected PATH=VALUE, e.g. --set \"Time stepping/End time=0.5\".");
        const auto  path = dealii::Utilities::split_string_list(entry.substr(0, equal), '/');
        std::string text;
        for (unsigned int i = 0; i + 1 < path.size(); ++i)
          text += "subsection " + path[i] + "\n";
        text += "set " + path.back() + " = " + entry.substr(equal + 1) + "\n";
        for (unsigned int i = 0; i + 1 < path.size(); ++i)
          text += "end\n";
        try
          {
            prm.parse_input_from_string(text);
          }
        catch (const std::exception &error)
          {
            // The message names line and "file" of the generated text: name the override instead.
            std::string message = hydrostat::message_of(error);
            message             = message.substr(message.find(": ") + 2);
            throw hydrostat::InputError("--set '" + entry + "': " + message);
          }
      }
    // No Output/Directory: output/<case name>, so that a copied case writes beside, not over, its original.
    prm.enter_subsection("Output");
    if (prm.get("Directory").empty())
      prm.set("Directory", "output/" + std::filesystem::path(arguments.case_file).stem().string());
    prm.leave_subsection();
    // What is left relative (--set values, the default output folder) is the working directory's:
    // parameters.prm and an inverse run's replay case then run from any folder.
    hydrostat::CaseFile::make_paths_absolute(prm);
  }

  std::string output_directory(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Output");
    const std::string directory = prm.get("Directory");
    prm.leave_subsection();
    return directory;
  }

  /// Set by SIGTERM and SIGUSR1 (what a batch system sends before it kills a job): the run
  /// writes a checkpoint at the end of the current step and stops.
  volatile std::sig_atomic_t stop_requested = 0;

  extern "C" void request_stop(int) { stop_requested = 1; }

  /// Exit status of a run stopped by a signal after writing its checkpoint.
  constexpr int exit_interrupted = 3;

  hydrostat::RunRecord::Statistics statistics_of(const hydrostat::Simulation &simulation)
  {
    const auto &s = simulation.run_statistics();
    return {{"steps", double(s.steps)},
            {"newton_iterations", double(s.newton_iterations)},
            {"linear_iterations", double(s.linear_iterations)},
            {"factorizations", double(s.factorizations)},
            {"cut_backs", double(s.cut_backs)},
            {"augmentations", double(s.augmentations)},
            {"control_updates", double(s.control_updates)}};
  }

  /// Discards what is written to it.
  class NullBuffer : public std::streambuf
  {
  protected:
    int overflow(int c) override { return c; }
  };

  /**
   * Parses every parameter of the case (the Simulation constructor does) on this process alone
   * and with std::cerr silenced, so that a bad value throws with only its message: a
   * Simulation on MPI_COMM_WORLD destroyed by the exception would have its parallel
   * TimerOutput print an "uncaught exception" banner on stderr, and muParser writes its own
   * diagnostics to std::cerr.
   */
  void check_parameters(dealii::ParameterHandler &prm)
  {
    NullBuffer   null;
    std::ostream discard(&null);
    struct Silence
    {
      std::streambuf *saved;
      ~Silence() { std::cerr.rdbuf(saved); }
    } silence{std::cerr.rdbuf(&null)};
    const hydrostat::Simulation parsed(prm, MPI_COMM_SELF, discard);
  }
} // namespace

int main(int argc, char **argv)
{
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  const bool                               root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  const std::vector<std::string>           args(argv + 1, argv + argc);
  // Outside the try block, so that an exception from setup() or run() is caught before the
  // Simulation (and its parallel TimerOutput) is destroyed.
  std::unique_ptr<hydrostat::Simulation> simulation;
  std::optional<hydrostat::RunRecord>    record;
  try
    {
      dealii::ParameterHandler prm;
      hydrostat::Simulation::declare_parameters(prm);
      const Arguments arguments = parse_arguments(args);
      switch (arguments.action)
        {
          case Arguments::Action::help:
            if (root)
              std::cout << usage;
            return 0;
          case Arguments::Action::print_parameters:
            if (arguments.subsection.empty())
              {
                std::ostringstream text;
                prm.print_parameters(text, dealii::ParameterHandler::PRM);
                if (root)
                  std::cout << collapse_repeated_blocks(text.str());
              }
            else
              {
                const std::string text = collapse_repeated_blocks(subsection_text(prm, arguments.subsection));
                if (root)
                  std::cout << text;
              }
            return 0;
          case Arguments::Action::version:
            if (root)
              std::cout << "hydrostat " << HYDROSTAT_VERSION << " (git " << HYDROSTAT_GIT_COMMIT << "), deal.II "
                        << DEAL_II_PACKAGE_VERSION << ", Trilinos " << TRILINOS_VERSION_STRING << std::endl;
            return 0;
          case Arguments::Action::usage_error:
            if (root)
              std::cerr << usage;
            return 2;
          case Arguments::Action::check:
          case Arguments::Action::run:
            break;
        }
      read_case(prm, arguments);
      check_parameters(prm);
      simulation = std::make_unique<hydrostat::Simulation>(prm, MPI_COMM_WORLD, std::cout);
      if (arguments.action == Arguments::Action::check)
        {
          simulation->setup();
          if (root)
            std::cout << arguments.case_file << ": OK (" << simulation->n_dofs() << " DoFs)" << std::endl;
          return 0;
        }
      record.emplace(hydrostat::RunRecord::Program{"hydrostat", HYDROSTAT_VERSION, HYDROSTAT_GIT_COMMIT},
                     output_directory(prm), arguments.case_file, arguments.overrides, prm, MPI_COMM_WORLD);
      std::signal(SIGTERM, request_stop);
      std::signal(SIGUSR1, request_stop);
      const auto outcome = simulation->run({arguments.resume, arguments.quiet, &stop_requested});
      const bool stopped = outcome == hydrostat::Simulation::Outcome::interrupted;
      record->finish(stopped ? "interrupted" : "finished", "", statistics_of(*simulation));
      if (stopped)
        return exit_interrupted;
    }
  catch (const std::exception &error)
    {
      const std::string message = hydrostat::message_of(error);
      if (record)
        record->finish("failed", message, statistics_of(*simulation));
      if (root)
        std::cerr << "hydrostat: error: " << message << std::endl;
      return 1;
    }
  return 0;
}
