#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>

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

  ParaViewSeries::ParaViewSeries(const std::string &directory, const std::string &base_name, MPI_Comm comm)
    : directory(directory)
    , base_name(base_name)
    , comm(comm)
  {
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      std::filesystem::create_directories(directory);
    MPI_Barrier(comm);
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
        std::ostringstream pvd;
        DataOutBase::write_pvd_record(pvd, records);
        write_file_atomically(directory + "/" + base_name + ".pvd", pvd.str());
      }
  }

  CsvSeries::CsvSeries(const std::string &path, const std::vector<std::string> &columns, MPI_Comm comm)
    : file_path(path)
    , n_columns(columns.size())
    , writer(Utilities::MPI::this_mpi_process(comm) == 0)
  {
    if (!writer)
      return;
    const auto parent = std::filesystem::path(path).parent_path();
    if (!parent.empty())
      std::filesystem::create_directories(parent);
    out.open(path);
    AssertThrow(out, ExcMessage("Cannot open the CSV file '" + path + "' for writing."));
    for (unsigned int c = 0; c < columns.size(); ++c)
      out << (c ? "," : "") << columns[c];
    out << std::endl;
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
