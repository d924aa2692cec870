#pragma once

#include <deal.II/base/mpi.h>
#include <deal.II/numerics/data_out.h>

#include <fstream>
#include <optional>
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
    /// (time, PVTU file) of each step written, on rank 0.
    using Records = std::vector<std::pair<double, std::string>>;

    /// A series that continues @p records (of a restarted run): the PVD is rewritten with them.
    ParaViewSeries(const std::string &directory, const std::string &base_name, MPI_Comm comm,
                   const Records &records = {});

    void write(const dealii::DataOut<3> &data_out, const double time, const unsigned int step);

    const Records &written() const { return records; }

  private:
    std::string directory;
    std::string base_name;
    MPI_Comm    comm;
    Records     records;

    void write_pvd() const;
  };

  /**
   * A CSV file written by rank 0 only: a header line, then whole rows that are flushed as they
   * are written.
   */
  class CsvSeries
  {
  public:
    /// A new file; or, with @p continue_after_rows (a restarted run), the existing file with the
    /// same header cut after that many rows (atomically) and appended to.
    CsvSeries(const std::string &path, const std::vector<std::string> &columns, MPI_Comm comm,
              const std::optional<unsigned int> continue_after_rows = {});

    void write_row(const std::vector<double> &values);

    const std::string &path() const { return file_path; }

  private:
    std::string   file_path;
    unsigned int  n_columns;
    bool          writer;
    std::ofstream out;
  };
} // namespace hydrostat
