#include "harness/runner/expectations_update.h"

#include <sys/stat.h>

#include <cerrno>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/base/shown_text.h"
#include "nlohmann/json.hpp"

namespace dmconf {
namespace {

// An entry as one line: its texts from the file OneLine'd (harness/base/shown_text.h).
std::string EntryText(const KnownFailure& k) {
  return absl::StrCat(
      k.backend.empty() ? "any backend" : OneLine(k.backend), ", case ", OneLine(k.case_pattern),
      k.rule_pattern.empty() ? "" : absl::StrCat(", rule ", OneLine(k.rule_pattern)), ", ",
      k.verdict.has_value() ? VerdictName(*k.verdict) : "any failing verdict", " (",
      OneLine(k.reason), ")");
}

// The file as it is (its text, parsed twice: as the entries the run would load and as JSON
// that keeps each entry's members and order as the user wrote them), or a new empty
// expectations file when there is none yet.
struct OnDisk {
  bool exists = false;
  std::string text;
  nlohmann::ordered_json json;
  std::vector<KnownFailure> entries;
};

absl::StatusOr<OnDisk> ReadOrNew(const std::string& path) {
  OnDisk d;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) {
    d.json = nlohmann::ordered_json{{"format", "dmconf-expectations/1"},
                                    {"known_failures", nlohmann::ordered_json::array()}};
    return d;
  }
  d.exists = true;
  absl::StatusOr<std::string> text = io::ReadFileToString(path, kMaxExpectationsFileBytes);
  if (!text.ok()) {
    return absl::Status(text.status().code(),
                        absl::StrCat("expectations.read: ", text.status().message()));
  }
  d.text = *std::move(text);
  // The run loaded (and so validated) this file before it started; it may have changed since.
  absl::StatusOr<Expectations> e = ParseExpectations(d.text, path);
  if (!e.ok()) {
    return absl::Status(e.status().code(),
                        absl::StrCat("expectations.update.changed: ", path,
                                     ": changed while the run went on and is no longer valid (",
                                     e.status().message(), "); the file is kept as it is"));
  }
  d.entries = std::move(e->known);
  d.json = nlohmann::ordered_json::parse(d.text, nullptr, false);
  if (!d.json.contains("known_failures"))
    d.json["known_failures"] = nlohmann::ordered_json::array();
  return d;
}

// What identifies an entry: its backend, case and rule patterns and its verdict.
using EntryKey = std::tuple<std::string, std::string, std::string, std::string>;
EntryKey KeyOf(const KnownFailure& k) {
  return {k.backend, k.case_pattern, k.rule_pattern,
          k.verdict.has_value() ? std::string(VerdictName(*k.verdict)) : std::string()};
}

// The JSON text of `j` laid out as `text` is: compact (one line) when its first member does
// not start a line of its own, else indented as that line is; a final newline kept. A new
// file: indented by 2.
std::string LaidOutAs(const nlohmann::ordered_json& j, const std::string& text, bool exists) {
  constexpr auto kReplace = nlohmann::ordered_json::error_handler_t::replace;
  if (!exists) return j.dump(2, ' ', false, kReplace) + "\n";
  const size_t open = text.find('{');
  const size_t first = text.find_first_not_of(" \t\r\n", open == std::string::npos ? 0 : open + 1);
  const size_t line = text.rfind('\n', first);
  const bool final_newline = !text.empty() && text.back() == '\n';
  if (open == std::string::npos || first == std::string::npos || line == std::string::npos ||
      line < open) {
    return j.dump(-1, ' ', false, kReplace) + (final_newline ? "\n" : "");
  }
  const std::string indent = text.substr(line + 1, first - line - 1);
  const char ch = !indent.empty() && indent[0] == '\t' ? '\t' : ' ';
  return j.dump(static_cast<int>(indent.size()), ch, false, kReplace) + (final_newline ? "\n" : "");
}

// Each entry the run loaded (file_entries) found again in the file as it is on disk now, by
// what it says, not where it stood: loaded_at[i] is the loaded entry of the disk's entry i.
// A file whose entries changed meanwhile (another writer, an editor) is kept as it is, never
// merged: expectations.update.changed.
absl::StatusOr<std::vector<const KnownFailure*>> MatchLoaded(
    const std::string& path, const OnDisk& disk,
    const std::vector<const KnownFailure*>& file_entries) {
  std::multimap<EntryKey, size_t> on_disk;
  for (size_t i = 0; i < disk.entries.size(); ++i) on_disk.emplace(KeyOf(disk.entries[i]), i);
  std::vector<const KnownFailure*> loaded_at(disk.entries.size(), nullptr);
  auto changed = [&path](const std::string& which, const KnownFailure& k, const char* what) {
    return absl::FailedPreconditionError(
        absl::StrCat("expectations.update.changed: ", path, ": the entry ", which, " (",
                     EntryText(k), ") ", what,
                     " while the run went on; the file is kept as it is, not updated (run again to "
                     "update it)"));
  };
  for (size_t j = 0; j < file_entries.size(); ++j) {
    const KnownFailure* k = file_entries[j];
    const auto found = on_disk.find(KeyOf(*k));
    if (found == on_disk.end()) {
      return changed(absl::StrCat("/known_failures/", j), *k, "changed or was removed");
    }
    loaded_at[found->second] = k;
    on_disk.erase(found);
  }
  for (size_t i = 0; i < loaded_at.size(); ++i) {
    if (loaded_at[i] == nullptr) {
      return changed(absl::StrCat("/known_failures/", i), disk.entries[i], "was added");
    }
  }
  return loaded_at;
}

}  // namespace

absl::StatusOr<ExpectationsChange> UpdateExpectationsFile(
    const std::string& path, const std::vector<const KnownFailure*>& file_entries,
    const std::vector<StaleExpectation>& stale, const std::vector<BackendRun>& runs,
    const std::set<std::string>& skip_backends) {
  absl::StatusOr<OnDisk> disk = ReadOrNew(path);
  if (!disk.ok()) return disk.status();
  absl::StatusOr<std::vector<const KnownFailure*>> matched = MatchLoaded(path, *disk, file_entries);
  if (!matched.ok()) return matched.status();
  const std::vector<const KnownFailure*>& loaded_at = *matched;
  nlohmann::ordered_json& list = disk->json["known_failures"];
  std::set<const KnownFailure*> stale_set;
  for (const StaleExpectation& s : stale) stale_set.insert(s.entry);
  ExpectationsChange change;
  // Matched, or idle (no case it names ran: StaleExpectations leaves it out): kept, and the
  // idle ones counted.
  const std::vector<bool> had = HadCases(loaded_at, runs);
  nlohmann::ordered_json kept = nlohmann::ordered_json::array();
  for (size_t i = 0; i < loaded_at.size(); ++i) {
    const KnownFailure& k = *loaded_at[i];
    if (!stale_set.count(&k)) {
      if (!had[i]) ++change.idle_kept;
      kept.push_back(list[i]);
    } else {
      change.removed.push_back(
          absl::StrCat("/known_failures/", i, ": ", EntryText(disk->entries[i])));
    }
  }
  std::set<std::tuple<std::string, std::string, Verdict>> seen;
  for (const BackendRun& r : runs) {
    if (skip_backends.count(r.backend)) continue;
    r.results.ForEachHeld([&](size_t, const CaseResult& c) {  // a failing result is held
      if (!c.failure) return;
      if (c.verdict == Verdict::kHarnessError) {
        ++change.harness_errors_not_added;
        return;
      }
      if (!seen.insert({r.backend, c.id, c.verdict}).second) return;
      nlohmann::ordered_json e{{"backend", r.backend}, {"case", c.id}};
      if (!c.rule.empty()) e["rule"] = c.rule;
      e["verdict"] = VerdictName(c.verdict);
      e["reason"] = kReasonPlaceholder;
      kept.push_back(std::move(e));
      change.added.push_back(absl::StrCat(OneLine(r.backend), ", case ", OneLine(c.id),
                                          c.rule.empty() ? "" : absl::StrCat(", rule ", c.rule),
                                          ", ", VerdictName(c.verdict)));
    });
  }
  list = std::move(kept);
  // A backend's name may hold bytes that are not UTF-8: U+FFFD, as in the report.
  const std::string text = LaidOutAs(disk->json, disk->text, disk->exists);
  if (absl::Status s = io::CreateParentDirectories(path); !s.ok()) return s;
  if (absl::Status s =
          io::WriteFileAtomically(path, text, {kMaxExpectationsFileBytes, "an expectations file"});
      !s.ok()) {
    return s;
  }
  return change;
}

std::string ExpectationsChangeText(const std::string& path, const ExpectationsChange& c) {
  std::string out;
  if (c.removed.empty() && c.added.empty()) {
    absl::StrAppend(&out, "expectations: ", OneLine(path),
                    " is up to date (nothing removed or added)\n");
  } else {
    absl::StrAppend(&out, "expectations: updated ", OneLine(path), ": removed ", c.removed.size(),
                    " stale entr", c.removed.size() == 1 ? "y" : "ies", ", added ", c.added.size(),
                    " new failure(s) as known", c.added.empty() ? "" : " (fill in their reasons)",
                    "\n");
  }
  for (const std::string& r : c.removed) absl::StrAppend(&out, "  - removed ", r, "\n");
  for (const std::string& a : c.added) absl::StrAppend(&out, "  + added ", a, "\n");
  if (c.idle_kept > 0) {
    absl::StrAppend(&out, "  ", c.idle_kept, " idle entr", c.idle_kept == 1 ? "y" : "ies",
                    " kept: no case it names ran (another op, type or backend)\n");
  }
  if (c.harness_errors_not_added > 0) {
    absl::StrAppend(&out, "  ", c.harness_errors_not_added,
                    " harness_error case(s) not added: they are dmconf's own faults, never "
                    "a backend's known failure\n");
  }
  return out;
}

}  // namespace dmconf
