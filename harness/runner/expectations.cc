#include "harness/runner/expectations.h"

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "harness/io/json_location.h"
#include "nlohmann/json.hpp"

namespace dmconf {

bool GlobMatch(absl::string_view p, absl::string_view t) {
  // Iterative matcher with one backtrack point (the last '*').
  size_t pi = 0, ti = 0, star = absl::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ti;
    } else if (pi < p.size() && p[pi] == t[ti]) {
      ++pi;
      ++ti;
    } else if (star != absl::string_view::npos) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

const KnownFailure* Expectations::Find(absl::string_view backend, absl::string_view case_id,
                                       Verdict v, absl::string_view rule) const {
  for (const KnownFailure& k : known) {
    if (!k.backend.empty() && k.backend != backend) continue;
    if (k.verdict.has_value() && *k.verdict != v) continue;
    if (!k.rule_pattern.empty() && (rule.empty() || !GlobMatch(k.rule_pattern, rule))) continue;
    if (GlobMatch(k.case_pattern, case_id)) return &k;
  }
  return nullptr;
}

absl::StatusOr<Expectations> ParseExpectations(absl::string_view text, absl::string_view file) {
  auto bad = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat("expectations.format: ", file, ": ", what));
  };
  nlohmann::json j;
  io::JsonLoc duplicate{std::string(file), ""};
  try {
    j = io::ParseJsonNotingDuplicates(text, &duplicate);
  } catch (const nlohmann::json::exception&) {
    return bad("not a JSON object");
  }
  if (!duplicate.pointer.empty()) {
    return io::LocError("expectations.duplicate_key", duplicate,
                        "this key appears twice in one object (JSON readers disagree on which "
                        "one counts)");
  }
  if (!j.is_object()) return bad("not a JSON object");
  // Not j.value("format", ""): it throws when "format" is there but not a string.
  const auto format = j.find("format");
  if (format == j.end() || !format->is_string() || *format != "dmconf-expectations/1") {
    return bad("\"format\" must be \"dmconf-expectations/1\"");
  }
  Expectations e;
  if (!j.contains("known_failures")) return e;
  if (!j["known_failures"].is_array()) return bad("\"known_failures\" must be an array");
  int i = 0;
  for (const nlohmann::json& k : j["known_failures"]) {
    const std::string at = absl::StrCat("known_failures[", i++, "]");
    if (!k.is_object() || !k.contains("case") || !k["case"].is_string()) {
      return bad(at + ": needs a string \"case\"");
    }
    if (!k.contains("reason") || !k["reason"].is_string() ||
        k["reason"].get<std::string>().empty()) {
      return bad(at + ": needs a non-empty \"reason\"");
    }
    KnownFailure f;
    f.case_pattern = k["case"].get<std::string>();
    f.reason = k["reason"].get<std::string>();
    if (k.contains("backend")) {
      if (!k["backend"].is_string()) return bad(at + ": \"backend\" must be a string");
      f.backend = k["backend"].get<std::string>();
    }
    if (k.contains("rule")) {
      if (!k["rule"].is_string()) return bad(at + ": \"rule\" must be a string");
      f.rule_pattern = k["rule"].get<std::string>();
    }
    if (k.contains("link")) {
      if (!k["link"].is_string()) return bad(at + ": \"link\" must be a string");
      f.link = k["link"].get<std::string>();
    }
    if (k.contains("verdict")) {
      if (!k["verdict"].is_string()) return bad(at + ": \"verdict\" must be a string");
      std::optional<Verdict> v = ParseVerdict(k["verdict"].get<std::string>());
      if (!v.has_value()) return bad(at + ": unknown verdict " + k["verdict"].get<std::string>());
      f.verdict = v;
    }
    e.known.push_back(std::move(f));
  }
  return e;
}

absl::StatusOr<Expectations> LoadExpectations(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("expectations.read: cannot open ", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseExpectations(ss.str(), path);
}

}  // namespace dmconf
