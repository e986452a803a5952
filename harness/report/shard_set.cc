#include "harness/report/shard_set.h"

#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/base/json_location.h"

namespace dmconf {
namespace {

constexpr size_t kMaxNamed = 10;  // shards named in one message

std::string Name(const Shard& s) { return absl::StrCat(s.index, "/", s.count); }

// Shard names, the first kMaxNamed kept (N may be up to a million): "1/4, 2/4 and 5 more".
struct Names {
  std::vector<std::string> head;
  int64_t count = 0;
  void Add(const Shard& s) {
    if (count++ < static_cast<int64_t>(kMaxNamed)) head.push_back(Name(s));
  }
  std::string Text() const {
    const int64_t more = count - static_cast<int64_t>(head.size());
    return more > 0 ? absl::StrCat(absl::StrJoin(head, ", "), " and ", more, " more")
                    : absl::StrJoin(head, ", ");
  }
};

const std::string& Version(const RunReport& r) { return r.run.dmconf_version; }

absl::Status Mixed(const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat("report.merge.shards_mixed: ", what,
                   ": merge the N shard reports of one `dmconf run --shard K/N` command"));
}

absl::Status CheckOptionsAndVersion(const std::vector<RunReport>& reports,
                                    const std::vector<std::string>& files) {
  for (size_t f = 1; f < reports.size(); ++f) {
    // The options apart from "shard" (RunReport::shard): the record as read, and "shards".
    if (reports[f].options != reports[0].options || reports[f].shards != reports[0].shards) {
      return io::LocError("report.merge.options_differ", io::JsonLoc{files[f], ""}.Key("options"),
                          absl::StrCat("the options differ from those of ", files[0],
                                       " (apart from \"shard\" they must be equal)"));
    }
    if (Version(reports[f]) != Version(reports[0])) {
      return Mixed(absl::StrCat(files[0], " was written by dmconf ", Version(reports[0]), " and ",
                                files[f], " by dmconf ", Version(reports[f])));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckShardSet(const std::vector<RunReport>& reports,
                           const std::vector<std::string>& files) {
  if (reports.empty()) return absl::OkStatus();
  if (absl::Status s = CheckOptionsAndVersion(reports, files); !s.ok()) return s;
  std::vector<std::optional<Shard>> shards;
  for (const RunReport& r : reports) shards.push_back(r.shard);
  std::map<int64_t, size_t> given;  // K -> the report that is shard K
  for (size_t f = 0; f < shards.size(); ++f) {
    if (shards[f].has_value() != shards[0].has_value()) {
      const size_t a = shards[0].has_value() ? 0 : f, b = shards[0].has_value() ? f : 0;
      return Mixed(absl::StrCat(files[a], " is shard ", Name(*shards[a]), " and ", files[b],
                                " is not a shard"));
    }
    if (!shards[f].has_value()) continue;
    if (shards[f]->count != shards[0]->count) {
      return Mixed(absl::StrCat(files[0], " is shard ", Name(*shards[0]), " and ", files[f],
                                " is shard ", Name(*shards[f]), " (one N for all shards)"));
    }
    auto [it, fresh] = given.emplace(shards[f]->index, f);
    if (!fresh) {
      return absl::InvalidArgumentError(absl::StrCat("report.merge.shards_repeated: shard ",
                                                     Name(*shards[f]), " is given twice (",
                                                     files[it->second], ", ", files[f], ")"));
    }
  }
  if (!shards[0].has_value()) return absl::OkStatus();
  const int64_t n = shards[0]->count;
  Names missing, present;
  for (int64_t k = 1; k <= n; ++k) (given.count(k) ? present : missing).Add({k, n});
  if (missing.count == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "report.merge.shards_missing: ", missing.count == 1 ? "shard " : "shards ", missing.Text(),
      missing.count == 1 ? " is" : " are", " missing (given: ", present.Text(),
      "); a merge of some shards would pass where the whole run may fail"));
}

}  // namespace dmconf
