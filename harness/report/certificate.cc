#include "harness/report/certificate.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "harness/report/status_matrix.h"

namespace dmconf {
namespace {

using Json = nlohmann::ordered_json;

Json CountsJson(const BackendRun& run, StatusCell* total, std::map<std::string, int64_t>* lanes) {
  std::map<std::tuple<Op, ElementType, std::string>, StatusCell> cells;
  for (const CaseResult& c : run.results) {
    cells[{c.op, c.type, MatrixLane(c)}].Add(c);
    total->Add(c);
    ++(*lanes)[MatrixLane(c)];
  }
  Json out = Json::array();
  for (const auto& [key, cell] : cells) {
    out.push_back(Json{{"op", std::string(OpName(std::get<0>(key)))},
                       {"element_type", std::string(ElementTypeName(std::get<1>(key)))},
                       {"lane", std::get<2>(key)},
                       {"cases", cell.cases},
                       {"passed", cell.passed},
                       {"new_failures", cell.failed},
                       {"known_failures", cell.known},
                       {"unsupported", cell.unsupported}});
  }
  return out;
}

Json KnownJson(const BackendRun& run) {
  Json out = Json::array();
  run.results.ForEachHeld([&](size_t, const CaseResult& c) {  // a known result is held
    if (c.known == nullptr) return;
    Json k{{"case", c.id},
           {"lane", MatrixLane(c)},
           {"verdict", std::string(VerdictName(c.verdict))},
           {"reason", c.known->reason}};
    if (!c.known->link.empty()) k["link"] = c.known->link;
    out.push_back(std::move(k));
  });
  return out;
}

// Per op of the scope: cases per element type; per rule its negative cases and valid twins.
struct OpCoverage {
  std::map<std::string, int64_t> types;
  std::map<std::string, std::pair<int64_t, int64_t>> rules;  // rule -> negatives, twins
};

// "rule/<id>/twin/..." or a shape case's "shape/rule/<id>/twin/...": <id>; else empty.
std::string TwinOf(absl::string_view id) {
  absl::ConsumePrefix(&id, "shape/");
  if (!absl::ConsumePrefix(&id, "rule/")) return "";
  const size_t slash = id.find('/');
  if (slash == absl::string_view::npos) return "";
  if (!absl::StartsWith(id.substr(slash), "/twin/")) return "";
  return std::string(id.substr(0, slash));
}

std::map<std::string, OpCoverage> Coverage(const BackendRun& run) {
  std::map<std::string, OpCoverage> out;
  for (const CaseResult& c : run.results) {
    OpCoverage& o = out[std::string(OpName(c.op))];
    ++o.types[std::string(ElementTypeName(c.type))];
    if ((c.expected == ExpectedClass::kMustReject || c.expected == ExpectedClass::kUnspecified) &&
        !c.rule.empty()) {
      ++o.rules[c.rule].first;
    }
    if (std::string twin = TwinOf(c.id); !twin.empty() && c.expected == ExpectedClass::kValid) {
      ++o.rules[twin].second;
    }
  }
  return out;
}

// The `coverage` block, and the rules within the ranks that no negative case or no twin
// exercised.
Json CoverageJson(const CertificateInput& in, std::vector<std::string>* not_exercised) {
  std::map<std::string, OpCoverage> cov = Coverage(*in.run);
  Json out = Json::array();
  for (const std::string& op : in.ops) {
    const OpCoverage& o = cov[op];
    Json types = Json::object();
    for (const auto& [t, n] : o.types) types[t] = n;
    Json rules = Json::array(), outside = Json::array(), missing = Json::array();
    for (const CertifiedRule& r : in.rules) {
      if (r.op != op) continue;
      auto it = o.rules.find(r.rule);
      const int64_t neg = it == o.rules.end() ? 0 : it->second.first;
      const int64_t twin = it == o.rules.end() ? 0 : it->second.second;
      if (!r.within_ranks) {
        outside.push_back(r.rule);
        continue;
      }
      rules.push_back(Json{{"rule", r.rule}, {"negative_cases", neg}, {"twin_cases", twin}});
      if (neg == 0 || twin == 0) {
        missing.push_back(r.rule);
        not_exercised->push_back(r.rule);
      }
    }
    out.push_back(Json{{"op", op},
                       {"element_types", std::move(types)},
                       {"rules", std::move(rules)},
                       {"rules_outside_ranks", std::move(outside)},
                       {"rules_not_exercised", std::move(missing)}});
  }
  return out;
}

Json Reasons(const CertificateInput& in, const StatusCell& total,
             const std::map<std::string, int64_t>& lanes,
             const std::vector<std::string>& not_exercised) {
  Json reasons = Json::array();
  if (!in.run->startup_error.empty()) {
    reasons.push_back(absl::StrCat("the backend did not start: ", in.run->startup_error));
  }
  for (const Json& lane : in.profile["lanes"]) {
    const std::string name = lane.get<std::string>();
    if (!lanes.count(name)) {
      reasons.push_back(absl::StrCat("no case of the profile's ", name,
                                     " lane ran (the backend does not provide it)"));
    }
  }
  if (total.failed > 0) reasons.push_back(absl::StrCat(total.failed, " new failure(s)"));
  for (const std::string& e : in.run->worker_errors) {
    reasons.push_back(absl::StrCat("a worker error that belongs to no case: ", e));
  }
  if (total.known > 0) {
    reasons.push_back(absl::StrCat(total.known, " known failure(s), listed with their reasons"));
  }
  if (total.unsupported > 0) {
    reasons.push_back(absl::StrCat(total.unsupported,
                                   " case(s) of the profile unsupported: the backend does not "
                                   "implement all of it (see the status matrix)"));
  }
  if (in.rules_required && !not_exercised.empty()) {
    reasons.push_back(absl::StrCat(not_exercised.size(),
                                   " rule(s) of the profile's ranks with no negative case or no "
                                   "valid twin in the run: ",
                                   absl::StrJoin(not_exercised, ", ")));
  }
  return reasons;
}

}  // namespace

Json CertificateJson(const CertificateInput& in) {
  StatusCell total;
  std::map<std::string, int64_t> lanes;
  Json counts = CountsJson(*in.run, &total, &lanes);
  std::vector<std::string> not_exercised;
  Json coverage = CoverageJson(in, &not_exercised);
  Json reasons = Reasons(in, total, lanes, not_exercised);
  Json backend{{"name", in.run->backend}};
  if (!in.run->library.empty()) {
    backend["library"] = in.run->library;
    backend["sha256"] = in.library_sha256;
  }
  Json run{{"id", in.run_id}};
  for (const CertifiedFile& f : in.files)
    run[f.role] = Json{{"file", f.file}, {"sha256", f.sha256}};
  Json c{{"format", "dmconf-certificate/1"},
         {"profile", in.profile},
         {"dmconf_version", DMCONF_VERSION},
         {"time", in.time},
         {"backend", backend},
         {"run", std::move(run)},
         {"scope", Json{{"ops", in.ops}, {"whole_profile", in.whole_profile}}},
         {"verdict", reasons.empty() ? "conformant" : "not conformant"},
         {"reasons", reasons},
         {"totals", Json{{"cases", total.cases},
                         {"passed", total.passed},
                         {"new_failures", total.failed},
                         {"known_failures", total.known},
                         {"unsupported", total.unsupported}}},
         {"counts", std::move(counts)},
         {"coverage", std::move(coverage)},
         {"status_matrix", StatusMatrixJson(*in.run)},
         {"known_failures", KnownJson(*in.run)},
         {"signed_off_by", in.signed_off_by}};
  return c;
}

bool Conformant(const Json& c) { return c.value("verdict", "") == "conformant"; }

std::string VerdictLine(const Json& c) {
  const std::string profile = c["profile"].value("id", "");
  const Json& scope = c["scope"];
  if (!scope.value("whole_profile", true)) {
    std::vector<std::string> ops;
    for (const Json& op : scope["ops"]) ops.push_back(op.get<std::string>());
    return absl::StrCat(c.value("verdict", ""), " for ", absl::StrJoin(ops, ", "), " of profile ",
                        profile);
  }
  return absl::StrCat(c.value("verdict", ""), " to profile ", profile);
}

namespace {

// One Markdown table cell or inline text: no control byte, no markup, no HTML.
std::string Md(absl::string_view text) {
  std::string out;
  for (unsigned char ch : text) {
    if (ch < 0x20 || ch == 0x7f) {
      absl::StrAppend(&out, absl::StrFormat("\\x%02x", ch));
    } else if (ch == '&') {
      out += "&amp;";
    } else if (ch == '<') {
      out += "&lt;";
    } else if (ch == '>') {
      out += "&gt;";
    } else if (std::string_view("\\`*_[]|#!").find(static_cast<char>(ch)) !=
               std::string_view::npos) {
      out += '\\';
      out += static_cast<char>(ch);
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out;
}

std::string S(const Json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); }

}  // namespace

namespace {

// One op's section of the statement's "Element types and rules per op".
std::string CoverageMarkdown(const Json& o) {
  std::string md;
  std::vector<std::string> types;
  for (const auto& [t, n] : o["element_types"].items()) {
    types.push_back(absl::StrCat(t, " (", S(n), ")"));
  }
  absl::StrAppend(&md, "### ", Md(S(o["op"])), "\n\nElement types (cases): ",
                  types.empty() ? "none" : absl::StrJoin(types, ", "), "\n\n");
  absl::StrAppend(&md, "| rule | negative cases | valid twins |\n|---|---|---|\n");
  for (const Json& r : o["rules"]) {
    absl::StrAppend(&md, "| ", Md(S(r["rule"])), " | ", S(r["negative_cases"]), " | ",
                    S(r["twin_cases"]), " |\n");
  }
  auto list = [&](const char* key, const char* what) {
    if (o[key].empty()) return;
    std::vector<std::string> ids;
    for (const Json& r : o[key]) ids.push_back(Md(S(r)));
    absl::StrAppend(&md, "\n", what, ": ", absl::StrJoin(ids, ", "), "\n");
  };
  list("rules_outside_ranks", "Not tested, since no data of the profile's ranks breaks them");
  list("rules_not_exercised", "**Not exercised** (no negative case or no valid twin ran)");
  md += "\n";
  return md;
}

}  // namespace

std::string CertificateMarkdown(const Json& c) {
  const Json& p = c["profile"];
  const Json& b = c["backend"];
  std::string md =
      absl::StrCat("# dmconf conformance statement\n\n", "**", Md(S(b["name"])), "** is **",
                   Md(VerdictLine(c)), "** of dmconf ", Md(S(c["dmconf_version"])), ".\n\n");
  if (p.contains("superseded_by")) {
    absl::StrAppend(
        &md, "Profile ", Md(S(p["id"])), " is superseded by ", Md(S(p["superseded_by"])),
        " (a later edition of the catalogue): the rules this version exercised, and those it "
        "did not, are listed below.\n\n");
  }
  absl::StrAppend(&md, "| | |\n|---|---|\n", "| profile | ", Md(S(p["id"])), ": ",
                  Md(S(p["description"])), " |\n", "| backend | ", Md(S(b["name"])), " |\n");
  if (b.contains("library")) {
    absl::StrAppend(&md, "| library | ", Md(S(b["library"])), " |\n", "| SHA-256 | ",
                    Md(S(b["sha256"])), " |\n");
  }
  if (c.contains("run")) {
    absl::StrAppend(&md, "| run | ", Md(S(c["run"]["id"])), " |\n");
    for (const auto& [role, f] : c["run"].items()) {
      if (role == "id") continue;
      absl::StrAppend(&md, "| ", Md(role), " | ", Md(S(f["file"])), ", SHA-256 ",
                      Md(S(f["sha256"])), " |\n");
    }
  }
  const Json& t = c["totals"];
  absl::StrAppend(
      &md, "| time | ", Md(S(c["time"])), " |\n", "| cases | ", S(t["cases"]), ": ", S(t["passed"]),
      " passed, ", S(t["new_failures"]), " new failure(s), ", S(t["known_failures"]), " known, ",
      S(t["unsupported"]), " unsupported |\n", "| signed off by | ",
      c["signed_off_by"].get<std::string>().empty() ? "(nobody)" : Md(S(c["signed_off_by"])),
      " |\n", "| digest | ", S(c["digest"]), " |\n\n");
  if (!c["reasons"].empty()) {
    md += "## Why not conformant\n\n";
    for (const Json& r : c["reasons"]) absl::StrAppend(&md, "- ", Md(S(r)), "\n");
    md += "\n";
  }
  md += "## Pass counts (op x element type x lane)\n\n";
  md += "| op | element type | lane | cases | passed | new failures | known | unsupported |\n";
  md += "|---|---|---|---|---|---|---|---|\n";
  for (const Json& r : c["counts"]) {
    absl::StrAppend(&md, "| ", S(r["op"]), " | ", S(r["element_type"]), " | ", S(r["lane"]), " | ",
                    S(r["cases"]), " | ", S(r["passed"]), " | ", S(r["new_failures"]), " | ",
                    S(r["known_failures"]), " | ", S(r["unsupported"]), " |\n");
  }
  if (!c["known_failures"].empty()) {
    md += "\n## Known failures\n\n| case | verdict | reason |\n|---|---|---|\n";
    for (const Json& k : c["known_failures"]) {
      absl::StrAppend(&md, "| ", Md(S(k["case"])), " | ", S(k["verdict"]), " | ",
                      Md(S(k["reason"])), " |\n");
    }
  }
  md += "\n## Element types and rules per op\n\n";
  for (const Json& o : c["coverage"]) md += CoverageMarkdown(o);
  md +=
      "\nThe implementation-status matrix (op x element type x rank x lane) is in the JSON "
      "statement (`status_matrix`).\n";
  return md;
}

}  // namespace dmconf
