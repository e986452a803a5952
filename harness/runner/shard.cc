#include "harness/runner/shard.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace dmconf {

absl::StatusOr<Shard> ParseShard(absl::string_view text) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, '/');
  Shard s;
  bool ok = parts.size() == 2;
  for (size_t i = 0; ok && i < 2; ++i) {
    ok = !parts[i].empty() && parts[i].size() <= 7 &&
         std::all_of(parts[i].begin(), parts[i].end(), absl::ascii_isdigit) &&
         absl::SimpleAtoi(parts[i], i == 0 ? &s.index : &s.count);
  }
  if (!ok || s.index < 1 || s.count < 1 || s.index > s.count || s.count > kMaxShards) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cli.shard: '", text, "' is not K/N with 1 <= K <= N <= ", kMaxShards, " (e.g. 2/4)"));
  }
  return s;
}

uint64_t CaseIdHash(absl::string_view id) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : id) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

int64_t ShardOf(absl::string_view id, int64_t count) {
  return static_cast<int64_t>(CaseIdHash(id) % static_cast<uint64_t>(count)) + 1;
}

}  // namespace dmconf
