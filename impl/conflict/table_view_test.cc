// TableView: winners applied in commit order, whenever the view is first asked.
#include "impl/conflict/table_view.h"

#include <gtest/gtest.h>

#include <memory>

#include "impl/conflict/case_test_support.h"

namespace rlc::conflict {
namespace {

using namespace testing;  // NOLINT: the case builders

std::shared_ptr<const WinnerSummary> Winner(int64_t version, std::vector<delta::AddFile> adds,
                                            std::vector<delta::RemoveFile> removes) {
  auto w = std::make_shared<WinnerSummary>();
  w->version = version;
  w->added_files = std::move(adds);
  w->removed_files = std::move(removes);
  return w;
}

delta::FileTable ReadFiles() {
  delta::FileTable files;
  files.emplace("f1", AddOf("f1", IdStats(10, 0, 9)));
  files.emplace("f2", AddOf("f2", IdStats(5, 20, 24)));
  return files;
}

TEST(TableView, TheReadSnapshotBeforeAnyWinner) {
  const auto read = ReadFiles();
  const TableView view(read);
  ASSERT_NE(view.Active("f1"), nullptr);
  EXPECT_EQ(view.Active("f1")->stats, IdStats(10, 0, 9));
  EXPECT_EQ(view.Active("g"), nullptr);
}

// Two winners applied before the first question: the second one's remove of what the first
// added must see that add (the winners settle one after the other, in order).
TEST(TableView, WinnersAppliedBeforeTheFirstQuestionSettleInOrder) {
  const auto read = ReadFiles();
  TableView view(read);
  view.Apply(Winner(6, {AddOf("g", IdStats(3, 30, 32))}, {RemoveOf("f1")}));
  view.Apply(Winner(7, {}, {RemoveOf("g")}));
  EXPECT_EQ(view.Active("g"), nullptr) << "version 7 removed what version 6 added";
  EXPECT_EQ(view.Active("f1"), nullptr);
  ASSERT_NE(view.Active("f2"), nullptr);
}

TEST(TableView, AWinnerAfterAQuestionIsAppliedAtTheNextOne) {
  const auto read = ReadFiles();
  TableView view(read);
  view.Apply(Winner(6, {AddOf("g", IdStats(3, 30, 32))}, {}));
  ASSERT_NE(view.Active("g"), nullptr);
  view.Apply(Winner(7, {AddOf("h", IdStats(1, 40, 40))}, {RemoveOf("g")}));
  EXPECT_EQ(view.Active("g"), nullptr);
  ASSERT_NE(view.Active("h"), nullptr);
}

// A remove of another DV version than the active one leaves the file as it was.
TEST(TableView, ARemoveOfAnotherDvVersionRemovesNothing) {
  const auto read = ReadFiles();
  TableView view(read);
  delta::RemoveFile stale = RemoveOf("f1");
  stale.deletion_vector = InlineDv({1});
  view.Apply(Winner(6, {}, {stale}));
  ASSERT_NE(view.Active("f1"), nullptr);
  EXPECT_FALSE(view.Active("f1")->deletion_vector.has_value());
  EXPECT_FALSE(view.RemovedFile(stale).has_value()) << "it names no active version";
}

// What a remove removed is the active add's: its statistics, not the remove's claim.
TEST(TableView, ARemovedFileIsDescribedByItsActiveAdd) {
  const auto read = ReadFiles();
  TableView view(read);
  view.Apply(Winner(6, {AddOf("g", IdStats(3, 30, 32))}, {}));
  delta::RemoveFile remove = RemoveOf("g");
  remove.stats.reset();
  const std::optional<TableView::Removed> removed = view.RemovedFile(remove);
  ASSERT_TRUE(removed.has_value());
  EXPECT_EQ(removed->stats, IdStats(3, 30, 32));
}

}  // namespace
}  // namespace rlc::conflict
