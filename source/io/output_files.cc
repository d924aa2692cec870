#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/io/output_files.h>

#include <filesystem>
#include <iomanip>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  void write_file_atomically(const std::string &path, const std::string &text)
  {
    const std::string temporary = path + ".tmp";
    {
      std::ofstream out(temporary);
      AssertThrow(out, ExcMessage("Cannot write the output file '" + temporary +
                                  "': check that the output directory exists and is writable."));
      out << text;
      out.close();
      AssertThrow(!out.fail(), ExcMessage("Writing '" + temporary + "' failed (disk full?)."));
    }
    std::filesystem::rename(temporary, path);
  }

  ParaViewSeries::ParaViewSeries(const std::string &directory, const std::string &base_name, MPI_Comm comm,
                                 const Records &records)
    : directory(directory)
    , base_name(base_name)
    , comm(comm)
    , records(records)
  {
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      {
        std::filesystem::create_directories(directory);
        if (!records.empty())
          write_pvd();
      }
    MPI_Barrier(comm);
  }

  void ParaViewSeries::write_pvd() const
  {
    std::ostringstream pvd;
    DataOutBase::write_pvd_record(pvd, records);
    write_file_atomically(directory + "/" + base_name + ".pvd", pvd.str());
  }

  void ParaViewSeries::write(const DataOut<3> &data_out, const double time, const unsigned int step)
  {
    const unsigned int rank    = Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    const std::string  stem    = base_name + "_" + Utilities::int_to_string(step, 5);

    std::ostringstream vtu;
    data_out.write_vtu(vtu);
    write_file_atomically(directory + "/" + stem + "." + Utilities::int_to_string(rank, 4) + ".vtu", vtu.str());
    MPI_Barrier(comm); // the PVTU and PVD only name pieces that exist

    if (rank == 0)
      {
        std::vector<std::string> pieces;
        for (unsigned int r = 0; r < n_ranks; ++r)
          pieces.push_back(stem + "." + Utilities::int_to_string(r, 4) + ".vtu");
        std::ostringstream pvtu;
        data_out.write_pvtu_record(pvtu, pieces);
        write_file_atomically(directory + "/" + stem + ".pvtu", pvtu.str());

        records.emplace_back(time, stem + ".pvtu");
        write_pvd();
      }
  }

  CsvSeries::CsvSeries(const std::string &path, const std::vector<std::string> &columns, MPI_Comm comm,
                       const std::optional<unsigned int> continue_after_rows)
    : file_path(path)
    , n_columns(columns.size())
    , writer(Utilities::MPI::this_mpi_process(comm) == 0)
  {
    std::string header;
    for (unsigned int c = 0; c < columns.size(); ++c)
      header += (c ? "," : "") + columns[c];
    if (continue_after_rows)
      {
        // Rows after the restart point were written by the interrupted run: they are cut.
        std::string problem;
        if (writer)
          {
            std::ifstream in(path);
            std::string   line, kept;
            unsigned int  rows = 0;
            if (!std::getline(in, line) || line != header)
              problem = "Cannot continue the CSV file '" + path + "': it is missing or has another header.";
            kept = line + "\n";
            while (problem.empty() && rows < *continue_after_rows && std::getline(in, line))
              {
                kept += line + "\n";
                ++rows;
              }
            if (problem.empty() && rows != *continue_after_rows)
              problem = "Cannot continue the CSV file '" + path + "': it has " + std::to_string(rows) +
                        " rows, the checkpoint needs " + std::to_string(*continue_after_rows) + ".";
            if (problem.empty())
              {
                in.close();
                write_file_atomically(path, kept);
                out.open(path, std::ios::app);
                AssertThrow(out, ExcMessage("Cannot open the CSV file '" + path + "' for writing."));
              }
          }
        problem = Utilities::MPI::broadcast(comm, problem, 0);
        require(problem.empty(), problem);
        return;
      }
    if (!writer)
      return;
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty())
      std::filesystem::create_directories(parent);
    out.open(path);
    AssertThrow(out, ExcMessage("Cannot open the CSV file '" + path + "' for writing."));
    out << header << std::endl;
  }

  void CsvSeries::write_row(const std::vector<double> &values)
  {
    AssertDimension(values.size(), n_columns);
    if (!writer)
      return;
    std::ostringstream row;
    row << std::setprecision(12);
    for (unsigned int c = 0; c < values.size(); ++c)
      row << (c ? "," : "") << values[c];
    out << row.str() << std::endl;
  }
} // namespace hydrostat
