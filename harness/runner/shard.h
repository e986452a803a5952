// Sharded runs: `dmconf run --shard K/N` runs the cases whose id hashes to shard K of N. The
// hash is of the case id alone (FNV-1a, 64 bits), so a case lands in the same shard whatever
// else the run holds, and the N shards of one command together run each of its cases exactly
// once: catalogue, sweeps, directed sweeps, shape-lane cases and vector files alike.
//
// Example:
//   absl::StatusOr<Shard> s = ParseShard("2/4");   // {.index = 2, .count = 4}
//   if (InShard(*s, c.id)) ...                      // ShardOf(c.id, 4) == 2
#ifndef DMCONF_HARNESS_RUNNER_SHARD_H_
#define DMCONF_HARNESS_RUNNER_SHARD_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dmconf {

inline constexpr int64_t kMaxShards = 1'000'000;

struct Shard {
  int64_t index = 1;  // 1-based
  int64_t count = 1;
};

// "K/N" with 1 <= K <= N <= kMaxShards, decimal. Error: "cli.shard: ...".
absl::StatusOr<Shard> ParseShard(absl::string_view text);

// FNV-1a (64 bits) of a case id: a fixed, documented hash, the same on every platform and
// build. What depends on a case's id alone uses it: its shard, the seed of its shape-lane
// widening (shape_lane.h WidenCatalogueCase), the tail of a long failure-file name.
uint64_t CaseIdHash(absl::string_view id);

// The shard (1..count) a case id belongs to.
int64_t ShardOf(absl::string_view id, int64_t count);
inline bool InShard(const Shard& s, absl::string_view id) {
  return s.count <= 1 || ShardOf(id, s.count) == s.index;
}

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_SHARD_H_
