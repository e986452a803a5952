// The catalogue, the runner, expectation files, reports and atomic writes.
#include "harness/runner/runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "harness/backends/registry/registry.h"
#include "harness/gen/case_ids.h"
#include "harness/gen/generate.h"
#include "harness/report/report.h"
#include "harness/report/summary_text.h"
#include "harness/runner/case_tally.h"
#include "harness/runner/expectations.h"
#include "harness/runner/vector_cases.h"
#include "harness/suites/catalogue.h"
#include "harness/suites/curated.h"
#include "harness/suites/vector_sets.h"
#include "oracle/rules.h"

namespace dmconf {
namespace {

CatalogueOptions Cat(int sweep, std::vector<Op> ops = {}) {
  CatalogueOptions o;
  o.sweep_count = sweep;
  o.ops = std::move(ops);
  return o;
}

TEST(Catalogue, IdsAreUniqueStableAndEncodeParameters) {
  std::vector<OpCase> a = BuildCatalogue({});
  std::vector<OpCase> b = BuildCatalogue({});
  ASSERT_EQ(a.size(), b.size());
  std::set<std::string> ids;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].id, b[i].id);
    EXPECT_EQ(a[i].data, b[i].data) << a[i].id;
    EXPECT_TRUE(ids.insert(a[i].id).second) << "duplicate id " << a[i].id;
  }
  EXPECT_TRUE(ids.count("example/d2s.f32.5x28x2x3.b2.blocks_first.pos"));
  EXPECT_TRUE(ids.count("example/s2b.f32.2x6x10x3x3.B1x2x4x3x1.pb0x0x1x0x0.pe0x0x1x0x0.i64.pos"));
  EXPECT_TRUE(ids.count("example/eip.f32.64x3x10x10.k3x3.s5x5.r1x1.valid.pos"));
}

// The sweep's cases are kept without a set of ids (catalogue.cc Sweep): each id ends with
// `i<index>`, its own index, so none can repeat another; checked on a large hollow sweep made
// in threads, as `dmconf run` makes it.
TEST(Catalogue, SweepIdsAreUniqueAndEndWithTheirIndex) {
  CatalogueOptions o;
  o.seed = 11;
  o.sweep_count = 20000;
  o.hollow = true;
  o.threads = 2;
  std::vector<int64_t> hollow;
  const std::vector<OpCase> all = BuildCatalogue(o, &hollow);
  std::set<std::string> ids;
  size_t sweep = 0;
  for (size_t k = 0; k < all.size(); ++k) {
    EXPECT_TRUE(ids.insert(all[k].id).second) << "duplicate id " << all[k].id;
    if (all[k].id.rfind("sweep/", 0) != 0) continue;
    ++sweep;
    const std::string tail = all[k].id.substr(all[k].id.rfind('i') + 1);
    EXPECT_FALSE(tail.empty()) << all[k].id;
    EXPECT_EQ(tail.find_first_not_of("0123456789"), std::string::npos) << all[k].id;
    if (hollow[k] >= 0) {
      EXPECT_EQ(tail, std::to_string(hollow[k])) << all[k].id;
    }
  }
  EXPECT_GT(sweep, size_t{16000});
}

TEST(Catalogue, EveryRuleCaseBreaksItsRuleAndItsTwinIsValid) {
  std::set<std::string> covered;
  for (const OpCase& c : BuildCatalogue(Cat(0))) {
    if (c.id.rfind("rule/", 0) != 0) continue;
    const std::string rest = c.id.substr(5);
    const std::string rule = rest.substr(0, rest.find('/'));
    const bool neg = rest.find("/neg/") != std::string::npos;
    absl::StatusOr<Expectation> e = Evaluate(c);
    ASSERT_TRUE(e.ok()) << c.id << ": " << e.status();
    if (neg) {
      ASSERT_NE(e->rule, nullptr) << c.id;
      EXPECT_EQ(e->rule->id, rule) << c.id;
      covered.insert(rule);
    } else {
      EXPECT_EQ(e->kind, ExpectationKind::kValid) << c.id << ": " << e->message;
    }
  }
  // Every must_reject / unspecified rule has a negative case (the representability ones from
  // edition 2 on, which adds the rank-4 pairs with theirs).
  for (const Rule& r : AllRules()) {
    if (r.kind == RuleKind::kMalformed) continue;
    EXPECT_TRUE(covered.count(std::string(r.id))) << "no negative case for " << r.id;
  }
}

// A later edition only appends: edition 1's cases (a superseded profile's) come first in
// edition 2, in the same order, with the same ids and data, so their catalogue positions (which
// seed their widened shape cases) are the same too.
TEST(Catalogue, EditionTwoOnlyAppendsToEditionOne) {
  for (int sweep : {0, 300}) {
    CatalogueOptions one = Cat(sweep);
    one.edition = 1;
    const std::vector<OpCase> a = BuildCatalogue(one);
    CatalogueOptions two = Cat(sweep);
    two.edition = 2;
    const std::vector<OpCase> b = BuildCatalogue(two);
    ASSERT_GT(b.size(), a.size());
    for (size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k].id, b[k].id) << k;
      EXPECT_EQ(a[k].data, b[k].data) << a[k].id;
    }
    // What it appends: rule pairs, copy-tail cases and BatchToSpace / SpaceToBatch edges, all
    // 4-D.
    for (size_t k = a.size(); k < b.size(); ++k) {
      EXPECT_TRUE(absl::StartsWith(b[k].id, "rule/") || absl::StartsWith(b[k].id, "tail/") ||
                  absl::StartsWith(b[k].id, "edge/b2s.") || absl::StartsWith(b[k].id, "edge/s2b."))
          << b[k].id;
      EXPECT_EQ(b[k].data.shape.size(), 4u) << b[k].id;
    }
  }
}

// Edition 3 appends to edition 2 only "vector/" cases, and with them every golden vector's
// case (op, attributes, data and integer inputs, compared whole) is a case of the catalogue,
// under --ops X too: the golden vectors are a subset of `dmconf run`. None is held twice.
TEST(Catalogue, EditionThreeHoldsEveryGoldenVectorOnce) {
  CatalogueOptions two = Cat(400);
  two.edition = 2;
  const std::vector<OpCase> a = BuildCatalogue(two);
  const std::vector<OpCase> b = BuildCatalogue(Cat(400));
  ASSERT_GT(b.size(), a.size());
  for (size_t k = 0; k < a.size(); ++k) ASSERT_EQ(a[k].id, b[k].id) << k;
  for (size_t k = a.size(); k < b.size(); ++k) {
    EXPECT_TRUE(absl::StartsWith(b[k].id, "vector/")) << b[k].id;
  }
  absl::StatusOr<std::vector<io::VectorCase>> golden = io::BuildProfile("golden", io::kDefaultSeed);
  ASSERT_TRUE(golden.ok()) << golden.status();
  auto same = [](const OpCase& x, const OpCase& y) {
    return x.op == y.op && static_cast<const OpAttributes&>(x) == y && x.data == y.data &&
           x.int_inputs == y.int_inputs;
  };
  for (Op op : {Op::kSpaceToBatch, Op::kExtractImagePatches}) {
    const std::vector<OpCase> one_op = BuildCatalogue(Cat(400, {op}));
    for (const io::VectorCase& v : *golden) {
      if (v.c.op != op) continue;
      int held = 0;
      for (const OpCase& c : one_op) held += same(c, v.c) ? 1 : 0;
      EXPECT_GE(held, 1) << v.c.id << " is no case of run --ops " << OpPrefix(op);
    }
  }
  size_t vector_cases = 0;
  for (const io::VectorCase& v : *golden) {
    int held = 0, held_by_sweep = 0;
    bool as_vector = false;
    for (const OpCase& c : b) {
      if (!same(c, v.c)) continue;
      ++held;
      held_by_sweep += absl::StartsWith(c.id, "sweep/") ? 1 : 0;
      as_vector = as_vector || c.id == "vector/" + v.c.id;
    }
    EXPECT_GE(held, 1) << v.c.id << " is no case of the catalogue";
    // A vector/ case is one that no hand-made source holds. (A gen.* vector is drawn from the
    // sweep's driver at seed 1: the sweep of --seed 1 may hold it too, another seed's not.)
    if (as_vector) {
      EXPECT_EQ(held - held_by_sweep, 1) << v.c.id << " is held twice";
    }
    vector_cases += as_vector ? 1 : 0;
  }
  EXPECT_EQ(vector_cases, b.size() - a.size());
}

// RulePairs(4): for each rule that 4-D data can break, a 4-D negative that breaks that rule and
// no other beside its valid 4-D twin. By hand: no 4-D data breaks a data.rank rule
// (SpaceToBatch and BatchToSpace need rank >= 2, the depth ops rank >= 3, ExtractImagePatches
// rank 4); every other must_reject or unspecified rule has a pair.
TEST(Curated, RulePairsAtRankFourCoverEveryRuleFourDCanBreak) {
  std::set<std::string> paired;
  for (const RulePair& p : RulePairs(4)) {
    EXPECT_EQ(p.negative.data.shape.size(), 4u) << p.rule;
    EXPECT_EQ(p.twin.data.shape.size(), 4u) << p.rule;
    absl::StatusOr<Expectation> neg = Evaluate(p.negative);
    ASSERT_TRUE(neg.ok()) << p.rule << ": " << neg.status();
    ASSERT_NE(neg->rule, nullptr) << p.rule;
    EXPECT_EQ(neg->rule->id, p.rule);
    absl::StatusOr<Expectation> twin = Evaluate(p.twin);
    ASSERT_TRUE(twin.ok()) << p.rule << ": " << twin.status();
    EXPECT_EQ(twin->kind, ExpectationKind::kValid) << p.rule << ": " << twin->message;
    EXPECT_TRUE(paired.insert(p.rule).second) << "two pairs for " << p.rule;
  }
  for (const Rule& r : AllRules()) {
    if (r.kind == RuleKind::kMalformed) continue;
    EXPECT_EQ(paired.count(std::string(r.id)), absl::EndsWith(r.id, ".data.rank") ? 0u : 1u)
        << r.id;
  }
}

// A backend that reads a negative pad as 0 accepts the 4-D negative pad cases: they divide
// either way, so only the sign check refuses them.
TEST(Curated, FourDNegativePadsDivideEitherWay) {
  for (const RulePair& p : RulePairs(4)) {
    if (p.rule != "s2b.pads_begin.nonnegative" && p.rule != "s2b.pads_end.nonnegative") continue;
    OpCase clamped = p.negative;
    for (size_t k = 1; k < 3; ++k) {
      Tensor& t = clamped.int_inputs[k];
      for (int64_t i = 0; i < t.shape[0]; ++i) {
        if (static_cast<int64_t>(t.GetBits(i)) < 0) t.SetBits(i, 0);
      }
    }
    absl::StatusOr<Expectation> e = Evaluate(clamped);
    ASSERT_TRUE(e.ok()) << p.rule;
    EXPECT_EQ(e->kind, ExpectationKind::kValid) << p.rule << ": " << e->message;
  }
}

// The spec examples and rule pairs are harness/gen's curated list (the golden vectors take the
// same list): each is in the catalogue under its parameter id, with the same data.
TEST(Catalogue, CuratedCasesAreTheSharedList) {
  std::map<std::string, OpCase> by_id;
  for (OpCase& c : BuildCatalogue(Cat(0))) by_id.emplace(c.id, std::move(c));
  auto expect_in = [&](const std::string& id, const OpCase& want) {
    auto it = by_id.find(id);
    ASSERT_NE(it, by_id.end()) << id;
    EXPECT_EQ(it->second.data, want.data) << id;
    EXPECT_EQ(it->second.int_inputs, want.int_inputs) << id;
  };
  for (const SpecExample& e : SpecExamples()) {
    expect_in(absl::StrCat("example/", ParamId(e.c), ".pos"), e.c);
  }
  for (const RulePair& p : RulePairs()) {
    if (absl::EndsWith(p.rule, ".output.representable")) continue;
    expect_in(absl::StrCat("rule/", p.rule, "/neg/", ParamId(p.negative), ".pos"), p.negative);
    expect_in(absl::StrCat("rule/", p.rule, "/twin/", ParamId(p.twin), ".pos"), p.twin);
  }
  // Two spelled-out ids (the parameter encoding itself).
  EXPECT_TRUE(by_id.count("rule/s2b.block_shape.divides/neg/s2b.f32.1x3.B1x2.pb0x0.pe0x0.i64.pos"));
  EXPECT_TRUE(by_id.count("example/eip.f32.1x1x10x10.k4x4.s9x9.r1x1.same_upper.pos"));
}

TEST(Catalogue, SweepLanesHaveTheirExpectationsAndFilters) {
  CatalogueOptions o;
  o.sweep_count = 300;
  o.ops = {Op::kSpaceToBatch, Op::kExtractImagePatches};
  o.types = {ElementType::kU4, ElementType::kF16};
  std::map<std::string, int> lanes;
  for (const OpCase& c : BuildCatalogue(o)) {
    EXPECT_TRUE(c.op == Op::kSpaceToBatch || c.op == Op::kExtractImagePatches) << c.id;
    EXPECT_TRUE(c.data.type == ElementType::kU4 || c.data.type == ElementType::kF16) << c.id;
    if (c.id.rfind("sweep/", 0) != 0) continue;
    const std::string lane = c.id.substr(6, c.id.find('/', 6) - 6);
    ++lanes[lane];
    // Every sweep case has an expectation (no malformed case reaches a backend).
    absl::StatusOr<Expectation> e = Evaluate(c);
    ASSERT_TRUE(e.ok()) << c.id << ": " << e.status();
    if (lane == "valid") {
      EXPECT_EQ(e->kind, ExpectationKind::kValid) << c.id;
    } else if (lane == "negative") {
      EXPECT_NE(e->kind, ExpectationKind::kValid) << c.id;
    } else {
      EXPECT_EQ(lane, "overflow") << c.id;
    }
  }
  EXPECT_GT(lanes["valid"], 0);
  EXPECT_GT(lanes["negative"], 0);
  EXPECT_GT(lanes["overflow"], 0);
}

// A sweep case is harness/gen's SeededCase(seed, i): the id's ".s<seed>i<i>" rebuilds it.
TEST(Catalogue, SweepCaseIsRebuiltFromSeedAndIndex) {
  CatalogueOptions o;
  o.seed = 9;
  o.sweep_count = 60;
  int checked = 0;
  for (const OpCase& c : BuildCatalogue(o)) {
    if (c.id.rfind("sweep/valid/", 0) != 0 || c.id.find(".pos.") == std::string::npos) continue;
    const size_t at = c.id.rfind(".s9i");
    ASSERT_NE(at, std::string::npos) << c.id;
    const uint64_t i = std::stoull(c.id.substr(at + 4));
    GeneratedCase g = SeededCase(9, i);
    EXPECT_EQ(g.kind, GenKind::kValid) << c.id;
    EXPECT_EQ(g.c.op, c.op) << c.id;
    EXPECT_EQ(g.c.data.shape, c.data.shape) << c.id;
    EXPECT_EQ(g.c.data.type, c.data.type) << c.id;
    EXPECT_EQ(g.c.data.bytes, c.data.bytes) << c.id;
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

// SeedAndIndexOf inverts the three formers of generated ids, a shrunk case's ".min" after them,
// and reads nothing from any other id.
TEST(CaseIds, SeedAndIndexComeBackFromEveryGeneratedId) {
  const uint64_t max = ~uint64_t{0};
  for (auto [seed, index] :
       {std::pair<uint64_t, uint64_t>{1, 17}, {0, 0}, {max, max}, {9, 1234567}}) {
    const SeedAndIndex want{seed, index};
    for (const std::string& id :
         {absl::StrCat("sweep/valid/d2s.f32.1x8x1x1.b2.blocks_first.pos", SweepSuffix(seed, index)),
          SeededCaseId(Op::kSpaceToDepth, "valid", seed, index),
          ShapeCaseId(/*partial=*/true, Op::kBatchToSpace, "valid", seed, index)}) {
      EXPECT_EQ(SeedAndIndexOf(id), want) << id;
      EXPECT_EQ(SeedAndIndexOf(absl::StrCat(id, ".min")), want) << id;
      EXPECT_EQ(SeedAndIndexOf(absl::StrCat("fuzz/", id)), want) << id;
    }
  }
  // By hand: the forms the ids take.
  EXPECT_EQ(SeedAndIndexOf("gen-s2d-valid-s7-i3"), (SeedAndIndex{7, 3}));
  EXPECT_EQ(SeedAndIndexOf("a.s12i34"), (SeedAndIndex{12, 34}));
  for (const char* id :
       {"spec.d2s", "example/d2s.f32.1x8x1x1.b2.blocks_first.pos", "x.s1i", "x.si3", "x-s1i3",
        "x.s1-i3", "x.s18446744073709551616i1", "s1i2", "gen-s2d-valid-s7-i", ".min", ""}) {
    EXPECT_EQ(SeedAndIndexOf(id), std::nullopt) << id;
  }
}

// A saved failure of a generated case carries its seed and index in its provenance.
TEST(FailingCaseVector, ProvenanceHoldsTheSeedAndIndexOfAGeneratedCase) {
  CatalogueOptions o;
  o.seed = 9;
  o.sweep_count = 30;
  int sweep = 0, other = 0;
  for (PreparedCase& p : PrepareCases(BuildCatalogue(o))) {
    if (!p.expectation.ok()) continue;
    absl::StatusOr<io::VectorCase> v = FailingCaseVector("b", p, "wrong_values", "d");
    ASSERT_TRUE(v.ok()) << p.c.id << ": " << v.status();
    const size_t at = p.c.id.rfind(".s9i");
    if (p.c.id.rfind("sweep/", 0) == 0) {
      ASSERT_NE(at, std::string::npos) << p.c.id;
      EXPECT_EQ(v->provenance.seed, uint64_t{9}) << p.c.id;
      EXPECT_EQ(v->provenance.index, std::stoull(p.c.id.substr(at + 4))) << p.c.id;
      ++sweep;
    } else {
      EXPECT_EQ(v->provenance.seed, std::nullopt) << p.c.id;
      EXPECT_EQ(v->provenance.index, std::nullopt) << p.c.id;
      ++other;
    }
    if (sweep > 20 && other > 20) break;
  }
  EXPECT_GT(sweep, 20);
  EXPECT_GT(other, 20);
}

// The sweep made in threads (`dmconf run --jobs`) is the sweep made in one: the same cases, in
// the same order, with the same data: for a sweep of more than one block of cases (4096), one
// whose last block is too small to share (under 64 cases), and a small one.
TEST(Catalogue, SweepMadeInThreadsIsTheSameSweep) {
  for (int count : {9000, 4096 + 50, 50}) {
    CatalogueOptions one;
    one.seed = 5;
    one.sweep_count = count;
    size_t sweep_one = 0;
    for (const OpCase& c : BuildCatalogue(one)) sweep_one += c.id.rfind("sweep/", 0) == 0;
    for (int threads : {2, 3}) {
      CatalogueOptions many = one;
      many.threads = threads;
      const std::vector<OpCase> a = BuildCatalogue(one), b = BuildCatalogue(many);
      ASSERT_EQ(a.size(), b.size()) << count << " cases, " << threads << " threads";
      for (size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a[i].id, b[i].id) << i;
        EXPECT_EQ(a[i].data.bytes, b[i].data.bytes) << a[i].id;
        EXPECT_EQ(a[i].origin, b[i].origin) << a[i].id;
      }
    }
    // Nearly every index gives a case (a few negative or overflow ones cannot run).
    EXPECT_GT(sweep_one, static_cast<size_t>(count) * 8 / 10) << count;
  }
}

TEST(Runner, OracleAndDirectPassEverything) {
  std::vector<PreparedCase> cases = PrepareCases(BuildCatalogue(Cat(100)));
  for (const char* name : {"oracle", "direct"}) {
    absl::StatusOr<BackendInfo> b = ResolveBackend(name);
    ASSERT_TRUE(b.ok()) << b.status();
    BackendRun r = RunBackend(name, b->factory, cases, {});
    for (const CaseResult& c : r.results) {
      EXPECT_TRUE(c.verdict == Verdict::kPass || c.verdict == Verdict::kUnspecifiedOk)
          << name << " " << c.id << ": " << VerdictName(c.verdict) << " " << c.detail;
    }
    EXPECT_EQ(r.worker_starts, 1);
  }
}

TEST(Registry, OptionalBackendsAreResolvableByNameButNotInAll) {
  absl::StatusOr<std::vector<BackendInfo>> all = ResolveBackends("all");
  ASSERT_TRUE(all.ok()) << all.status();
  std::set<std::string> in_all;
  for (const BackendInfo& b : *all) in_all.insert(b.name);
  for (const char* name : {"onnxruntime", "tfjs", "opencv", "torch", "armnn-guarded"}) {
    EXPECT_EQ(in_all.count(name), 0u) << name;
    absl::StatusOr<BackendInfo> b = ResolveBackend(name);
    if (b.ok()) {
      EXPECT_EQ(b->group, BackendGroup::kOptional) << name;
      EXPECT_TRUE(b->factory) << name;
    } else {
      // Not built here: the error says how to get it.
      EXPECT_EQ(b.status().code(), absl::StatusCode::kFailedPrecondition) << name;
      EXPECT_EQ(b.status().message().substr(0, 18), "backend.not_built:") << b.status();
      EXPECT_NE(b.status().message().find("DMCONF_WITH_"), absl::string_view::npos) << b.status();
    }
  }
  // The Node adapters need no build option: always registered.
  EXPECT_TRUE(ResolveBackend("onnxruntime").ok());
  EXPECT_TRUE(ResolveBackend("tfjs").ok());
  // Arm NN, when built, is in `all` (unguarded: its crashes become verdicts in the worker).
  if (ResolveBackend("armnn-guarded").ok()) {
    EXPECT_EQ(in_all.count("armnn"), 1u);
  }
}

TEST(Registry, UnknownNameListsTheOptionalBackends) {
  absl::StatusOr<BackendInfo> b = ResolveBackend("no-such-backend");
  ASSERT_FALSE(b.ok());
  const std::string m(b.status().message());
  EXPECT_EQ(m.rfind("backend.unknown: 'no-such-backend'", 0), 0u) << m;
  for (const char* name : {"oracle", "onnxruntime", "tfjs", "opencv", "torch", "fault-crash"}) {
    EXPECT_NE(m.find(name), std::string::npos) << name << " missing from: " << m;
  }
}

TEST(Registry, NodeAdapterWithoutItsPackagesIsAClearStartupError) {
  char dir[] = "/tmp/dmconf_node_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const char* old = std::getenv("DMCONF_NODE_ADAPTER_DIR");
  const std::string saved = old != nullptr ? old : "";
  setenv("DMCONF_NODE_ADAPTER_DIR", dir, 1);
  for (const char* name : {"onnxruntime", "tfjs"}) {
    absl::StatusOr<BackendInfo> b = ResolveBackend(name);
    ASSERT_TRUE(b.ok()) << b.status();
    absl::StatusOr<std::unique_ptr<Backend>> made = b->factory();
    ASSERT_FALSE(made.ok()) << name;
    const std::string m(made.status().message());
    EXPECT_EQ(m.rfind(absl::StrCat("backend.unavailable: ", name, ": "), 0), 0u) << m;
    EXPECT_NE(m.find("scripts/install-optional-backends.sh node"), std::string::npos) << m;
    // Through the runner (isolated): every case a harness error, the reason kept.
    const BackendRun run =
        RunBackend(name, b->factory, PrepareCases(BuildCatalogue(Cat(0, {Op::kDepthToSpace}))), {});
    EXPECT_NE(run.startup_error.find("backend.unavailable"), std::string::npos)
        << run.startup_error;
    ASSERT_FALSE(run.results.empty());
    EXPECT_EQ(run.results[0].verdict, Verdict::kHarnessError);
  }
  // adapter.js present, packages missing: the package is named.
  { std::ofstream(std::string(dir) + "/adapter.js") << "process.exit(1);\n"; }
  absl::StatusOr<std::unique_ptr<Backend>> made =
      NodeAdapterFactory("tfjs", {"@tensorflow/tfjs-core"})();
  ASSERT_FALSE(made.ok());
  if (std::system("node --version > /dev/null 2>&1") == 0) {
    EXPECT_NE(made.status().message().find("npm package @tensorflow/tfjs-core is not installed"),
              absl::string_view::npos)
        << made.status();
    // Packages "installed" but the adapter exits at once: still a startup error, not a crash.
    made = NodeAdapterFactory("tfjs", {})();
    ASSERT_FALSE(made.ok());
    EXPECT_NE(made.status().message().find("the adapter did not start"), absl::string_view::npos)
        << made.status();
  }
  std::remove((std::string(dir) + "/adapter.js").c_str());
  rmdir(dir);
  if (old != nullptr) {
    setenv("DMCONF_NODE_ADAPTER_DIR", saved.c_str(), 1);
  } else {
    unsetenv("DMCONF_NODE_ADAPTER_DIR");
  }
}

TEST(Expectations, ParseMatchAndReject) {
  absl::StatusOr<Expectations> e = ParseExpectations(R"({
    "format": "dmconf-expectations/1",
    "known_failures": [
      {"backend": "armnn", "case": "edge/d2s.*.0x*", "verdict": "crash",
       "reason": "SIGFPE on a zero batch", "link": "https://example.org/issue/1"},
      {"case": "sweep/*", "reason": "any backend, any verdict"}]})",
                                                     "t.json");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_NE(e->Find("armnn", "edge/d2s.f32.0x8x2x3.b2.blocks_first.pos", Verdict::kCrash), nullptr);
  EXPECT_EQ(e->Find("armnn", "edge/d2s.f32.0x8x2x3.b2.blocks_first.pos", Verdict::kHang), nullptr);
  EXPECT_EQ(e->Find("eigen", "edge/d2s.f32.0x8x2x3.b2.blocks_first.pos", Verdict::kCrash), nullptr);
  EXPECT_NE(e->Find("eigen", "sweep/x", Verdict::kWrongValues), nullptr);
  EXPECT_FALSE(ParseExpectations(R"({"format": "dmconf-expectations/1",
      "known_failures": [{"case": "x"}]})",
                                 "t.json")
                   .ok());  // no reason
  EXPECT_FALSE(ParseExpectations(R"({"format": "other"})", "t.json").ok());
  EXPECT_TRUE(GlobMatch("a*c*e", "abcde"));
  EXPECT_FALSE(GlobMatch("a*c*f", "abcde"));
}

TEST(Expectations, RuleFilterMatchesTheDecidingRule) {
  absl::StatusOr<Expectations> e = ParseExpectations(R"({
    "format": "dmconf-expectations/1",
    "known_failures": [
      {"backend": "tfjs", "case": "*", "rule": "s2b.pads_*", "verdict": "false_accept",
       "reason": "no pads check"}]})",
                                                     "t.json");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_NE(e->Find("tfjs", "sweep/negative/x", Verdict::kFalseAccept, "s2b.pads_end.nonnegative"),
            nullptr);
  EXPECT_EQ(e->Find("tfjs", "sweep/negative/x", Verdict::kFalseAccept, "s2b.block_shape.divides"),
            nullptr);
  EXPECT_EQ(e->Find("tfjs", "sweep/valid/x", Verdict::kFalseAccept, ""), nullptr);  // no rule
  EXPECT_FALSE(ParseExpectations(R"({"format": "dmconf-expectations/1",
      "known_failures": [{"case": "x", "rule": 3, "reason": "r"}]})",
                                 "t.json")
                   .ok());
}

TEST(Runner, KnownFailuresDoNotFail) {
  std::vector<PreparedCase> cases = PrepareCases(BuildCatalogue(Cat(0, {Op::kDepthToSpace})));
  absl::StatusOr<BackendInfo> b = ResolveBackend("mutant.d2s_mode_swapped");
  ASSERT_TRUE(b.ok());
  absl::StatusOr<Expectations> e = ParseExpectations(R"({"format": "dmconf-expectations/1",
      "known_failures": [{"case": "*", "verdict": "wrong_values", "reason": "modes swapped"}]})",
                                                     "t.json");
  ASSERT_TRUE(e.ok());
  RunOptions o;
  o.expectations = &*e;
  BackendRun r = RunBackend(b->name, b->factory, cases, o);
  int64_t known = 0;
  for (const CaseResult& c : r.results) {
    EXPECT_FALSE(c.failure) << c.id;
    known += c.known != nullptr;
  }
  EXPECT_GT(known, 0);
}

// Expectation files are read like vector files: unknown keys refused, errors located.
TEST(Expectations, LocatedErrorsAndUnknownKeys) {
  auto error = [](const char* text) {
    return std::string(ParseExpectations(text, "e.json").status().message());
  };
  EXPECT_TRUE(absl::StartsWith(error(R"({"format": "dmconf-expectations/1", "known_failures": [
      {"case": "x", "reason": "r"}, {"case": "y", "reason": "r", "verdicts": "crash"}]})"),
                               "expectations.field.unknown: e.json: /known_failures/1/verdicts"));
  EXPECT_TRUE(absl::StartsWith(error(R"({"format": "dmconf-expectations/1", "known_failures": [
      {"case": "x", "reason": "r", "verdict": "crashed"}]})"),
                               "expectations.verdict: e.json: /known_failures/0/verdict: "));
  EXPECT_TRUE(absl::StartsWith(
      error(R"({"format": "dmconf-expectations/1", "known_failures": [{"reason": "r"}]})"),
      "expectations.field.missing: e.json: /known_failures/0: "));
  EXPECT_TRUE(absl::StartsWith(error(R"({"format": "dmconf-expectations/1", "extra": 1})"),
                               "expectations.field.unknown: e.json: /extra"));
  EXPECT_TRUE(absl::StartsWith(error("{"), "expectations.json.syntax: e.json:"));
}

// An entry that matched no failing case of a backend it applies to is stale; one for a
// backend that did not run is not, and neither is one none of whose cases ran (a run of
// DepthToSpace alone, an entry for SpaceToBatch cases or for a rule of another op: idle).
TEST(Expectations, StaleEntriesAreFound) {
  std::vector<PreparedCase> cases = PrepareCases(BuildCatalogue(Cat(0, {Op::kDepthToSpace})));
  absl::StatusOr<BackendInfo> b = ResolveBackend("mutant.d2s_mode_swapped");
  ASSERT_TRUE(b.ok());
  absl::StatusOr<Expectations> e = ParseExpectations(R"({"format": "dmconf-expectations/1",
      "known_failures": [
        {"case": "*", "verdict": "wrong_values", "reason": "modes swapped"},
        {"case": "*", "verdict": "hang", "reason": "never hangs: stale"},
        {"backend": "armnn", "case": "*", "reason": "armnn did not run: not stale"},
        {"case": "*s2b.*", "reason": "no SpaceToBatch case ran: idle"},
        {"case": "*", "rule": "s2b.*", "reason": "no case of an s2b rule ran: idle"},
        {"case": "*d2s.*", "rule": "d2s.*", "verdict": "crash", "reason": "d2s rule cases ran: stale"}]})",
                                                     "t.json");
  ASSERT_TRUE(e.ok()) << e.status();
  RunOptions o;
  o.expectations = &*e;
  std::vector<BackendRun> runs = {RunBackend(b->name, b->factory, cases, o)};
  std::vector<StaleExpectation> stale = StaleExpectations(*e, runs);
  ASSERT_EQ(stale.size(), 2u);
  EXPECT_EQ(stale[0].entry->source, "t.json: /known_failures/1");
  EXPECT_EQ(stale[0].entry->reason, "never hangs: stale");
  EXPECT_EQ(stale[1].entry->source, "t.json: /known_failures/5");
  EXPECT_EQ(stale[1].entry->reason, "d2s rule cases ran: stale");
}

TEST(Report, DeterministicApartFromRunBlock) {
  std::vector<PreparedCase> cases = PrepareCases(BuildCatalogue(Cat(20)));
  absl::StatusOr<BackendInfo> b = ResolveBackend("mutant.s2b_pads_swapped");
  ASSERT_TRUE(b.ok());
  std::vector<BackendRun> one = {RunBackend(b->name, b->factory, cases, {})};
  std::vector<BackendRun> two = {RunBackend(b->name, b->factory, cases, {})};
  ReportInput a, c;
  a.runs = &one;
  c.runs = &two;
  a.options = c.options = {{"seed", 1}};
  a.run_info = DefaultRunInfo("x");
  c.run_info = DefaultRunInfo("y");
  nlohmann::ordered_json ja = JsonReport(a), jc = JsonReport(c);
  EXPECT_EQ(ja["format"], "dmconf-report/2");
  ja.erase("run");
  jc.erase("run");
  EXPECT_EQ(ja.dump(), jc.dump());
  // A failure names its first differing element and is diagnosed: the mistake is named where
  // the data identify positions, and listed as consistent where they do not (sub-byte types),
  // or as one of several that fit equally where the case cannot tell them apart (the golden
  // vector attrs.s2b.all_padding_blocks: one input element, two mistakes that coincide).
  int named = 0;
  for (const auto& k : ja["backends"][0]["cases"]) {
    if (k["verdict"] != "wrong_values") continue;
    EXPECT_TRUE(k.contains("mismatch"));
    ASSERT_TRUE(k.contains("diagnosis")) << k.dump();
    const std::string summary = k["diagnosis"]["summary"];
    if (summary.rfind("not named: ", 0) == 0 || summary.rfind("ambiguous: ", 0) == 0) {
      EXPECT_EQ(k["diagnosis"]["mistake"], "") << k.dump();
      EXPECT_NE(summary.find("pads_begin and pads_end applied at the wrong ends"),
                std::string::npos)
          << summary;
    } else {
      EXPECT_EQ(k["diagnosis"]["mistake"], "s2b.pads_swapped") << k.dump();
      ++named;
    }
  }
  EXPECT_GT(named, 0);
  const std::string xml = JunitXml(a);
  EXPECT_NE(xml.find("<failure type=\"wrong_values\""), std::string::npos);
}

}  // namespace
}  // namespace dmconf

namespace dmconf {
namespace {

// A shape case's card: partial shapes as `dmconf infer-shape` takes them (hand-written).
TEST(ShapeCard, PartialShapesAsWritten) {
  EXPECT_EQ(PartialShapeText(PartialShape::Of({Dim::Range(2, 5), Dim::Any()})), "2..5,?");
  EXPECT_EQ(PartialShapeText(PartialShape::DynamicRank()), "...");
  EXPECT_EQ(PartialShapeText(PartialShape::Of({Dim::Exact(1), Dim::AtLeast(3)})), "1,3..");
  EXPECT_EQ(PartialShapeText(PartialShape::Of({})), "");
}

TEST(ShapeCard, InvocationNamesEveryInputAndAttribute) {
  PartialCase d2s;
  d2s.op = Op::kDepthToSpace;
  d2s.type = ElementType::kF16;
  d2s.data = PartialShape::Of({Dim::Exact(1), Dim::Range(8, 16), Dim::AtLeast(2), Dim::Any()});
  d2s.block_size = 2;
  d2s.mode = "blocks_first";
  Invocation inv = DescribeShapeInvocation(d2s);
  EXPECT_EQ(InvocationText(inv), "block_size=2 mode=blocks_first; data f16 1,8..16,2..,?");
  ASSERT_EQ(inv.inputs.size(), 1u);
  EXPECT_TRUE(inv.inputs[0].shape.empty());  // not static

  PartialCase b2s;
  b2s.op = Op::kBatchToSpace;
  b2s.data = PartialShape::Static({8, 4});
  b2s.int_inputs[0] = *MakeIntegerTensor(ElementType::kI64, {1, 2});
  b2s.int_types[1] = ElementType::kI32;
  b2s.int_shapes[1] = PartialShape::Of({Dim::Exact(2)});
  b2s.int_inputs[2] = *MakeIntegerTensor(ElementType::kI64, {0, 0});
  inv = DescribeShapeInvocation(b2s);
  EXPECT_EQ(InvocationText(inv),
            "block_shape=[1,2] crops_begin=?[2] crops_end=[0,0]; data f32 8,4; block_shape i64 "
            "[2]; crops_begin i32 ?[2]; crops_end i64 [2]");
  EXPECT_EQ(inv.inputs[0].partial_shape, "8,4");
  EXPECT_EQ(inv.inputs[0].shape, (Shape{8, 4}));
}

// Failures are grouped by cause: the verdict and the mistake named (hand-built results).
TEST(Summary, GroupsNewFailuresByCause) {
  BackendRun r;
  auto add = [&](const char* id, Verdict v, const char* mistake, bool failure) {
    CaseResult c;
    c.id = id;
    c.verdict = v;
    c.failure = failure;
    if (mistake != nullptr) c.diagnosis = Diagnosis{mistake, std::string("matches: ") + mistake};
    r.results.push_back(c);
  };
  add("a", Verdict::kWrongValues, "x", true);
  add("b", Verdict::kWrongValues, "x", true);
  add("c", Verdict::kWrongValues, "x", true);
  add("d", Verdict::kWrongValues, "", true);
  add("e", Verdict::kCrash, nullptr, true);
  add("f", Verdict::kWrongValues, "y", false);  // known or passing: not a new failure
  EXPECT_EQ(CausesText(r),
            "   5 new failure(s), 1 named cause(s) and some unnamed:\n"
            "     3 x wrong_values x, e.g. a: matches: x\n"
            "     1 x crash (no mistake named), e.g. e\n"
            "     1 x wrong_values (no mistake named), e.g. d\n");
  BackendRun none;
  EXPECT_EQ(CausesText(none), "");
}

// The summary's head line, tables and shape-lane line come from the run's figures
// (case_tally.h): the same text whether the caller hands the tallies over or the summary counts
// the results itself, and each line as derived by hand from the cases below.
TEST(Summary, TablesFromTheRunsFigures) {
  BackendRun r;
  r.backend = "b";
  r.capabilities.kernels = true;
  auto add = [&](Op op, ElementType type, Verdict v, CaseLane lane, bool failure) {
    CaseResult c;
    c.id = absl::StrCat("case", r.results.size());
    c.op = op;
    c.type = type;
    c.verdict = v;
    c.lane = lane;
    c.failure = failure;
    c.detail = "detail";
    r.results.push_back(c);
  };
  const Op s2d = Op::kSpaceToDepth, d2s = Op::kDepthToSpace;
  const ElementType f32 = ElementType::kF32, i8 = ElementType::kI8;
  for (int i = 0; i < 3; ++i) add(s2d, f32, Verdict::kPass, CaseLane::kKernel, false);
  add(s2d, i8, Verdict::kWrongValues, CaseLane::kKernel, true);
  for (int i = 0; i < 2; ++i) add(d2s, f32, Verdict::kUnsupported, CaseLane::kKernel, false);
  for (int i = 0; i < 2; ++i) add(d2s, f32, Verdict::kPass, CaseLane::kShapePartial, false);
  add(d2s, f32, Verdict::kLooseShape, CaseLane::kShapeStatic, false);
  const std::vector<BackendRun> runs = {r};
  const std::string counted = SummaryText(runs, {});
  const std::vector<CaseTally> tallies = {TallyOf(r, 2)};
  SummaryOptions given;
  given.tallies = &tallies;
  EXPECT_EQ(SummaryText(runs, given), counted);
  // 9 cases: 1 new failure, 2 unsupported, so 6 passed (the loose shape is not a failure
  // without --strict-shapes).
  EXPECT_TRUE(
      absl::StrContains(counted,
                        "== backend b: 9 cases, 0.0 s: 6 passed, 1 new failure(s), 0 known, 2 "
                        "unsupported\n"))
      << counted;
  // The verdicts that occur, in the canonical order; a cell is at least 6 wide.
  static constexpr char row[] = "%-20s %6s %12s %11s %11s\n";
  EXPECT_TRUE(absl::StrContains(
      counted,
      absl::StrCat(absl::StrFormat(row, "op", "pass", "wrong_values", "unsupported", "loose_shape"),
                   absl::StrFormat(row, "SpaceToDepth", "3", "1", ".", "."),
                   absl::StrFormat(row, "DepthToSpace", "2", ".", "2", "1"))))
      << counted;
  // ok / run per element type, unsupported cases left out (i8 before f32 in the enum).
  static constexpr char types[] = "%-20s %7s %7s\n";
  EXPECT_TRUE(absl::StrContains(
      counted, absl::StrCat(absl::StrFormat(types, "op \\ type (ok/run)", "i8", "f32"),
                            absl::StrFormat(types, "SpaceToDepth", "0/1", "3/3"),
                            absl::StrFormat(types, "DepthToSpace", ".", "3/3"))))
      << counted;
  EXPECT_TRUE(absl::StrContains(
      counted, "   shape inference: 3 cases (static 1, partial 2): pass 2, loose_shape 1 ("))
      << counted;
  EXPECT_TRUE(absl::StrContains(counted,
                                "FAILED: 1 new failure(s), 0 known failure(s), 2 "
                                "unsupported\n"))
      << counted;
}

}  // namespace
}  // namespace dmconf
