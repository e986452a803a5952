#include "harness/report/report_diff.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/base/shown_text.h"
#include "harness/report/html_assets.h"
#include "harness/report/report.h"
#include "harness/report/report_stream.h"

namespace dmconf {
namespace {

// The lane as the report writes it: "" for the kernel lane.
std::string LaneText(const CaseResult& c) {
  return IsShapeLane(c.lane) ? std::string(CaseLaneName(c.lane)) : std::string();
}

// One case of a report, compactly: a hash of (lane, id, occurrence), where it is, its verdict.
struct Rec {
  uint64_t key = 0;
  uint32_t index = 0;    // in backends[backend].cases
  uint16_t backend = 0;  // in the report
  uint8_t verdict = 0;
  uint8_t fails = 0;  // failure or known: a failing case of its run
};
static_assert(sizeof(Rec) == 16);

bool ByBackendKey(const Rec& a, const Rec& b) {
  return std::tie(a.backend, a.key, a.index) < std::tie(b.backend, b.key, b.index);
}

struct Side {
  std::string path;
  RunReport head;              // without cases
  std::vector<Rec> recs;       // sorted by (backend, key)
  std::vector<int64_t> cases;  // per backend
};

// An id a run holds twice is matched occurrence by occurrence: the second one's key hashes
// its occurrence in. `recs` are sorted by ByBackendKey, and are again after.
void KeyOccurrences(std::vector<Rec>& recs) {
  uint64_t prev = 0;
  size_t occ = 0, repeated = 0;
  for (size_t i = 0; i < recs.size(); ++i) {
    Rec& r = recs[i];
    const bool same = i > 0 && recs[i - 1].backend == r.backend && prev == r.key;
    prev = r.key;
    occ = same ? occ + 1 : 0;
    if (occ > 0) {
      r.key = absl::HashOf(r.key, occ);
      ++repeated;
    }
  }
  if (repeated > 0) std::sort(recs.begin(), recs.end(), ByBackendKey);
}

// A report read one case at a time: its head and a record of each case.
absl::StatusOr<Side> ReadSide(const std::string& path) {
  Side side;
  side.path = path;
  bool too_many = false;
  absl::StatusOr<RunReport> head = StreamReport(path, [&](size_t b, size_t k, const CaseResult& c) {
    too_many |= b > UINT16_MAX || k > UINT32_MAX;
    if (too_many) return;
    side.recs.push_back({absl::HashOf(LaneText(c), absl::string_view(c.id)),
                         static_cast<uint32_t>(k), static_cast<uint16_t>(b),
                         static_cast<uint8_t>(c.verdict),
                         static_cast<uint8_t>(c.failure || c.known != nullptr)});
  });
  if (!head.ok()) return head.status();
  if (too_many) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "report.too_large: ", path, ": more than 65536 backends, or 2^32 cases in one"));
  }
  side.head = *std::move(head);
  side.cases.assign(side.head.backends.size(), 0);
  for (const Rec& r : side.recs) ++side.cases[r.backend];
  std::sort(side.recs.begin(), side.recs.end(), ByBackendKey);
  KeyOccurrences(side.recs);
  return side;
}

enum class Kind { kNewFailure, kFixed, kChanged };

// An entry found by the records, its text read afterwards.
struct Pending {
  size_t pair = 0;  // the backend pair, in NEW's order
  Kind kind = Kind::kChanged;
  Rec n;                 // NEW's case
  std::optional<Rec> o;  // OLD's, when it has the case
  DiffEntry entry;
};

// The cases of backend `b` among `recs`.
std::pair<const Rec*, const Rec*> Range(const std::vector<Rec>& recs, size_t b) {
  const auto lo = std::lower_bound(recs.begin(), recs.end(), b,
                                   [](const Rec& r, size_t v) { return r.backend < v; });
  const auto hi = std::upper_bound(recs.begin(), recs.end(), b,
                                   [](size_t v, const Rec& r) { return v < r.backend; });
  return {recs.data() + (lo - recs.begin()), recs.data() + (hi - recs.begin())};
}

// One backend of NEW against one of OLD: the records joined on their keys (both sorted).
void JoinBackend(size_t pair, const Side& olds, size_t ob, const Side& news, size_t nb,
                 ReportDiff& d, std::vector<Pending>& out) {
  auto [o, oe] = Range(olds.recs, ob);
  auto [n, ne] = Range(news.recs, nb);
  while (n != ne || o != oe) {
    if (n == ne || (o != oe && o->key < n->key)) {
      ++d.only_old;
      ++o;
      continue;
    }
    if (o == oe || n->key < o->key) {
      ++d.only_new;
      if (n->fails) out.push_back({pair, Kind::kNewFailure, *n, std::nullopt, {}});
      ++n;
      continue;
    }
    ++d.in_both;
    if (n->fails && !o->fails) {
      out.push_back({pair, Kind::kNewFailure, *n, *o, {}});
    } else if (o->fails && !n->fails) {
      out.push_back({pair, Kind::kFixed, *n, *o, {}});
    } else if (o->verdict != n->verdict) {
      out.push_back({pair, Kind::kChanged, *n, *o, {}});
    }
    ++n;
    ++o;
  }
}

// The pairs of backends (NEW's index, OLD's) and their labels; what has no pair is counted.
std::vector<std::tuple<size_t, size_t, std::string>> PairBackends(const Side& olds,
                                                                  const Side& news, ReportDiff& d) {
  const std::vector<BackendRun>& ob = olds.head.backends;
  const std::vector<BackendRun>& nb = news.head.backends;
  if (ob.size() == 1 && nb.size() == 1) {
    const std::string& o = ob[0].backend;
    const std::string& n = nb[0].backend;
    return {{0, 0, o == n ? n : absl::StrCat(o, " -> ", n)}};
  }
  std::vector<std::tuple<size_t, size_t, std::string>> pairs;
  for (size_t i = 0; i < nb.size(); ++i) {
    std::optional<size_t> o;
    for (size_t j = 0; j < ob.size(); ++j) {
      if (ob[j].backend == nb[i].backend) o = j;
    }
    if (o.has_value()) {
      pairs.emplace_back(i, *o, nb[i].backend);
      continue;
    }
    d.backends_only_new.push_back(nb[i].backend);
    d.only_new += news.cases[i];
  }
  for (size_t j = 0; j < ob.size(); ++j) {
    bool found = false;
    for (const BackendRun& n : nb) found |= n.backend == ob[j].backend;
    if (!found) {
      d.backends_only_old.push_back(ob[j].backend);
      d.only_old += olds.cases[j];
    }
  }
  return pairs;
}

// The entries' text: NEW's case (and OLD's detail for a fixed one) read again.
absl::Status ReadEntries(const Side& olds, const Side& news, std::vector<Pending>& pending) {
  std::map<std::pair<size_t, size_t>, std::vector<Pending*>> at_new, at_old;
  for (Pending& p : pending) {
    at_new[{p.n.backend, p.n.index}].push_back(&p);
    if (p.kind == Kind::kFixed) at_old[{p.o->backend, p.o->index}].push_back(&p);
  }
  absl::StatusOr<RunReport> again =
      StreamReport(news.path, [&](size_t b, size_t k, const CaseResult& c) {
        const auto it = at_new.find({b, k});
        if (it == at_new.end()) return;
        for (Pending* p : it->second) {
          DiffEntry& e = p->entry;
          e.op = std::string(OpName(c.op));
          e.lane = LaneText(c);
          e.id = c.id;
          e.new_verdict = std::string(VerdictName(c.verdict));
          if (p->o.has_value()) {
            e.old_verdict = std::string(VerdictName(static_cast<Verdict>(p->o->verdict)));
          }
          if (p->kind != Kind::kFixed) e.detail = c.detail;
          e.repro = c.repro;
        }
      });
  if (!again.ok()) return again.status();
  if (at_old.empty()) return absl::OkStatus();
  again = StreamReport(olds.path, [&](size_t b, size_t k, const CaseResult& c) {
    const auto it = at_old.find({b, k});
    if (it == at_old.end()) return;
    for (Pending* p : it->second) p->entry.detail = c.detail;
  });
  return again.status();
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

absl::StatusOr<ReportDiff> DiffReportFiles(const std::string& old_path,
                                           const std::string& new_path) {
  absl::StatusOr<Side> olds = ReadSide(old_path);
  if (!olds.ok()) return olds.status();
  absl::StatusOr<Side> news = ReadSide(new_path);
  if (!news.ok()) return news.status();
  ReportDiff d;
  const auto pairs = PairBackends(*olds, *news, d);
  std::vector<Pending> pending;
  for (size_t i = 0; i < pairs.size(); ++i) {
    JoinBackend(i, *olds, std::get<1>(pairs[i]), *news, std::get<0>(pairs[i]), d, pending);
  }
  std::vector<Rec>().swap(olds->recs);
  std::vector<Rec>().swap(news->recs);
  if (absl::Status s = ReadEntries(*olds, *news, pending); !s.ok()) return s;
  // Per pair, in the order of (lane, id, occurrence) as the whole-document diff listed them.
  std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
    return std::tie(a.pair, a.entry.lane, a.entry.id, a.n.index) <
           std::tie(b.pair, b.entry.lane, b.entry.id, b.n.index);
  });
  for (Pending& p : pending) {
    p.entry.backend = std::get<2>(pairs[p.pair]);
    (p.kind == Kind::kNewFailure ? d.new_failures
     : p.kind == Kind::kFixed    ? d.fixed
                                 : d.changed)
        .push_back(std::move(p.entry));
  }
  return d;
}

std::string DiffText(const ReportDiff& d) {
  std::string out =
      absl::StrFormat("%-34s %-20s %6s %6s %8s\n", "backend", "op", "new", "fixed", "changed");
  for (const auto& [k, t] : ByBackendOp(d)) {
    // Texts from the reports are OneLine'd: this is text of several lines (shown_text.h).
    absl::StrAppendFormat(&out, "%-34s %-20s %6d %6d %8d\n", OneLine(k.first), OneLine(k.second),
                          t.new_failures, t.fixed, t.changed);
  }
  const std::pair<const char*, const std::vector<DiffEntry>*> lists[] = {
      {"new failure", &d.new_failures}, {"fixed", &d.fixed}, {"changed", &d.changed}};
  for (const auto& [title, list] : lists) {
    for (const DiffEntry& e : *list) {
      absl::StrAppend(&out, title, ": ", OneLine(e.backend), " ", OneLine(e.op),
                      e.lane.empty() ? "" : " ", OneLine(e.lane), " ", OneLine(e.id), ": ",
                      OneLine(Verdicts(e)), e.detail.empty() ? "" : ": ", OneLine(e.detail), "\n");
      if (!e.repro.empty() && list == &d.new_failures)
        absl::StrAppend(&out, "  repro: ", OneLine(e.repro), "\n");
    }
  }
  for (const std::string& b : d.backends_only_old)
    absl::StrAppend(&out, "only in OLD: backend ", OneLine(b), "\n");
  for (const std::string& b : d.backends_only_new)
    absl::StrAppend(&out, "only in NEW: backend ", OneLine(b), "\n");
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
