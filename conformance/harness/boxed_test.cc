// Boxed<T> (harness/base/boxed.h): std::optional's behaviour with the value on the heap.
#include "harness/base/boxed.h"

#include <optional>
#include <string>

#include "gtest/gtest.h"

namespace dmconf {
namespace {

TEST(Boxed, EmptyUntilSetAndEmptyAgainAfterReset) {
  Boxed<std::string> b;
  EXPECT_FALSE(b.has_value());
  EXPECT_FALSE(static_cast<bool>(b));
  b = std::string("mode swapped");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(*b, "mode swapped");
  EXPECT_EQ(b->size(), 12u);
  b.reset();
  EXPECT_FALSE(b.has_value());
  b.emplace(3, 'x');
  EXPECT_EQ(*b, "xxx");
  b = std::nullopt;
  EXPECT_FALSE(b.has_value());
}

TEST(Boxed, ACopyHoldsItsOwnValue) {
  Boxed<std::string> a = std::string("first");
  Boxed<std::string> b = a;
  *b = "second";
  EXPECT_EQ(*a, "first");
  EXPECT_EQ(*b, "second");
  a = b;
  *b = "third";
  EXPECT_EQ(*a, "second");
  Boxed<std::string> empty;
  a = empty;
  EXPECT_FALSE(a.has_value());
  Boxed<std::string> moved = std::move(b);
  EXPECT_EQ(*moved, "third");
}

TEST(Boxed, ConvertsToAndFromStdOptional) {
  const std::optional<int> some = 7, none;
  const Boxed<int> from_some = some, from_none = none;
  EXPECT_EQ(*from_some, 7);
  EXPECT_FALSE(from_none.has_value());
  const std::optional<int> back = from_some, back_none = from_none;
  EXPECT_EQ(back, std::optional<int>(7));
  EXPECT_EQ(back_none, std::nullopt);
}

TEST(Boxed, TakesOnePointerWhateverTheValue) {
  struct Large {
    char bytes[384];
  };
  EXPECT_EQ(sizeof(Boxed<Large>), sizeof(void*));
}

}  // namespace
}  // namespace dmconf
