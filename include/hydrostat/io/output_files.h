#pragma once

#include <deal.II/base/mpi.h>
#include <deal.II/numerics/data_out.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace hydrostat
{
  /// Writes @p text to @p path through a temporary file and a rename, so that a reader (or a
  /// crash) never sees a half-written file.
  void write_file_atomically(const std::string &path, const std::string &text);

  /**
   * A ParaView time series: one VTU per rank and step, a PVTU per step and one PVD for the
   * whole run (directory/base.pvd), each written atomically and the PVD rewritten after every
   * step so that ParaView can open a run that is still going.
   */
  class ParaViewSeries
  {
  public:
    ParaViewSeries(const std::string &directory, const std::string &base_name, MPI_Comm comm);

    void write(const dealii::DataOut<3> &data_out, const double time, const unsigned int step);

  private:
    std::string                                 directory;
    std::string                                 base_name;
    MPI_Comm                                    comm;
    std::vector<std::pair<double, std::string>> records;
  };

  /**
   * A CSV file written by rank 0 only: a header line, then whole rows that are flushed as they
   * are written.
   */
  class CsvSeries
  {
  public:
    CsvSeries(const std::string &path, const std::vector<std::string> &columns, MPI_Comm comm);

    void write_row(const std::vector<double> &values);

    const std::string &path() const { return file_path; }

  private:
    std::string   file_path;
    unsigned int  n_columns;
    bool          writer;
    std::ofstream out;
  };
} // namespace hydrostat
