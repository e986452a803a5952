#include "harness/gen/generate.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "harness/gen/case_ids.h"
#include "harness/gen/fills.h"

namespace dmconf {

absl::string_view GenKindName(GenKind k) {
  switch (k) {
    case GenKind::kValid:
      return "valid";
    case GenKind::kNegative:
      return "negative";
    case GenKind::kOverflow:
      return "overflow";
  }
  return "?";
}

GeneratedCase GenerateCase(Chooser& ch, const GenerateOptions& o) {
  const std::vector<Op> all(AllOps().begin(), AllOps().end());
  const std::vector<Op>& ops = o.ops.empty() ? all : o.ops;
  GeneratedCase g;
  g.kind =
      static_cast<GenKind>(ch.Weighted({o.valid_weight, o.negative_weight, o.overflow_weight}));
  switch (g.kind) {
    case GenKind::kValid:
      g.c = BuildValidCase(ch, ch.Pick<Op>(ops), o.build);
      break;
    case GenKind::kOverflow:
      g.c = BuildOverflowCase(ch, ch.Pick<Op>(ops));
      break;
    case GenKind::kNegative: {
      // Every breakable rule when every op is allowed; else the rules of the allowed ops
      // (malformed, op-less rules only with every op).
      const std::vector<const Rule*>* rules = &BreakableRules();
      std::vector<const Rule*> some;
      if (!o.ops.empty()) {
        for (const Rule* r : *rules) {
          if (r->op && std::find(ops.begin(), ops.end(), *r->op) != ops.end()) some.push_back(r);
        }
        rules = &some;
      }
      const Rule* r = ch.Pick<const Rule*>(*rules);
      absl::StatusOr<NegativeCase> n = BuildNegativeCase(ch, *r, o.build);
      if (n.ok()) {
        g.c = std::move(n->broken);
        g.twin = std::move(n->twin);
        g.rule = r;
      } else {  // every listed rule has a construction; stay total anyway
        g.kind = GenKind::kValid;
        g.c = BuildValidCase(ch, ch.Pick<Op>(ops), o.build);
      }
      break;
    }
  }
  return g;
}

GeneratedCase SeededCase(uint64_t seed, uint64_t index, const GenerateOptions& o) {
  SeededChooser ch(MixSeed(seed, index));
  GeneratedCase g = GenerateCase(ch, o);
  g.c.id = SeededCaseId(g.c.op, GenKindName(g.kind), seed, index);
  g.c.origin = absl::StrCat("seeded seed=", seed, " index=", index,
                            g.rule ? absl::StrCat(" rule=", g.rule->id) : std::string());
  if (g.twin) {
    g.twin->id = absl::StrCat(g.c.id, "-twin");
    g.twin->origin = g.c.origin;
  }
  return g;
}

bool DrawsSpecialValues(uint64_t seed, uint64_t index, GenKind kind) {
  return kind == GenKind::kValid && MixSeed(seed, index) % 4 == 0;
}

bool FillSpecialIfDrawn(uint64_t seed, uint64_t index, GeneratedCase& g) {
  if (!DrawsSpecialValues(seed, index, g.kind)) return false;
  FillSpecial(g.c.data, seed);
  return true;
}

}  // namespace dmconf
