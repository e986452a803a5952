#include "harness/runner/vector_cases.h"

#include <sys/stat.h>

#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/base/files.h"
#include "harness/base/output_paths.h"
#include "harness/gen/case_ids.h"
#include "harness/io/shape_case_file.h"
#include "harness/io/shape_case_verify.h"
#include "harness/io/vector_file.h"
#include "harness/io/vector_verify.h"
#include "harness/runner/shard.h"

namespace dmconf {
namespace {

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IdChar(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
         ch == '.' || ch == '_' || ch == '-' || ch == '+';
}

FileError ContradictsOracle(const std::string& file, absl::string_view why) {
  return MakeFileError(file,
                       absl::FailedPreconditionError(absl::StrCat(
                           "vector.expectation.contradicts_oracle: ", file, ": ", why,
                           "; the file is wrong, not the backend: none of its cases was judged")));
}

// Reads one file into `out`: a case, a shape case, or a file error. A file whose expectation
// the oracle contradicts is a file error (vector.expectation.contradicts_oracle, with the
// oracle's answer), not a case: a backend is never judged against a wrong expectation.
void LoadOneFile(const std::string& f, LoadedVectors* out) {
  if (IsShapeCaseFile(f)) {
    absl::StatusOr<io::ShapeCaseFile> sc = io::ReadShapeCaseFile(f);
    if (!sc.ok()) {
      out->errors.push_back(MakeFileError(f, sc.status()));
      return;
    }
    if (absl::Status s = io::VerifyShapeCaseExpectation(*sc, f); !s.ok()) {
      // "shape_case.expected.stale: FILE: the file expects ..., the oracle now answers ...".
      absl::string_view why = s.message();
      const std::string head = absl::StrCat("shape_case.expected.stale: ", f, ": ");
      if (absl::StartsWith(why, head)) why.remove_prefix(head.size());
      out->errors.push_back(
          ContradictsOracle(f, absl::StartsWith(s.message(), "shape_case.expected.stale: ")
                                   ? std::string(why)
                                   : absl::StrCat("the oracle refuses the case: ", why)));
      return;
    }
    PreparedShapeCase p;
    p.s.id = sc->id;
    p.s.origin = sc->origin;
    p.s.c = std::move(sc->c);
    p.expectation = std::move(sc->expected);
    p.source_file = f;
    out->shape_cases.push_back(std::move(p));
    return;
  }
  absl::StatusOr<io::VectorCase> v = io::ReadVectorFile(f);
  if (!v.ok()) {
    out->errors.push_back(MakeFileError(f, v.status()));
    return;
  }
  if (std::optional<std::string> why = io::OracleMismatch(*v)) {
    out->errors.push_back(ContradictsOracle(f, *why));
    return;
  }
  PreparedCase p;
  p.c = std::move(v->c);
  p.expectation = std::move(v->expected);
  p.source_file = f;
  out->cases.push_back(std::move(p));
}

}  // namespace

bool IsShapeCaseFile(const std::string& path) {
  // Not a std::ifstream: that would open a FIFO and wait for a writer. A file that cannot be
  // read is no shape case; the vector reader then names why (io.read: ... is a FIFO).
  absl::StatusOr<std::string> head = io::ReadFileHead(path, 4096);
  return head.ok() && io::LooksLikeShapeCase(*head);
}

FileError MakeFileError(const std::string& file, const absl::Status& status) {
  FileError e;
  e.file = Printable(file);
  e.message = Printable(status.message());
  // Messages start with their rule id: "vector.field.type: file at /c/op: ...".
  const size_t colon = e.message.find(": ");
  const std::string head = e.message.substr(0, colon);
  const bool rule_like =
      colon != std::string::npos && !head.empty() &&
      head.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789._") == std::string::npos;
  e.rule = rule_like ? head : "io.read";
  return e;
}

absl::StatusOr<LoadedVectors> LoadVectorCases(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    if (IsDirectory(path)) {
      absl::StatusOr<std::vector<std::string>> listed = io::ListVectorFiles(path);
      if (!listed.ok()) return listed.status();
      files.insert(files.end(), listed->begin(), listed->end());
    } else {
      struct stat st;
      if (stat(path.c_str(), &st) != 0) {
        return absl::NotFoundError(absl::StrCat("io.read: ", Printable(path), ": no such file"));
      }
      files.push_back(path);
    }
  }
  if (absl::Status distinct = io::CheckInputsDistinct(files); !distinct.ok()) return distinct;
  LoadedVectors out;
  out.cases.reserve(files.size());
  for (const std::string& f : files) LoadOneFile(f, &out);
  return out;
}

std::string VectorIdFor(absl::string_view case_id) {
  std::string out;
  for (char ch : case_id) {
    if (ch == '/') {
      out += "__";
    } else {
      out += IdChar(ch) ? ch : '_';
    }
  }
  if (out.empty() || out[0] == '.') out.insert(0, "case");
  if (out.size() > 200) {
    out = absl::StrCat(out.substr(0, 183), "+", absl::StrFormat("%016x", CaseIdHash(case_id)));
  }
  return out;
}

absl::StatusOr<io::ShapeCaseFile> FailingShapeCaseFile(const std::string& backend,
                                                       const PreparedShapeCase& p,
                                                       absl::string_view verdict,
                                                       absl::string_view detail) {
  io::ShapeCaseFile f;
  f.id = VectorIdFor(p.s.id);
  f.origin =
      p.source_file.empty() ? p.s.origin : absl::StrCat(p.s.origin, ", from ", p.source_file);
  f.c = p.s.c;
  f.backend = backend;
  f.verdict = std::string(verdict);
  f.detail = std::string(detail.substr(0, 2000));
  if (absl::Status s = io::FillShapeExpectation(f); !s.ok()) {
    return absl::Status(s.code(),
                        absl::StrCat("failing shape case ", p.s.id, " not saved: ", s.message()));
  }
  return f;
}

namespace {

// A shape-case file written as <dir>/<backend>/<f.id>.json; `what` names it in errors
// ("failing shape case <id>").
absl::StatusOr<std::string> WriteShapeCaseUnder(const std::string& dir, const std::string& backend,
                                                const io::ShapeCaseFile& f,
                                                const std::string& what) {
  const std::string sub = absl::StrCat(dir, "/", VectorIdFor(backend));
  if (absl::Status s = io::CreateDirectories(sub); !s.ok()) return s;
  const std::string path = absl::StrCat(sub, "/", f.id, ".json");
  if (absl::Status s = io::WriteShapeCaseFile(path, f); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(what, " not saved: ", s.message()));
  }
  return path;
}

}  // namespace

absl::StatusOr<std::string> SaveFailingShapeCase(const std::string& dir, const std::string& backend,
                                                 const PreparedShapeCase& p,
                                                 absl::string_view verdict,
                                                 absl::string_view detail) {
  absl::StatusOr<io::ShapeCaseFile> f = FailingShapeCaseFile(backend, p, verdict, detail);
  if (!f.ok()) return f.status();
  return WriteShapeCaseUnder(dir, backend, *f, absl::StrCat("failing shape case ", p.s.id));
}

absl::StatusOr<std::string> SaveWitnessCase(const std::string& dir, const std::string& backend,
                                            const PreparedShapeCase& p, const CaseResult& r) {
  const std::string what = absl::StrCat("witness of shape case ", p.s.id);
  if (!r.witness.has_value() || !r.witness->c.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat(what, " not saved: the result has none"));
  }
  io::ShapeCaseFile f;
  f.id = absl::StrCat(VectorIdFor(p.s.id), ".witness");
  std::string origin = absl::StrCat("witness of ", VerdictName(r.verdict), " for case ", p.s.id,
                                    " of backend ", backend, ": ", r.detail);
  if (origin.size() > 2000) origin = absl::StrCat(origin.substr(0, 2000), " ...");
  f.origin = std::move(origin);
  f.c = *r.witness->c;
  if (absl::Status s = io::FillShapeExpectation(f); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(what, " not saved: ", s.message()));
  }
  return WriteShapeCaseUnder(dir, backend, f, what);
}

absl::StatusOr<io::VectorCase> FailingCaseVector(const std::string& backend, const PreparedCase& p,
                                                 absl::string_view verdict,
                                                 absl::string_view detail) {
  OpCase c = p.c;
  c.id = VectorIdFor(p.c.id);
  io::Provenance prov;
  prov.kind = "regression";
  prov.found_by = absl::StrCat("backend:", backend);
  // A generated case's seed and index, as its id ends in them: what replays it.
  if (std::optional<SeedAndIndex> si = SeedAndIndexOf(p.c.id)) {
    prov.seed = si->seed;
    prov.index = si->index;
  }
  // A shrunk case says what it was shrunk from and which verdict it kept (harness/shrink).
  const bool shrunk = absl::StartsWith(p.c.origin, "shrunk from ");
  std::string note = absl::StrCat(verdict, " (case ", p.c.id,
                                  p.source_file.empty() ? "" : ", from " + p.source_file,
                                  shrunk ? "; " + p.c.origin : "", "): ", detail);
  if (note.size() > 2000) note = absl::StrCat(note.substr(0, 2000), " ...");
  prov.note = std::move(note);
  absl::StatusOr<io::VectorCase> v = io::VectorCaseFromOracle(std::move(c), prov, {});
  if (!v.ok()) {
    return absl::Status(v.status().code(), absl::StrCat("failing case ", p.c.id,
                                                        " not saved: ", v.status().message()));
  }
  return v;
}

absl::StatusOr<std::string> SaveFailingCase(const std::string& dir, const std::string& backend,
                                            const PreparedCase& p, absl::string_view verdict,
                                            absl::string_view detail) {
  absl::StatusOr<io::VectorCase> v = FailingCaseVector(backend, p, verdict, detail);
  if (!v.ok()) return v.status();
  const std::string id = v->c.id;
  const std::string sub = absl::StrCat(dir, "/", VectorIdFor(backend));
  absl::Status s = io::CreateDirectories(sub);
  if (!s.ok()) return s;
  const std::string path = absl::StrCat(sub, "/", id, ".json");
  s = io::WriteVectorFile(path, *v);
  if (!s.ok()) {
    return absl::Status(s.code(),
                        absl::StrCat("failing case ", p.c.id, " not saved: ", s.message()));
  }
  return path;
}

}  // namespace dmconf
