#include "impl/base/status.h"

#include <gtest/gtest.h>

namespace rlc {
namespace {

Result<int> Half(int x) {
  if (x % 2 != 0) return Status::InvalidArgument("odd: " + std::to_string(x));
  return x / 2;
}

Result<int> Quarter(int x) {
  RLC_ASSIGN_OR_RETURN(int h, Half(x));
  return Half(h);
}

TEST(Status, OkHasNoMessage) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "OK");
}

TEST(Status, WithContextPrependsAndKeepsCode) {
  Status s = Status::Corrupt("bad byte").WithContext("file x");
  EXPECT_EQ(s.code(), StatusCode::kCorrupt);
  EXPECT_EQ(s.message(), "file x: bad byte");
  EXPECT_EQ(s.ToString(), "Corrupt: file x: bad byte");
  EXPECT_TRUE(Status::Ok().WithContext("ignored").ok());
}

TEST(Result, AssignOrReturnPropagatesTheFirstFailure) {
  EXPECT_EQ(*Quarter(8), 2);
  Result<int> r = Quarter(6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "odd: 3");
}

}  // namespace
}  // namespace rlc
