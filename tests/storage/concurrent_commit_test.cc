// Two OS processes committing to one directory table never lose a commit: each writes the next
// version with put-if-absent and, when the other won, re-reads the log and retries, as a Delta
// writer does. Afterwards the log holds exactly every commit of both, each once, at consecutive
// versions, and every version file is whole. The processes start together (a pipe is the
// starting gun) and report how often they lost a race: a run with no lost race tested nothing
// and fails.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <set>
#include <string>

#include "impl/delta/log.h"
#include "impl/storage/storage.h"

namespace {

namespace fs = std::filesystem;

constexpr int kCommitsPerProcess = 150;

// The child's loop; returns the exit code (0: all its commits landed) and leaves its count of
// lost races in <root>/retries-<process>.
int CommitLoop(const std::string& root, int process, int start_fd) {
  char go = 0;
  if (read(start_fd, &go, 1) != 1) return 3;
  auto storage = rlc::storage::NewLocalStorage();
  int retries = 0;
  for (int i = 0; i < kCommitsPerProcess; ++i) {
    const std::string body = std::string(4096, 'a' + process) + " process " +
                             std::to_string(process) + " commit " + std::to_string(i) + "\n";
    for (;;) {
      rlc::Result<rlc::delta::LogListing> listing = rlc::delta::ListLog(*storage, root);
      const int64_t next = listing.ok() ? listing->latest_version() + 1 : 0;
      const rlc::Status s = storage->PutIfAbsent(
          rlc::delta::LogDir(root) + "/" + rlc::delta::CommitFileName(next), body);
      if (s.ok()) break;
      if (s.code() != rlc::StatusCode::kAlreadyExists) return 2;
      ++retries;
    }
  }
  return storage->PutIfAbsent(root + "/retries-" + std::to_string(process), std::to_string(retries))
                 .ok()
             ? 0
             : 4;
}

TEST(ConcurrentCommits, TwoProcessesNeverLoseACommit) {
  const fs::path root =
      fs::temp_directory_path() / ("rlc-concurrent-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "_delta_log");
  int gun[2];
  ASSERT_EQ(pipe(gun), 0);
  pid_t children[2];
  for (int p = 0; p < 2; ++p) {
    children[p] = fork();
    ASSERT_GE(children[p], 0);
    if (children[p] == 0) _exit(CommitLoop(root.string(), p, gun[0]));
  }
  ASSERT_EQ(write(gun[1], "gg", 2), 2);  // both start now
  close(gun[0]);
  close(gun[1]);
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  auto storage = rlc::storage::NewLocalStorage();
  rlc::Result<rlc::delta::LogListing> listing = rlc::delta::ListLog(*storage, root.string());
  ASSERT_TRUE(listing.ok()) << listing.status().ToString();
  ASSERT_EQ(listing->commit_versions.size(), size_t{2 * kCommitsPerProcess});
  std::set<std::string> seen;
  for (size_t v = 0; v < listing->commit_versions.size(); ++v) {
    EXPECT_EQ(listing->commit_versions[v], static_cast<int64_t>(v));
    rlc::Result<std::string> body =
        storage->ReadFile(rlc::delta::LogDir(root.string()) + "/" +
                          rlc::delta::CommitFileName(static_cast<int64_t>(v)));
    ASSERT_TRUE(body.ok());
    EXPECT_EQ(body->size(), 4096 + body->substr(4096).size());
    EXPECT_EQ(body->back(), '\n');  // whole, never partial
    seen.insert(body->substr(4096));
  }
  EXPECT_EQ(seen.size(), size_t{2 * kCommitsPerProcess});  // each commit once
  int lost_races = 0;
  for (int p = 0; p < 2; ++p) {
    rlc::Result<std::string> retries =
        storage->ReadFile(root.string() + "/retries-" + std::to_string(p));
    ASSERT_TRUE(retries.ok());
    lost_races += std::stoi(*retries);
  }
  EXPECT_GT(lost_races, 0) << "the two processes never raced: the run tested nothing";
  std::cout << "lost races (retried commits): " << lost_races << "\n";
  fs::remove_all(root);
}

}  // namespace
