#include "harness/report/report_diff.h"

#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/report/html_assets.h"
#include "harness/report/report.h"

namespace dmconf {
namespace {

bool Fails(const CaseResult& c) { return c.failure || c.known != nullptr; }

using Key = std::tuple<std::string, std::string, int>;  // lane, id, occurrence

// The lane as the report writes it: "" for the kernel lane.
std::string LaneText(const CaseResult& c) {
  return IsShapeLane(c.lane) ? std::string(CaseLaneName(c.lane)) : std::string();
}

std::map<Key, const CaseResult*> ByKey(const BackendRun& backend) {
  std::map<Key, const CaseResult*> out;
  std::map<std::pair<std::string, std::string>, int> seen;
  for (const CaseResult& c : backend.results) {
    const std::string lane = LaneText(c);
    out[{lane, c.id, seen[{lane, c.id}]++}] = &c;
  }
  return out;
}

DiffEntry Entry(const std::string& backend, const CaseResult* o, const CaseResult* n) {
  const CaseResult& any = n != nullptr ? *n : *o;
  DiffEntry e;
  e.backend = backend;
  e.op = std::string(OpName(any.op));
  e.lane = LaneText(any);
  e.id = any.id;
  if (o != nullptr) e.old_verdict = std::string(VerdictName(o->verdict));
  if (n != nullptr) e.new_verdict = std::string(VerdictName(n->verdict));
  const CaseResult& d = n != nullptr && !(o != nullptr && Fails(*o) && !Fails(*n)) ? *n : *o;
  e.detail = d.detail;
  if (n != nullptr) e.repro = n->repro;
  return e;
}

void DiffBackend(const std::string& label, const BackendRun& ob, const BackendRun& nb,
                 ReportDiff& d) {
  const std::map<Key, const CaseResult*> olds = ByKey(ob), news = ByKey(nb);
  for (const auto& [key, n] : news) {
    const auto it = olds.find(key);
    const CaseResult* o = it == olds.end() ? nullptr : it->second;
    if (o == nullptr) {
      ++d.only_new;
      if (Fails(*n)) d.new_failures.push_back(Entry(label, nullptr, n));
      continue;
    }
    ++d.in_both;
    if (Fails(*n) && !Fails(*o)) {
      d.new_failures.push_back(Entry(label, o, n));
    } else if (Fails(*o) && !Fails(*n)) {
      d.fixed.push_back(Entry(label, o, n));
    } else if (o->verdict != n->verdict) {
      d.changed.push_back(Entry(label, o, n));
    }
  }
  for (const auto& [key, o] : olds) d.only_old += news.count(key) == 0;
}

struct Tally {
  int64_t new_failures = 0, fixed = 0, changed = 0;
};

std::map<std::pair<std::string, std::string>, Tally> ByBackendOp(const ReportDiff& d) {
  std::map<std::pair<std::string, std::string>, Tally> t;
  for (const DiffEntry& e : d.new_failures) ++t[{e.backend, e.op}].new_failures;
  for (const DiffEntry& e : d.fixed) ++t[{e.backend, e.op}].fixed;
  for (const DiffEntry& e : d.changed) ++t[{e.backend, e.op}].changed;
  return t;
}

std::string Verdicts(const DiffEntry& e) {
  return absl::StrCat(e.old_verdict.empty() ? "(not run)" : e.old_verdict, " -> ",
                      e.new_verdict.empty() ? "(not run)" : e.new_verdict);
}

}  // namespace

ReportDiff DiffReports(const RunReport& old_report, const RunReport& new_report) {
  ReportDiff d;
  const std::vector<BackendRun>& ob = old_report.backends;
  const std::vector<BackendRun>& nb = new_report.backends;
  if (ob.size() == 1 && nb.size() == 1) {
    const std::string& o = ob[0].backend;
    const std::string& n = nb[0].backend;
    DiffBackend(o == n ? n : absl::StrCat(o, " -> ", n), ob[0], nb[0], d);
    return d;
  }
  for (const BackendRun& n : nb) {
    const BackendRun* o = nullptr;
    for (const BackendRun& c : ob) {
      if (c.backend == n.backend) o = &c;
    }
    if (o == nullptr) {
      d.backends_only_new.push_back(n.backend);
      d.only_new += static_cast<int64_t>(n.results.size());
      continue;
    }
    DiffBackend(n.backend, *o, n, d);
  }
  for (const BackendRun& o : ob) {
    bool found = false;
    for (const BackendRun& n : nb) found |= n.backend == o.backend;
    if (!found) {
      d.backends_only_old.push_back(o.backend);
      d.only_old += static_cast<int64_t>(o.results.size());
    }
  }
  return d;
}

std::string DiffText(const ReportDiff& d) {
  std::string out =
      absl::StrFormat("%-34s %-20s %6s %6s %8s\n", "backend", "op", "new", "fixed", "changed");
  for (const auto& [k, t] : ByBackendOp(d)) {
    absl::StrAppendFormat(&out, "%-34s %-20s %6d %6d %8d\n", k.first, k.second, t.new_failures,
                          t.fixed, t.changed);
  }
  const std::pair<const char*, const std::vector<DiffEntry>*> lists[] = {
      {"new failure", &d.new_failures}, {"fixed", &d.fixed}, {"changed", &d.changed}};
  for (const auto& [title, list] : lists) {
    for (const DiffEntry& e : *list) {
      absl::StrAppend(&out, title, ": ", e.backend, " ", e.op, e.lane.empty() ? "" : " ", e.lane,
                      " ", e.id, ": ", Verdicts(e), e.detail.empty() ? "" : ": ", e.detail, "\n");
      if (!e.repro.empty() && list == &d.new_failures)
        absl::StrAppend(&out, "  repro: ", e.repro, "\n");
    }
  }
  for (const std::string& b : d.backends_only_old)
    absl::StrAppend(&out, "only in OLD: backend ", b, "\n");
  for (const std::string& b : d.backends_only_new)
    absl::StrAppend(&out, "only in NEW: backend ", b, "\n");
  absl::StrAppend(&out, d.new_failures.empty() ? "OK: " : "REGRESSED: ", d.new_failures.size(),
                  " new failure(s), ", d.fixed.size(), " fixed, ", d.changed.size(),
                  " other verdict change(s); ", d.in_both, " cases in both, ", d.only_old,
                  " only in OLD, ", d.only_new, " only in NEW\n");
  return out;
}

std::string DiffHtml(const ReportDiff& d, const std::string& old_file,
                     const std::string& new_file) {
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\">\n<title>dmconf report diff</title>\n<style>\n",
      html::kReportCss, "</style>\n</head>\n<body>\n<h1>dmconf report diff</h1>\n<p>OLD: <code>",
      MarkupEscape(old_file), "</code><br>NEW: <code>", MarkupEscape(new_file),
      "</code></p>\n<p><span class=\"banner ", d.new_failures.empty() ? "good" : "bad",
      "\" id=\"verdict\">",
      d.new_failures.empty() ? "No new failure"
                             : absl::StrCat(d.new_failures.size(), " new failure(s)"),
      "</span></p>\n<p>", d.fixed.size(), " fixed, ", d.changed.size(),
      " other verdict change(s); ", d.in_both, " cases in both, ", d.only_old, " only in OLD, ",
      d.only_new,
      " only in NEW.</p>\n<h2>Per backend and op</h2>\n<table id=\"tally\">\n"
      "<tr><th>backend</th><th>op</th><th>new failures</th><th>fixed</th><th>changed</th></tr>\n");
  for (const auto& [k, t] : ByBackendOp(d)) {
    absl::StrAppend(&out, "<tr><td>", MarkupEscape(k.first), "</td><td>", MarkupEscape(k.second),
                    "</td><td class=\"n", t.new_failures ? " fail" : "", "\">", t.new_failures,
                    "</td><td class=\"n", t.fixed ? " ok" : "", "\">", t.fixed,
                    "</td><td class=\"n\">", t.changed, "</td></tr>\n");
  }
  absl::StrAppend(&out, "</table>\n");
  const std::tuple<const char*, const char*, const std::vector<DiffEntry>*> lists[] = {
      {"new-failures", "New failures", &d.new_failures},
      {"fixed", "Fixed failures", &d.fixed},
      {"changed", "Other changed verdicts", &d.changed}};
  for (const auto& [id, title, list] : lists) {
    absl::StrAppend(&out, "<h2>", title, " (", list->size(), ")</h2>\n<table id=\"", id,
                    "\">\n<tr><th>backend</th><th>op</th><th>case</th><th>OLD -&gt; NEW</th>"
                    "<th>detail</th></tr>\n");
    for (const DiffEntry& e : *list) {
      absl::StrAppend(&out, "<tr class=\"entry\"><td>", MarkupEscape(e.backend), "</td><td>",
                      MarkupEscape(e.op), e.lane.empty() ? "" : " (", MarkupEscape(e.lane),
                      e.lane.empty() ? "" : ")", "</td><td><code>", MarkupEscape(e.id),
                      "</code></td><td>", MarkupEscape(Verdicts(e)), "</td><td>",
                      MarkupEscape(e.detail), e.repro.empty() ? "" : "<br><code>",
                      MarkupEscape(e.repro), e.repro.empty() ? "" : "</code>", "</td></tr>\n");
    }
    absl::StrAppend(&out, "</table>\n");
  }
  for (const std::string& b : d.backends_only_old) {
    absl::StrAppend(&out, "<p>Only in OLD: backend <code>", MarkupEscape(b), "</code></p>\n");
  }
  for (const std::string& b : d.backends_only_new) {
    absl::StrAppend(&out, "<p>Only in NEW: backend <code>", MarkupEscape(b), "</code></p>\n");
  }
  absl::StrAppend(&out, "</body>\n</html>\n");
  return out;
}

}  // namespace dmconf
