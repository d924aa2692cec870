#pragma once

#include <deal.II/base/mpi.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace hydrostat
{
  /// 64-bit FNV-1a hash of @p data: checksums of checkpoint files and the hash of the parameters.
  std::uint64_t fnv1a(const std::string &data);

  /// Values packed into bytes in native byte order (a checkpoint is read back by the same program).
  class BinaryWriter
  {
  public:
    template <typename T>
    void put(const T &value)
    {
      static_assert(std::is_trivially_copyable_v<T>);
      bytes.append(reinterpret_cast<const char *>(&value), sizeof(T));
    }
    void put(const std::vector<double> &values);
    void put(const std::string &text);

    const std::string &data() const { return bytes; }

  private:
    std::string bytes;
  };

  /// Reads what a BinaryWriter packed; throws InputError naming @p source if the data end early.
  class BinaryReader
  {
  public:
    BinaryReader(std::string data, std::string source);

    template <typename T>
    T get()
    {
      static_assert(std::is_trivially_copyable_v<T>);
      T value;
      std::memcpy(&value, take(sizeof(T)), sizeof(T));
      return value;
    }
    std::vector<double> get_vector();
    std::string         get_string();
    /// Throws unless every byte has been read.
    void expect_end() const;
    /// Throws InputError "Checkpoint <source>: <what>".
    [[noreturn]] void fail(const std::string &what) const;

  private:
    const char *take(std::size_t n);

    std::string bytes;
    std::string source;
    std::size_t position = 0;
  };

  /**
   * The checkpoints of a run in its output directory: directory/checkpoint-NNNNN/ (NNNNN the
   * step) holds one file rank-RRRR.bin per MPI rank and a small text `manifest` with the step,
   * the number of ranks, the hash of the parameters and the size and FNV-1a checksum of every
   * rank file. Each checkpoint is written into checkpoint-NNNNN.tmp/, the manifest last, and then
   * renamed, so a killed write never hides the previous checkpoint; a checkpoint whose manifest is
   * missing or whose files do not match it (truncated, damaged) is skipped on reading. The newest
   * two are kept.
   *
   * A checkpoint is restarted on the same number of ranks and with the same parameters (the mesh
   * and its partition are rebuilt from them); anything else is refused with one line.
   */
  class CheckpointFiles
  {
  public:
    CheckpointFiles(const std::string &directory, std::uint64_t parameter_hash, MPI_Comm comm);

    /// Collective: writes this rank's @p data as the checkpoint of @p step, then removes all but
    /// the newest two checkpoints. Returns the total size in bytes.
    std::uint64_t write(unsigned int step, const std::string &data) const;

    /// Collective: the step and this rank's data of the newest complete checkpoint; removes the
    /// incomplete ones newer than it. Throws InputError if there is none or it is refused.
    std::pair<unsigned int, std::string> read_newest() const;

  private:
    std::string path(unsigned int step) const;

    std::string   directory;
    std::uint64_t parameter_hash;
    MPI_Comm      comm;
  };
} // namespace hydrostat
