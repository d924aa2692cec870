#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/io/checkpoint_files.h>
#include <hydrostat/io/output_files.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;
  namespace fs = std::filesystem;

  std::uint64_t fnv1a(const std::string &data)
  {
    std::uint64_t hash = 14695981039346656037ull;
    for (const unsigned char c : data)
      hash = (hash ^ c) * 1099511628211ull;
    return hash;
  }

  void BinaryWriter::put(const std::vector<double> &values)
  {
    put(std::uint64_t(values.size()));
    bytes.append(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(double));
  }

  void BinaryWriter::put(const std::string &text)
  {
    put(std::uint64_t(text.size()));
    bytes.append(text);
  }

  BinaryReader::BinaryReader(std::string data, std::string source)
    : bytes(std::move(data))
    , source(std::move(source))
  {}

  const char *BinaryReader::take(const std::size_t n)
  {
    if (n > bytes.size() - position)
      fail("the data end early");
    position += n;
    return bytes.data() + position - n;
  }

  std::vector<double> BinaryReader::get_vector()
  {
    const auto          n = get<std::uint64_t>();
    std::vector<double> values(n);
    if (n > (bytes.size() - position) / sizeof(double))
      fail("the data end early");
    std::memcpy(values.data(), take(n * sizeof(double)), n * sizeof(double));
    return values;
  }

  std::string BinaryReader::get_string()
  {
    const auto n = get<std::uint64_t>();
    if (n > bytes.size() - position)
      fail("the data end early");
    return std::string(take(n), n);
  }

  void BinaryReader::expect_end() const
  {
    if (position != bytes.size())
      fail(std::to_string(bytes.size() - position) + " bytes left unread");
  }

  void BinaryReader::fail(const std::string &what) const
  {
    throw InputError("Checkpoint " + source + ": " + what + ". Start afresh without --resume.");
  }

  namespace
  {
    std::string hex(const std::uint64_t value)
    {
      std::ostringstream out;
      out << std::hex << value;
      return out.str();
    }

    std::string read_file(const fs::path &path)
    {
      std::ifstream in(path, std::ios::binary);
      return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }

    struct Manifest
    {
      unsigned int                                                     step = 0, ranks = 0;
      std::string                                                      parameters;
      std::vector<std::tuple<std::string, std::uint64_t, std::string>> files; // name, size, checksum
    };

    /// The manifest of checkpoint @p dir if it and every file it names are complete; else why not.
    std::pair<Manifest, std::string> check(const fs::path &dir)
    {
      Manifest      manifest;
      std::ifstream in(dir / "manifest");
      if (!in)
        return {manifest, "no manifest"};
      std::string line, key;
      bool        header = false;
      while (std::getline(in, line))
        {
          std::istringstream words(line);
          words >> key;
          if (key == "hydrostat-checkpoint")
            header = true;
          else if (key == "step")
            words >> manifest.step;
          else if (key == "ranks")
            words >> manifest.ranks;
          else if (key == "parameters")
            words >> manifest.parameters;
          else if (key == "file")
            {
              std::string   name, checksum;
              std::uint64_t size = 0;
              words >> name >> size >> checksum;
              manifest.files.emplace_back(name, size, checksum);
            }
        }
      if (!header || manifest.ranks == 0 || manifest.files.size() != manifest.ranks)
        return {manifest, "incomplete manifest"};
      for (const auto &[name, size, checksum] : manifest.files)
        {
          const std::string data = read_file(dir / name);
          if (data.size() != size)
            return {manifest,
                    name + " has " + std::to_string(data.size()) + " bytes, the manifest says " + std::to_string(size)};
          if (hex(fnv1a(data)) != checksum)
            return {manifest, name + " does not match its checksum"};
        }
      return {manifest, ""};
    }

    std::string rank_file(const unsigned int rank) { return "rank-" + Utilities::int_to_string(rank, 4) + ".bin"; }
  } // namespace

  CheckpointFiles::CheckpointFiles(const std::string &directory, const std::uint64_t parameter_hash, MPI_Comm comm)
    : directory(directory)
    , parameter_hash(parameter_hash)
    , comm(comm)
  {}

  std::string CheckpointFiles::path(const unsigned int step) const
  {
    return directory + "/checkpoint-" + Utilities::int_to_string(step, 5);
  }

  std::uint64_t CheckpointFiles::write(const unsigned int step, const std::string &data) const
  {
    const unsigned int rank    = Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    const fs::path     final   = path(step);
    const fs::path     partial = path(step) + ".tmp";
    if (rank == 0)
      {
        fs::remove_all(partial);
        fs::create_directories(partial);
      }
    MPI_Barrier(comm);

    bool written = false;
    {
      std::ofstream out(partial / rank_file(rank), std::ios::binary);
      out.write(data.data(), data.size());
      out.close();
      written = bool(out);
    }
    AssertThrow(Utilities::MPI::min(int(written), comm) == 1,
                ExcMessage("Writing the checkpoint '" + partial.string() + "' failed (disk full?)."));
    const std::uint64_t        mine[2] = {data.size(), fnv1a(data)};
    std::vector<std::uint64_t> all(2 * n_ranks);
    MPI_Gather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, 0, comm);
    std::uint64_t total = 0;
    if (rank == 0)
      {
        std::ostringstream manifest;
        manifest << "hydrostat-checkpoint 1\nstep " << step << "\nranks " << n_ranks << "\nparameters "
                 << hex(parameter_hash) << "\n";
        for (unsigned int r = 0; r < n_ranks; ++r)
          {
            manifest << "file " << rank_file(r) << " " << all[2 * r] << " " << hex(all[2 * r + 1]) << "\n";
            total += all[2 * r];
          }
        write_file_atomically((partial / "manifest").string(), manifest.str());
        fs::remove_all(final);
        fs::rename(partial, final);

        // Keep the newest two.
        std::vector<unsigned int> steps;
        const std::regex          name("checkpoint-([0-9]+)");
        for (const auto &entry : fs::directory_iterator(directory))
          {
            std::smatch       match;
            const std::string file = entry.path().filename().string();
            if (std::regex_match(file, match, name))
              steps.push_back(std::stoul(match[1]));
          }
        std::sort(steps.rbegin(), steps.rend());
        for (unsigned int k = 2; k < steps.size(); ++k)
          fs::remove_all(path(steps[k]));
      }
    MPI_Barrier(comm);
    return Utilities::MPI::max(total, comm);
  }

  std::pair<unsigned int, std::string> CheckpointFiles::read_newest() const
  {
    const unsigned int rank    = Utilities::MPI::this_mpi_process(comm);
    const unsigned int n_ranks = Utilities::MPI::n_mpi_processes(comm);
    // Rank 0 chooses; the others receive "<step>" or "!<error message>".
    std::string choice;
    if (rank == 0)
      {
        std::vector<std::pair<unsigned int, fs::path>> found;
        const std::regex                               name("checkpoint-([0-9]+)(\\.tmp)?");
        if (fs::is_directory(directory))
          for (const auto &entry : fs::directory_iterator(directory))
            {
              std::smatch       match;
              const std::string file = entry.path().filename().string();
              if (!std::regex_match(file, match, name))
                continue;
              if (match[2].matched)
                fs::remove_all(entry.path()); // a write that was killed
              else
                found.emplace_back(std::stoul(match[1]), entry.path());
            }
        std::sort(found.rbegin(), found.rend());
        choice = "!No complete checkpoint in '" + directory +
                 "' to resume from: run without --resume (set 'Output/Checkpoint interval' to write checkpoints).";
        for (const auto &[step, dir] : found)
          {
            const auto [manifest, problem] = check(dir);
            if (!problem.empty())
              {
                std::cout << "Skipping checkpoint " << dir.string() << ": " << problem << "." << std::endl;
                fs::remove_all(dir);
                continue;
              }
            if (manifest.ranks != n_ranks)
              choice = "!Checkpoint '" + dir.string() + "' was written by " + std::to_string(manifest.ranks) +
                       " MPI ranks, this run has " + std::to_string(n_ranks) + ": resume with mpirun -np " +
                       std::to_string(manifest.ranks) + " (restarts keep the number of ranks).";
            else if (manifest.parameters != hex(parameter_hash))
              choice = "!Checkpoint '" + dir.string() +
                       "' was written with other parameters: resume with the same case file and --set overrides, "
                       "or start afresh without --resume.";
            else
              choice = std::to_string(step);
            break;
          }
      }
    choice = Utilities::MPI::broadcast(comm, choice, 0);
    if (choice.front() == '!')
      throw InputError(choice.substr(1));
    const unsigned int step = std::stoul(choice);
    return {step, read_file(fs::path(path(step)) / rank_file(rank))};
  }
} // namespace hydrostat
