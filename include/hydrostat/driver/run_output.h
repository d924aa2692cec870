#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/point.h>
#include <deal.II/base/timer.h>

#include <hydrostat/assembly/assembler.h>
#include <hydrostat/assembly/energy_balance.h>
#include <hydrostat/fem/state.h>
#include <hydrostat/io/output_files.h>
#include <hydrostat/io/point_probes.h>
#include <hydrostat/postprocess/output_fields.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * What a run writes (subsection "Output"): the ParaView series of the selected fields every
   * Interval steps, and every step a row of <base>.csv (time, step size, Newton iterations, the
   * energy balance, the volume and the probe points) and of each term's own series
   * (<base>_<name>.csv); and when to write checkpoints.
   */
  class RunOutput
  {
  public:
    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

    /// Locates the probe points in @p dof_handler's mesh.
    void setup(const dealii::DoFHandler<3> &dof_handler);

    /// Displacement and velocity of the accepted @p state at the probe points.
    std::vector<dealii::Tensor<1, 3>> probe_displacements(const State &state) const;
    std::vector<dealii::Tensor<1, 3>> probe_velocities(const State &state) const;

    /// The CSV rows of @p step (of size @p dt, @p newton_iterations) at the accepted @p state.
    void write_rows(const unsigned int step, const double dt, const unsigned int newton_iterations, const State &state,
                    const EnergyBalance::Quantities &energy, const Assembler &assembler);
    /// The ParaView files of @p step if they are due (every Interval steps, or @p last).
    void write_fields(const unsigned int step, const bool last, const Assembler &assembler, const State &state,
                      dealii::TimerOutput &timer);

    /// A resumed run continues the files of the run it resumes: the rows up to @p step and the
    /// ParaView files listed in @p series.
    void resume(const unsigned int step, const ParaViewSeries::Records &series, MPI_Comm comm);
    /// The ParaView files written so far (for a checkpoint).
    ParaViewSeries::Records written() const;

    std::string  directory, base_name;
    bool         paraview            = true;
    unsigned int checkpoint_interval = 0; // steps, 0: none
    double       checkpoint_minutes  = 0; // wall clock, 0: none
    bool         quiet               = false;

    /// The path of <base>.csv once it is written.
    std::string csv_path() const { return csv ? csv->path() : ""; }

  private:
    unsigned int                                      interval = 1;
    std::vector<dealii::Point<3>>                     probe_points;
    OutputFields                                      fields;
    std::unique_ptr<PointProbes>                      probes;
    std::unique_ptr<ParaViewSeries>                   series;
    std::unique_ptr<CsvSeries>                        csv;
    std::map<std::string, std::unique_ptr<CsvSeries>> term_csv;      // by series name
    std::optional<unsigned int>                       continue_rows; // resumed: the CSV rows before the checkpoint
  };
} // namespace hydrostat
