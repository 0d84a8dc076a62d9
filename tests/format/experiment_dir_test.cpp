// format/experiment_dir.h: which names are tasklens's, and the claims on a directory (no
// symbolic link, the lock, files created and never reused).
#include "format/experiment_dir.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/trace_builder.h"

namespace tasklens::format {
namespace {

namespace fs = std::filesystem;
using testing::scratch_dir;

TEST(ExperimentDir, TasklensEntriesAreExactlyItsOwnNames) {
  for (const char* name : {"experiment.json", "experiment.json.tmp", "thread-0000.tlt",
                           "thread-12345.tlt", ".reserve", ".libgomp-on-libomp", "pid-1",
                           "pid-4194304"}) {
    EXPECT_TRUE(is_tasklens_entry(name)) << name;
  }
  for (const char* name : {"notes.txt", "experiment.json.bak", "thread-.tlt", "thread-00a0.tlt",
                           "thread-0000.tlt.old", "pid-", "pid-12x", "PID-1", ".reserve2",
                           "experiment.jsonx"}) {
    EXPECT_FALSE(is_tasklens_entry(name)) << name;
  }
}

TEST(ExperimentDir, OpensAndCreatesButRefusesASymbolicLink) {
  char error[512] = {};
  std::string dir = scratch_dir() + "/a/b/exp";
  int fd = open_experiment_dir(dir.c_str(), error, sizeof error);
  ASSERT_GE(fd, 0) << error;
  EXPECT_TRUE(fs::is_directory(dir));
  close(fd);

  std::string link = scratch_dir() + "/link";
  fs::create_directory_symlink(dir, link);
  EXPECT_EQ(open_experiment_dir(link.c_str(), error, sizeof error), -1);
  EXPECT_EQ(std::string(error), link + " is a symbolic link: tasklens does not write through one "
                                       "(give the directory it points to)");
  std::string dangling = scratch_dir() + "/dangling";
  fs::create_directory_symlink(scratch_dir() + "/nowhere", dangling);
  EXPECT_EQ(open_experiment_dir(dangling.c_str(), error, sizeof error), -1);
  EXPECT_FALSE(fs::exists(scratch_dir() + "/nowhere"));  // not created through the link

  std::string file = scratch_dir() + "/file";
  std::ofstream(file) << "x";
  EXPECT_EQ(open_experiment_dir(file.c_str(), error, sizeof error), -1);
  EXPECT_EQ(std::string(error), file + " exists and is not a directory");
}

TEST(ExperimentDir, LockIsHeldByOneOpenDescriptionAndItsInheritors) {
  char error[512] = {};
  std::string dir = scratch_dir() + "/exp";
  int a = open_experiment_dir(dir.c_str(), error, sizeof error);
  int b = open_experiment_dir(dir.c_str(), error, sizeof error);
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  EXPECT_TRUE(lock_experiment_dir(a));
  EXPECT_FALSE(lock_experiment_dir(b));  // another open: refused
  int a2 = dup(a);                       // what a child inherits: the same description
  EXPECT_TRUE(lock_experiment_dir(a2));
  close(a);
  close(a2);
  EXPECT_TRUE(lock_experiment_dir(b));  // released with the last descriptor
  close(b);
}

TEST(ExperimentDir, ContentsSayWhatIsThere) {
  char error[512] = {};
  std::string dir = scratch_dir() + "/exp";
  int fd = open_experiment_dir(dir.c_str(), error, sizeof error);
  ASSERT_GE(fd, 0);
  DirContents c;
  ASSERT_TRUE(read_dir_contents(fd, &c));
  EXPECT_TRUE(c.empty);
  std::ofstream(dir + "/thread-0000.tlt") << "x";
  ASSERT_TRUE(read_dir_contents(fd, &c));
  EXPECT_FALSE(c.empty);
  EXPECT_FALSE(c.has_experiment);
  EXPECT_STREQ(c.foreign, "");
  std::ofstream(dir + "/experiment.json") << "{}";
  std::ofstream(dir + "/notes.txt") << "mine";
  ASSERT_TRUE(read_dir_contents(fd, &c));
  EXPECT_TRUE(c.has_experiment);
  EXPECT_STREQ(c.foreign, "notes.txt");
  close(fd);
}

TEST(ExperimentDir, FilesAreCreatedNeverReusedNorFollowed) {
  char error[512] = {};
  std::string dir = scratch_dir() + "/exp";
  int fd = open_experiment_dir(dir.c_str(), error, sizeof error);
  ASSERT_GE(fd, 0);
  int f = create_in_dir(fd, "thread-0000.tlt", O_WRONLY);
  ASSERT_GE(f, 0);
  close(f);
  EXPECT_EQ(create_in_dir(fd, "thread-0000.tlt", O_WRONLY), -1);  // exists
  EXPECT_EQ(errno, EEXIST);
  std::string victim = scratch_dir() + "/victim";
  std::ofstream(victim) << "keep";
  fs::create_symlink(victim, dir + "/thread-0001.tlt");
  EXPECT_EQ(create_in_dir(fd, "thread-0001.tlt", O_WRONLY), -1);  // a planted link
  EXPECT_EQ(errno, EEXIST);
  std::ifstream in(victim);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "keep");
  close(fd);
}

}  // namespace
}  // namespace tasklens::format
