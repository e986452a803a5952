#include "harness/report/shard_set.h"

#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/base/json_location.h"
#include "harness/runner/shard.h"

namespace dmconf {
namespace {

using nlohmann::json;

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

std::string Version(const json& r) {
  if (!r.contains("run") || !r["run"].is_object()) return "";
  const json& run = r["run"];
  return run.contains("dmconf_version") && run["dmconf_version"].is_string()
             ? run["dmconf_version"].get<std::string>()
             : "";
}

absl::Status Mixed(const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat("report.merge.shards_mixed: ", what,
                   ": merge the N shard reports of one `dmconf run --shard K/N` command"));
}

// The shard a report recorded (options.shard, "K/N"), or none.
absl::StatusOr<std::optional<Shard>> ShardOfReport(const json& r, const std::string& file) {
  const json& o = r["options"];
  if (!o.is_object() || !o.contains("shard")) return std::optional<Shard>();
  absl::StatusOr<Shard> s = o["shard"].is_string()
                                ? ParseShard(o["shard"].get<std::string>())
                                : absl::InvalidArgumentError("cli.shard: not a string");
  if (!s.ok()) {
    return io::LocError("report.field.value", io::JsonLoc{file, ""}.Key("options").Key("shard"),
                        s.status().message());
  }
  return std::optional<Shard>(*s);
}

absl::Status CheckOptionsAndVersion(const std::vector<json>& reports,
                                    const std::vector<std::string>& files) {
  json first = reports[0]["options"];
  if (first.is_object()) first.erase("shard");
  for (size_t f = 1; f < reports.size(); ++f) {
    json o = reports[f]["options"];
    if (o.is_object()) o.erase("shard");
    if (o != first) {
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

absl::Status CheckShardSet(const std::vector<json>& reports,
                           const std::vector<std::string>& files) {
  if (reports.empty()) return absl::OkStatus();
  if (absl::Status s = CheckOptionsAndVersion(reports, files); !s.ok()) return s;
  std::vector<std::optional<Shard>> shards;
  for (size_t f = 0; f < reports.size(); ++f) {
    absl::StatusOr<std::optional<Shard>> s = ShardOfReport(reports[f], files[f]);
    if (!s.ok()) return s.status();
    shards.push_back(*s);
  }
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
