#include <deal.II/base/config.h>
#include <deal.II/base/utilities.h>

#include <Trilinos_version.h>
#include <hydrostat/io/output_files.h>
#include <hydrostat/io/run_record.h>

#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

namespace hydrostat
{
  namespace
  {
    /// @p text as a JSON string literal.
    std::string quoted(const std::string &text)
    {
      std::ostringstream out;
      out << '"';
      for (const unsigned char c : text)
        switch (c)
          {
            case '"':
              out << "\\\"";
              break;
            case '\\':
              out << "\\\\";
              break;
            case '\n':
              out << "\\n";
              break;
            case '\t':
              out << "\\t";
              break;
            default:
              if (c < 0x20)
                out << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec;
              else
                out << c;
          }
      out << '"';
      return out.str();
    }

    /// The entries of @p prm whose values differ from their defaults (what the case file and --set
    /// chose), in their subsections, as a parameter file: deal.II's PRM format marks each with its
    /// '# default:'.
    std::string changed_entries(const dealii::ParameterHandler &prm)
    {
      std::ostringstream all, out;
      prm.print_parameters(all, dealii::ParameterHandler::PRM);
      std::istringstream       lines(all.str());
      std::vector<std::string> stack;
      unsigned int             open = 0; // the subsections of the stack printed so far
      for (std::string line; std::getline(lines, line);)
        {
          const std::string text = dealii::Utilities::trim(line);
          if (text.rfind("subsection ", 0) == 0)
            stack.push_back(text.substr(11));
          else if (text == "end" && !stack.empty())
            {
              if (open == stack.size())
                out << std::string(2 * --open, ' ') << "end\n";
              stack.pop_back();
            }
          else if (const auto mark = text.find("# default:"); text.rfind("set ", 0) == 0 && mark != std::string::npos)
            {
              for (; open < stack.size(); ++open)
                out << std::string(2 * open, ' ') << "subsection " << stack[open] << "\n";
              out << std::string(2 * open, ' ') << dealii::Utilities::trim(text.substr(0, mark)) << "\n";
            }
        }
      return out.str();
    }

    /// ISO 8601 in UTC, to the second.
    std::string utc(const std::chrono::system_clock::time_point time)
    {
      const std::time_t t = std::chrono::system_clock::to_time_t(time);
      std::tm           tm{};
      gmtime_r(&t, &tm);
      std::ostringstream out;
      out << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
      return out.str();
    }

    std::string host_name()
    {
      char name[256] = {};
      return gethostname(name, sizeof(name) - 1) == 0 ? std::string(name) : std::string("unknown");
    }
  } // namespace

  RunRecord::RunRecord(const Program &program, const std::string &directory, const std::string &case_file,
                       const std::vector<std::string> &overrides, const dealii::ParameterHandler &prm, MPI_Comm comm)
    : program(program)
    , directory(directory)
    , case_file(case_file)
    , overrides(overrides)
    , n_ranks(dealii::Utilities::MPI::n_mpi_processes(comm))
    , writer(dealii::Utilities::MPI::this_mpi_process(comm) == 0)
    , start(std::chrono::system_clock::now())
  {
    if (!writer)
      return;
    std::filesystem::create_directories(directory);
    std::ostringstream parameters;
    parameters << "# Every parameter of this run as " << program.name << " " << program.version << " ("
               << program.git_commit << ") used it: '" << program.name << " parameters.prm' reruns it.\n";
    prm.print_parameters(parameters, dealii::ParameterHandler::ShortPRM);
    write_file_atomically(directory + "/parameters.prm", parameters.str());
    write_file_atomically(directory + "/parameters_changed.prm",
                          "# The parameters of this run that differ from their defaults (the case file and --set).\n" +
                            changed_entries(prm));
    write_file_atomically(directory + "/run.json", json("running", "", false));
  }

  void RunRecord::finish(const std::string &status, const std::string &message, const Statistics &statistics) const
  {
    if (writer)
      write_file_atomically(directory + "/run.json", json(status, message, true, statistics));
  }

  std::string RunRecord::json(const std::string &status, const std::string &message, const bool finished,
                              const Statistics &statistics) const
  {
    const auto         end = std::chrono::system_clock::now();
    std::ostringstream out;
    out << "{\n"
        << "  \"program\": " << quoted(program.name) << ",\n"
        << "  \"version\": " << quoted(program.version) << ",\n"
        << "  \"git_commit\": " << quoted(program.git_commit) << ",\n"
        << "  \"deal_ii_version\": " << quoted(DEAL_II_PACKAGE_VERSION) << ",\n"
        << "  \"trilinos_version\": " << quoted(TRILINOS_VERSION_STRING) << ",\n"
        << "  \"case_file\": " << quoted(case_file) << ",\n"
        << "  \"overrides\": [";
    for (unsigned int i = 0; i < overrides.size(); ++i)
      out << (i ? ", " : "") << quoted(overrides[i]);
    out << "],\n"
        << "  \"mpi_ranks\": " << n_ranks << ",\n"
        << "  \"host\": " << quoted(host_name()) << ",\n"
        << "  \"start_time\": " << quoted(utc(start)) << ",\n";
    if (finished)
      out << "  \"end_time\": " << quoted(utc(end)) << ",\n"
          << "  \"wall_time_s\": " << std::chrono::duration<double>(end - start).count() << ",\n";
    if (!statistics.empty())
      {
        out << "  \"statistics\": {";
        for (unsigned int i = 0; i < statistics.size(); ++i)
          out << (i ? ", " : "") << quoted(statistics[i].first) << ": " << std::setprecision(15)
              << statistics[i].second;
        out << "},\n";
      }
    out << "  \"status\": " << quoted(status);
    if (!message.empty())
      out << ",\n  \"error\": " << quoted(message);
    out << "\n}\n";
    return out.str();
  }
} // namespace hydrostat
