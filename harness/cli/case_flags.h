// Command-line flags that describe one case (shared by `dmconf eval` and `dmconf infer-shape`).
//
// Example:
//   dmconf eval --op SpaceToDepth --type f32 --shape 1,1,4,4 --block-size 2 --mode blocks_first
#ifndef DMCONF_HARNESS_CLI_CASE_FLAGS_H_
#define DMCONF_HARNESS_CLI_CASE_FLAGS_H_

#include <optional>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "oracle/op_case.h"

namespace dmconf::cli {

struct CaseFlags {
  std::string op;
  std::string type = "f32";
  std::string shape;
  std::string int_type = "i64";
  std::string block_shape, begin, end;  // SpaceToBatch pads / BatchToSpace crops
  std::optional<int64_t> block_size;
  std::optional<std::string> mode;
  std::string sizes, strides, rates;
  std::optional<std::string> auto_pad;
  std::string data = "iota";
};

// Adds the flags to `cmd`. with_data adds --data (evaluation needs values, inference not).
void AddCaseFlags(CLI::App* cmd, CaseFlags* f, bool with_data);

// Builds the case. Errors name a `case.*` rule (bad numbers, unknown op or type, ...).
// with_data = false leaves data.bytes empty (shape inference never reads them).
absl::StatusOr<OpCase> BuildCase(const CaseFlags& f, bool with_data);

// "2,3,4" -> {2, 3, 4}; every value must be an integer in int64 range.
absl::StatusOr<std::vector<int64_t>> ParseIntList(const std::string& s, const std::string& what);

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_CASE_FLAGS_H_
