#include "harness/suites/shape_set.h"

#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/gen/partial.h"
#include "harness/io/shape_case_file.h"
#include "harness/io/shape_case_verify.h"

namespace dmconf {
namespace {

namespace fs = std::filesystem;

// Indices scanned per kind (static, partial) when filling the quotas.
constexpr uint64_t kScanLimit = 3000;

// A dim bound, attribute or constant value at or above 2^62: the overflow lane's territory.
bool HasHugeValue(const PartialCase& c) {
  constexpr int64_t kHuge = int64_t{1} << 62;
  auto huge_shape = [](const PartialShape& p) {
    if (!p.dims) return false;
    for (const Dim& d : *p.dims) {
      if (d.lo >= kHuge || (d.hi && *d.hi >= kHuge)) return true;
    }
    return false;
  };
  if (huge_shape(c.data) || (c.block_size && *c.block_size >= kHuge)) return true;
  for (const std::vector<int64_t>* v : {&c.sizes, &c.strides, &c.rates}) {
    for (int64_t x : *v) {
      if (x >= kHuge) return true;
    }
  }
  for (const std::optional<Tensor>& t : c.int_inputs) {
    if (!t || !IsIntegerType(t->type) || !t->Validate("constant").ok()) continue;
    for (int64_t i = 0; i < t->NumElements(); ++i) {
      const std::optional<int64_t> v = t->GetInteger(i);  // nullopt: a u64 above 2^63-1
      if (!v || *v >= kHuge || *v <= -kHuge) return true;
    }
  }
  return false;
}

bool HasNonConstantInput(const PartialCase& c) {
  if (c.op != Op::kSpaceToBatch && c.op != Op::kBatchToSpace) return false;
  for (const std::optional<Tensor>& t : c.int_inputs) {
    if (!t) return true;
  }
  return false;
}

// The classes of a case (its MANIFEST coverage) and the quota buckets it may fill, most
// specific first.
struct Classified {
  std::vector<std::string> classes;
  std::vector<std::string> buckets;
};

Classified Classify(const ShapeCase& s, const PartialResult& r, bool partial) {
  Classified out;
  const std::string kind(PartialKindName(r.kind));
  const std::string op(OpPrefix(s.c.op));
  const std::string lane = partial ? "partial" : "static";
  out.classes = {absl::StrCat("op:", OpName(s.c.op)), absl::StrCat("shape:", lane),
                 absl::StrCat("expect:", kind)};
  if (r.rule != nullptr) out.classes.push_back(absl::StrCat("rule:", r.rule->id));
  const bool huge = HasHugeValue(s.c);
  const bool rank_unknown = !s.c.data.dims.has_value();
  const bool non_constant = HasNonConstantInput(s.c);
  if (huge) out.classes.push_back("huge_dims");
  if (rank_unknown) out.classes.push_back("rank_unknown");
  if (non_constant) out.classes.push_back("non_constant_input");
  if (partial) {
    if (huge) out.buckets.push_back("partial/huge");
    if (rank_unknown) out.buckets.push_back("partial/rank_unknown");
    if (non_constant) out.buckets.push_back(absl::StrCat("partial/", op, "/non_constant"));
  } else if (huge) {
    // Both an accepted case near 2^63 (when the sweep has one) and a refused one.
    out.buckets.push_back(
        absl::StrCat("static/", op, "/huge/", r.kind == PartialKind::kShape ? "shape" : "other"));
  }
  out.buckets.push_back(absl::StrCat(lane, "/", op, "/", kind));
  return out;
}

// How many files each bucket takes (Classify names them). About 40 files in all: per op one
// static case of each answer kind, one accepted and one refused near 2^63, one partial case of
// each kind, two with non-constant block inputs; two partial cases near 2^63, three of unknown
// rank.
int Quota(absl::string_view bucket) {
  if (bucket == "partial/huge") return 2;
  if (bucket == "partial/rank_unknown") return 3;
  if (absl::EndsWith(bucket, "/non_constant")) return 2;
  return 1;
}

}  // namespace

absl::StatusOr<ShapeSet> BuildShapeSet(uint64_t seed) {
  std::map<std::string, int> used;
  std::map<std::string, std::pair<io::ShapeCaseFile, std::vector<std::string>>> picked;  // by id
  for (bool partial : {false, true}) {
    for (uint64_t index = 0; index < kScanLimit; ++index) {
      ShapeCase s = SeededShapeCase(seed, index, partial);
      io::ShapeCaseFile f;
      f.id = s.id;
      f.origin = s.origin;
      f.c = std::move(s.c);
      if (!io::FillShapeExpectation(f).ok()) continue;  // a malformed case: not golden
      s.c = f.c;
      const Classified k = Classify(s, f.expected, partial);
      for (const std::string& b : k.buckets) {
        if (used[b] >= Quota(b)) continue;
        ++used[b];
        const std::string id = f.id;
        picked.emplace(id, std::pair{std::move(f), k.classes});
        break;
      }
    }
  }
  ShapeSet out;
  std::vector<io::ManifestEntry> entries;
  for (auto& [id, p] : picked) {
    const std::string bytes = io::SerializeShapeCase(p.first);
    // Every golden file must read back as written.
    absl::StatusOr<io::ShapeCaseFile> back = io::ParseShapeCase(bytes, id);
    if (!back.ok()) return back.status();
    out.files.push_back({id + ".json", bytes});
    entries.push_back({id + ".json", bytes, p.second});
  }
  out.cases = out.files.size();
  io::ManifestInfo info{std::string(kShapeGenerator), "shapes", seed, "", {}, {}};
  out.files.push_back({io::kManifestName, io::ManifestText(info, std::move(entries))});
  return out;
}

// WriteSet removes the files an earlier MANIFEST.json listed: a folder whose manifest another
// generator wrote (vectors/golden) must not be written over.
absl::Status RefuseForeignShapeSet(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(fs::path(dir) / io::kManifestName, ec)) return absl::OkStatus();
  absl::StatusOr<io::ManifestFile> m = io::ReadManifest(dir);
  if (!m.ok()) return m.status();
  if (m->info.generator == kShapeGenerator) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "shape_case.set.foreign: ", dir, ": its ", io::kManifestName, " was written by '",
      m->info.generator, "', not by ", kShapeGenerator, "; nothing written"));
}

// The set in dir (made by generate-shapes, its MANIFEST.json says with which seed) against a
// fresh generation: one line per missing, extra or different file, or why it cannot be made.
std::vector<std::string> CompareShapeSetWithRegenerated(const std::string& dir) {
  absl::StatusOr<io::ManifestFile> m = io::ReadManifest(dir);
  if (!m.ok()) return {absl::StrCat("BAD ", dir, ": ", m.status().message())};
  if (m->info.generator != kShapeGenerator || !m->info.seed) {
    return {absl::StrCat("BAD shape_case.check.generator: ", dir, "/", io::kManifestName,
                         ": made by '", m->info.generator, "', not by ", kShapeGenerator,
                         " with a seed")};
  }
  absl::StatusOr<ShapeSet> want = BuildShapeSet(*m->info.seed);
  absl::StatusOr<std::vector<std::string>> diffs =
      want.ok() ? io::CompareSet(dir, want->files) : want.status();
  if (!diffs.ok()) return {absl::StrCat("BAD ", dir, ": ", diffs.status().message())};
  std::vector<std::string> out;
  for (const std::string& d : *diffs) out.push_back(absl::StrCat("STALE ", dir, ": ", d));
  return out;
}

}  // namespace dmconf
