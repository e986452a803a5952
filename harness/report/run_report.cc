#include "harness/report/run_report.h"

#include "absl/strings/str_cat.h"

namespace dmconf {

nlohmann::ordered_json RunInfoJson(const RunInfo& info) {
  return nlohmann::ordered_json{{"time", info.time},
                                {"host", info.host},
                                {"dmconf_version", info.dmconf_version},
                                {"compiler", info.compiler},
                                {"command", info.command}};
}

ReportInput RunReport::Input() const {
  ReportInput in;
  in.runs = &backends;
  nlohmann::json options_as_read = options;
  if (shard.has_value()) options_as_read["shard"] = absl::StrCat(shard->index, "/", shard->count);
  if (!shards.empty()) options_as_read["shards"] = shards;
  in.options = nlohmann::ordered_json(options_as_read);
  in.run_info = RunInfoJson(run);
  in.mutants = mutants;
  in.file_errors = file_errors;
  in.stale = stale;
  in.rules = rules;
  return in;
}

}  // namespace dmconf
