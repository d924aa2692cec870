// TimeTable (tabulated inputs of time): linear between rows, constant beyond them, and each kind
// of bad file stopped with its file, line and parameter.
// HYDROSTAT_TEST_TIMEOUT: 20
#include <hydrostat/base/errors.h>
#include <hydrostat/base/time_table.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

using namespace hydrostat;

namespace
{
  /// The message of the InputError that reading @p text as a table of column 'a' raises, empty if none.
  std::string error_of(const std::string &text)
  {
    const std::string path = testing::TempDir() + "time_table.csv";
    std::ofstream(path) << text;
    try
      {
        TimeTable(path, "a", "Muscles/Group 1/Activation/Table file", 0, 1);
      }
    catch (const InputError &error)
      {
        return error.what();
      }
    return "";
  }
} // namespace

TEST(TimeTable, LinearBetweenRowsAndConstantBeyond)
{
  const std::string path = testing::TempDir() + "time_table_good.csv";
  std::ofstream(path) << "time, b, a\n0.1, 7, 0.2\n\n0.3, 8, 0.6\n0.4, 9, 1\n";
  const TimeTable table(path, "a", "test", 0, 1);
  EXPECT_DOUBLE_EQ(table.value(-1), 0.2);
  EXPECT_DOUBLE_EQ(table.value(0.1), 0.2);
  EXPECT_DOUBLE_EQ(table.value(0.15), 0.3);
  EXPECT_DOUBLE_EQ(table.value(0.3), 0.6);
  EXPECT_DOUBLE_EQ(table.value(0.35), 0.8);
  EXPECT_DOUBLE_EQ(table.value(2), 1);
  EXPECT_EQ(table.times().size(), 3u);
  EXPECT_DOUBLE_EQ(TimeTable(path, "b", "test", 0, 10).value(0.2), 7.5);
}

TEST(TimeTable, BadFilesNameFileLineAndParameter)
{
  EXPECT_NE(error_of("t, a\n0, 1\n").find("names no column 'time'"), std::string::npos);
  EXPECT_NE(error_of("time, b\n0, 1\n").find("names no column 'a'"), std::string::npos);
  EXPECT_NE(error_of("time, a\n0, 0.5\n0.1, x\n").find("line 3: 'x' in column 'a' is not a finite number"),
            std::string::npos);
  EXPECT_NE(error_of("time, a\n0, 0.5\n0, 0.6\n").find("line 3: time 0 s does not come after"), std::string::npos);
  EXPECT_NE(error_of("time, a\n0, 1.5\n").find("line 2: a = 1.5 is outside [0, 1]"), std::string::npos);
  EXPECT_NE(error_of("time, a\n0, 0.5, 3\n").find("line 2: 3 cells, the header has 2"), std::string::npos);
  EXPECT_NE(error_of("time, a\n").find("no rows below the header"), std::string::npos);
  EXPECT_NE(error_of("time, a\n0, nan\n").find("not a finite number"), std::string::npos);
  EXPECT_EQ(error_of("time, a\n0, 1\n"), "");
  try
    {
      TimeTable("/nonexistent/a.csv", "a", "Muscles/Group 2/Activation/Table file", 0, 1);
      FAIL();
    }
  catch (const InputError &error)
    {
      EXPECT_NE(std::string(error.what())
                  .find("Parameter 'Muscles/Group 2/Activation/Table file' = "
                        "'/nonexistent/a.csv': no such file"),
                std::string::npos);
    }
}

TEST(TimeTable, ReadsWindowsLineEnds)
{
  const std::string path = testing::TempDir() + "time_table_crlf.csv";
  std::ofstream(path) << "time,a\r\n0,0.2\r\n1,0.4\r\n";
  const TimeTable table(path, "a", "test", 0, 1);
  EXPECT_DOUBLE_EQ(table.value(0.5), 0.3);
}
