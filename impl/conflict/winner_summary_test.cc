#include "impl/conflict/winner_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "impl/delta/commit_parser.h"
#include "impl/delta/file_key.h"

namespace rlc::conflict {
namespace {

// Every field of two summaries, or the same error (code and message).
void ExpectSame(const Result<WinnerSummary>& a, const Result<WinnerSummary>& b,
                const std::string& commit) {
  ASSERT_EQ(a.ok(), b.ok()) << commit << "\n" << (a.ok() ? b.status() : a.status()).ToString();
  if (!a.ok()) {
    EXPECT_EQ(a.status().code(), b.status().code()) << commit;
    EXPECT_EQ(a.status().message(), b.status().message()) << commit;
    return;
  }
  EXPECT_EQ(a->version, b->version);
  EXPECT_EQ(a->operation, b->operation) << commit;
  EXPECT_EQ(a->is_blind_append, b->is_blind_append) << commit;
  EXPECT_EQ(a->added_files, b->added_files) << commit;
  EXPECT_EQ(a->removed_files, b->removed_files) << commit;
  EXPECT_EQ(a->protocol, b->protocol) << commit;
  EXPECT_EQ(a->metadata, b->metadata) << commit;
  EXPECT_EQ(a->app_transactions, b->app_transactions) << commit;
  EXPECT_EQ(a->domains, b->domains) << commit;
  EXPECT_EQ(a->commit_info, b->commit_info) << commit;
  // Each removed file's key is its decoded path's, taken by whichever thread parsed it.
  EXPECT_EQ(a->removed_path_keys, b->removed_path_keys) << commit;
  ASSERT_EQ(a->removed_path_keys.size(), a->removed_files.size()) << commit;
  for (size_t i = 0; i < a->removed_files.size(); ++i) {
    EXPECT_EQ(a->removed_path_keys[i], delta::PathKey(a->removed_files[i].path))
        << a->removed_files[i].path;
  }
}

// Lines of every kind a winner holds, each distinct (its index is in it), some invalid.
std::string Line(std::mt19937& rng, int i) {
  const std::string n = std::to_string(i);
  switch (rng() % 12) {
    case 0:
      return R"({"commitInfo":{"operation":"OP)" + n + R"(","isBlindAppend":)" +
             (rng() % 2 ? "true" : "false") + "}}";
    case 1:
      return R"({"commitInfo":{"timestamp":)" + n + "}}";  // no operation
    case 2:
      return R"({"protocol":{"minReaderVersion":3,"minWriterVersion":)" +
             std::to_string(2 + i % 6) + "}}";
    case 3:
      return R"({"metaData":{"id":"t)" + n + R"(","schemaString":"{}","partitionColumns":[]}})";
    case 4:
      return R"({"txn":{"appId":"app)" + n + R"(","version":)" + n + "}}";
    case 5:
      return R"({"domainMetadata":{"domain":"d)" + n +
             R"(","configuration":"{}","removed":false}})";
    case 6:  // half of them escaped: keyed by the decoded path
      return R"({"remove":{"path":"f)" + std::string(i % 2 == 0 ? "" : "%20") + n +
             R"(.parquet","dataChange":true}})";
    case 7:
      return R"({"add":{"path":"f)" + n +
             R"(.parquet","partitionValues":{"p":"a"},"size":1,"modificationTime":2,)"
             R"("dataChange":true,"stats":"{\"numRecords\":)" +
             n + R"(}","tags":{"INSERTION_TIME":"1700000000000000"}}})";
    case 8:
      return "";  // a blank line
    case 9:
      return R"({"checkpointMetadata":{"version":)" + n + "}}";  // an action rlc keeps whole
    case 10:
      return R"({"add":{"path":"f)" + n +
             R"(.parquet","partitionValues":{},"size":1,"modificationTime":2,"dataChange":false}})"
             "\r";  // CRLF
    default:
      return R"({"add":{"path":"f)" + n + R"(.parquet","size":1}})";  // invalid: fields missing
  }
}

// Random commits of 0-40 lines (a fifth of them with an invalid line somewhere, so in either
// half or at the split) summarize from two halves exactly as in one pass: the same actions in
// the same order, the last protocol, metaData and commitInfo, and the same error, named at the
// same line and byte of the whole file.
TEST(WinnerSummary, TwoHalvesSummarizeAsOnePass) {
  std::mt19937 rng(20261205);
  int errors = 0, summaries = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string commit;
    const int lines = static_cast<int>(rng() % 41);
    for (int i = 0; i < lines; ++i) {
      std::string line = Line(rng, i);
      // Invalid lines are rare but for a fifth of the commits: most must summarize.
      while (round % 5 != 0 && line.find(R"("size":1}})") != std::string::npos) line = Line(rng, i);
      commit += line + "\n";
    }
    if (rng() % 3 == 0 && !commit.empty()) commit.pop_back();  // no final newline
    const std::string source = "_delta_log/00000000000000000007.json";
    const Result<WinnerSummary> one_pass = SummarizeWinner(7, commit, source);
    ExpectSame(SummarizeWinnerInTwoHalves(7, commit, source), one_pass, commit);
    (one_pass.ok() ? summaries : errors) += 1;
  }
  EXPECT_GT(errors, 100);  // both outcomes were compared, many times
  EXPECT_GT(summaries, 1000);
}

// 4.5 MiB of valid lines of every kind: large enough for SummarizeWinner to parse in two halves.
std::string LargeValidCommit(unsigned seed) {
  std::mt19937 rng(seed);
  std::string commit;
  for (int i = 0; commit.size() < (size_t{9} << 19); ++i) {
    std::string line = Line(rng, i);
    while (line.find(R"("size":1}})") != std::string::npos) line = Line(rng, i);
    commit += line + "\n";
  }
  return commit;
}

// A winner large enough for SummarizeWinner to parse its halves at once (where two CPUs are
// free) summarizes as its parsed commit, action by action.
TEST(WinnerSummary, LargeWinnerSummarizesAsItsCommit) {
  const std::string commit = LargeValidCommit(7);
  Result<delta::Commit> parsed = delta::ParseCommit(commit, 9, "c.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const Result<WinnerSummary> expected = SummarizeCommit(*std::move(parsed));
  ExpectSame(SummarizeWinner(9, commit, "c.json"), expected, "(the large winner)");
  ExpectSame(SummarizeWinnerInTwoHalves(9, commit, "c.json"), expected, "(the large winner)");
}

// What the judges of one summary were shown: per judge, the numbers of the adds it was asked about
// (in the order asked) and the commitInfos it saw. Judges may be made on two threads at once.
struct JudgeLog {
  struct Shown {
    std::vector<int> adds;
    int commit_infos = 0;
  };
  std::mutex mu;
  std::vector<std::unique_ptr<Shown>> judges;
};

// The answer a PathJudge gives for add f<n>.parquet, by n.
AddJudgement ByNumber(int n) {
  constexpr AddJudgement kAnswers[] = {AddJudgement::kKeep, AddJudgement::kDrop,
                                       AddJudgement::kNotJudged};
  return kAnswers[n % 3];
}

int AddNumber(const delta::AddFile& add) { return std::stoi(add.path.substr(1)); }

class PathJudge final : public AddJudge {
 public:
  explicit PathJudge(JudgeLog::Shown* shown) : shown_(shown) {}
  void Saw(const delta::CommitInfo&) override { ++shown_->commit_infos; }
  AddJudgement Judge(const delta::AddFile& add) override {
    shown_->adds.push_back(AddNumber(add));
    return ByNumber(shown_->adds.back());
  }

 private:
  JudgeLog::Shown* shown_;
};

AddJudgeMaker PathJudges(JudgeLog* log) {
  return [log]() -> std::unique_ptr<AddJudge> {
    const std::lock_guard<std::mutex> lock(log->mu);
    log->judges.push_back(std::make_unique<JudgeLog::Shown>());
    return std::make_unique<PathJudge>(log->judges.back().get());
  };
}

// A summary made with judges is the one made without (ExpectSame), with one judgement per add,
// each the answer for that add; each judge was asked about its pass's adds in file order, every
// add once, and saw every commitInfo once.
// `label` names the commit in messages (the commit itself when short).
void ExpectJudgedOnce(const Result<WinnerSummary>& judged, const Result<WinnerSummary>& plain,
                      JudgeLog& log, const std::string& commit, const std::string& label) {
  ExpectSame(judged, plain, label);
  if (!judged.ok()) return;
  ASSERT_EQ(judged->add_judgements.size(), judged->added_files.size()) << label;
  std::vector<int> asked;
  int commit_infos = 0;
  for (const auto& shown : log.judges) {
    for (size_t i = 1; i < shown->adds.size(); ++i)
      EXPECT_LT(shown->adds[i - 1], shown->adds[i]) << label;  // file order within a pass
    asked.insert(asked.end(), shown->adds.begin(), shown->adds.end());
    commit_infos += shown->commit_infos;
  }
  std::sort(asked.begin(), asked.end());
  std::vector<int> adds;
  for (size_t i = 0; i < judged->added_files.size(); ++i) {
    adds.push_back(AddNumber(judged->added_files[i]));
    EXPECT_EQ(judged->add_judgements[i], ByNumber(adds.back())) << label << "\nadd " << i;
  }
  EXPECT_EQ(asked, adds) << label;  // the adds are numbered in file order: each asked once
  int infos = 0;
  for (size_t at = commit.find("commitInfo"); at != std::string::npos;
       at = commit.find("commitInfo", at + 1))
    ++infos;
  EXPECT_EQ(commit_infos, infos) << label;
}

// Random commits, judged in one pass and in two halves: the judgements sit by their adds.
TEST(WinnerSummary, EachAddIsJudgedOnceByThePassThatParsedIt) {
  std::mt19937 rng(20261206);
  int judged = 0;
  for (int round = 0; round < 1000; ++round) {
    std::string commit;
    const int lines = static_cast<int>(rng() % 300);  // past a batch of adds, some of them
    for (int i = 0; i < lines; ++i) {
      std::string line = Line(rng, i);
      while (round % 5 != 0 && line.find(R"("size":1}})") != std::string::npos) line = Line(rng, i);
      commit += line + "\n";
    }
    const Result<WinnerSummary> plain = SummarizeWinner(7, commit, "c.json");
    JudgeLog one_pass, halves;
    ExpectJudgedOnce(SummarizeWinner(7, commit, "c.json", PathJudges(&one_pass)), plain, one_pass,
                     commit, commit);
    if (plain.ok()) {
      ASSERT_EQ(one_pass.judges.size(), 1u);
      judged += static_cast<int>(plain->added_files.size());
    }
    const Result<WinnerSummary> two =
        SummarizeWinnerInTwoHalves(7, commit, "c.json", PathJudges(&halves));
    ExpectJudgedOnce(two, plain, halves, commit, commit);
  }
  EXPECT_GT(judged, 10000);  // many adds, in many batches
}

// The large winner SummarizeWinner parses in halves (where two CPUs are free): one judge a half.
TEST(WinnerSummary, ALargeWinnersHalvesEachJudgeTheirOwnAdds) {
  const std::string commit = LargeValidCommit(11);
  JudgeLog log;
  ExpectJudgedOnce(SummarizeWinnerInTwoHalves(9, commit, "c.json", PathJudges(&log)),
                   SummarizeWinner(9, commit, "c.json"), log, commit, "(the large winner)");
  ASSERT_EQ(log.judges.size(), 2u);
  EXPECT_GT(log.judges[0]->adds.size(), 1000u);
  EXPECT_GT(log.judges[1]->adds.size(), 1000u);
}

// A summary of 20,000 adds and 20,000 removes (large enough to be freed on two threads where two
// CPUs are free) frees its own files and nothing else: a copy taken before stays whole. The
// sanitizer builds run this for the freeing itself (no file freed twice, none left).
TEST(WinnerSummary, ALargeSummaryFreesItsOwnFilesOnly) {
  std::string commit;
  for (int i = 0; i < 20000; ++i) {
    const std::string n = std::to_string(i);
    commit += R"({"add":{"path":"a/)" + n +
              R"(.parquet","partitionValues":{"p":"x"},"size":1,"modificationTime":2,)"
              R"("dataChange":true,"tags":{"INSERTION_TIME":"1700000000000000"}}})"
              "\n";
    commit += R"({"remove":{"path":"r/)" + n +
              R"(.parquet","dataChange":true}})"
              "\n";
  }
  std::optional<Result<WinnerSummary>> first(SummarizeWinner(3, commit, "c.json"));
  ASSERT_TRUE(first->ok()) << first->status().ToString();
  const WinnerSummary copy = **first;
  first.reset();  // frees the first summary's files
  ASSERT_EQ(copy.added_files.size(), 20000u);
  ASSERT_EQ(copy.removed_files.size(), 20000u);
  ExpectSame(copy, SummarizeWinner(3, commit, "c.json"), "(the large winner)");
}

}  // namespace
}  // namespace rlc::conflict
