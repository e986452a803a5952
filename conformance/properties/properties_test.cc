// RapidCheck properties of the oracle over cases from the generators (RcChooser driver, so
// failures shrink). Each failing property logs a repro line and records the case
// (prop_support.h). Counts are bounded by RapidCheck's default (100 cases per property;
// RC_PARAMS="max_success=N" for longer runs).
#include <numeric>

#include "conformance/properties/prop_support.h"
#include "conformance/properties/rc_chooser.h"
#include "gtest/gtest.h"
#include "harness/gen/builders.h"
#include "harness/gen/generate.h"
#include "oracle/direct/direct.h"
#include "oracle/oracle.h"
#include "rapidcheck/gtest.h"

namespace dmconf {
namespace {

using props::Histogram;
using props::I64;
using props::IntValues;
using props::PermuteChannels;
using props::RecordFailure;

// Evaluates a case that must be valid; records and fails the property otherwise.
Tensor Eval(absl::string_view property, const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  if (!e.ok() || e->kind != ExpectationKind::kValid || !e->output) {
    RecordFailure(
        property, c,
        e.ok() ? absl::StrCat("expected valid, got ", ExpectationKindName(e->kind), " ", e->message)
               : std::string(e.status().message()));
    RC_FAIL("case is not valid");
  }
  return *std::move(e->output);
}

void ExpectSame(absl::string_view property, const OpCase& c, const Tensor& got, const Tensor& want,
                absl::string_view what) {
  if (got != want) {
    RecordFailure(property, c,
                  absl::StrCat(what, ": got shape ", ShapeToString(got.shape), ", want ",
                               ShapeToString(want.shape)));
    RC_FAIL(std::string(what));
  }
}

// RC_ASSERT that records the case first.
void Require(absl::string_view property, const OpCase& c, bool ok, absl::string_view what) {
  if (ok) return;
  RecordFailure(property, c, what);
  RC_FAIL(std::string(what));
}

int64_t Pow(int64_t b, int64_t k) {
  int64_t p = 1;
  while (k-- > 0) p *= b;
  return p;
}

// ---- The literal oracle and the direct-index formulas agree --------------------------------

RC_GTEST_PROP(Properties, LiteralOracleAgreesWithDirectFormulas, ()) {
  RcChooser ch;
  const GeneratedCase g = GenerateCase(ch);
  absl::StatusOr<Expectation> lit = Evaluate(g.c, EvalOptions{int64_t{1} << 24});
  absl::StatusOr<Tensor> dir = direct::DirectEvaluate(g.c, int64_t{1} << 24);
  if (lit.ok() && lit->kind == ExpectationKind::kValid) {
    if (!dir.ok()) {
      RecordFailure("LiteralOracleAgreesWithDirectFormulas", g.c, dir.status().message());
      RC_FAIL("direct formulas refused a valid case");
    }
    ExpectSame("LiteralOracleAgreesWithDirectFormulas", g.c, *dir, *lit->output,
               "direct output differs from the literal oracle's");
  } else {
    // Not valid (or too large): the direct side must not produce an output either.
    Require("LiteralOracleAgreesWithDirectFormulas", g.c, !dir.ok(),
            "direct formulas produced an output for a case the oracle does not accept");
  }
}

// ---- Round trips ---------------------------------------------------------------------------

RC_GTEST_PROP(Properties, DepthToSpaceUndoesSpaceToDepth, ()) {
  RcChooser ch;
  OpCase c = BuildValidCase(ch, Op::kSpaceToDepth);
  const Tensor y = Eval("DepthToSpaceUndoesSpaceToDepth", c);
  OpCase back = c;
  back.op = Op::kDepthToSpace;
  back.data = y;
  ExpectSame("DepthToSpaceUndoesSpaceToDepth", c, Eval("DepthToSpaceUndoesSpaceToDepth", back),
             c.data, "DepthToSpace(SpaceToDepth(x)) != x");
}

RC_GTEST_PROP(Properties, SpaceToDepthUndoesDepthToSpace, ()) {
  RcChooser ch;
  OpCase c = BuildValidCase(ch, Op::kDepthToSpace);
  const Tensor y = Eval("SpaceToDepthUndoesDepthToSpace", c);
  OpCase back = c;
  back.op = Op::kSpaceToDepth;
  back.data = y;
  ExpectSame("SpaceToDepthUndoesDepthToSpace", c, Eval("SpaceToDepthUndoesDepthToSpace", back),
             c.data, "SpaceToDepth(DepthToSpace(x)) != x");
}

RC_GTEST_PROP(Properties, BatchToSpaceUndoesSpaceToBatch, ()) {
  RcChooser ch;
  OpCase c = BuildValidCase(ch, Op::kSpaceToBatch);
  const Tensor y = Eval("BatchToSpaceUndoesSpaceToBatch", c);
  // Cropping exactly the pads that SpaceToBatch added gives x back.
  OpCase back;
  back.op = Op::kBatchToSpace;
  back.data = y;
  back.int_inputs = {I64(IntValues(c.int_inputs[0])), I64(IntValues(c.int_inputs[1])),
                     I64(IntValues(c.int_inputs[2]))};
  ExpectSame("BatchToSpaceUndoesSpaceToBatch", c, Eval("BatchToSpaceUndoesSpaceToBatch", back),
             c.data, "BatchToSpace(SpaceToBatch(x, B, P), B, P) != x");
}

RC_GTEST_PROP(Properties, SpaceToBatchUndoesBatchToSpaceWithoutCrops, ()) {
  RcChooser ch;
  OpCase c = BuildValidCase(ch, Op::kBatchToSpace);
  const std::vector<int64_t> zeros(c.data.shape.size(), 0);
  c.int_inputs = {I64(IntValues(c.int_inputs[0])), I64(zeros), I64(zeros)};
  const Tensor y = Eval("SpaceToBatchUndoesBatchToSpace", c);
  OpCase back = c;
  back.op = Op::kSpaceToBatch;
  back.data = y;
  ExpectSame("SpaceToBatchUndoesBatchToSpace", c, Eval("SpaceToBatchUndoesBatchToSpace", back),
             c.data, "SpaceToBatch(BatchToSpace(x, B, 0), B, 0) != x");
}

// ---- Outputs are permutations of the input (plus pad zeros / minus crops) --------------------

RC_GTEST_PROP(Properties, BlockOpsPermuteTheInputPlusExactPadZeros, ()) {
  RcChooser ch;
  const Op op = ch.Pick<Op>(
      std::vector<Op>{Op::kSpaceToBatch, Op::kBatchToSpace, Op::kSpaceToDepth, Op::kDepthToSpace});
  const OpCase c = BuildValidCase(ch, op);
  const Tensor y = Eval("BlockOpsPermute", c);
  std::map<uint64_t, int64_t> want = Histogram(c.data);
  const std::map<uint64_t, int64_t> got = Histogram(y);
  const Shape& d = c.data.shape;
  if (op == Op::kSpaceToBatch) {
    // Pad zeros: batch * prod(D_i + P_i) - batch * prod(D_i) (B_0 = 1, P_0 = 0 in valid cases).
    const std::vector<int64_t> pb = IntValues(c.int_inputs[1]), pe = IntValues(c.int_inputs[2]);
    int64_t padded = d[0], plain = d[0];
    for (size_t i = 1; i < d.size(); ++i) {
      padded *= d[i] + pb[i] + pe[i];
      plain *= d[i];
    }
    if (padded > plain) want[0] += padded - plain;
  }
  if (op == Op::kBatchToSpace) {
    // Crops drop elements: every output value comes from the input, and the count is
    // batch / prod(B) * prod(D_i * B_i - CB_i - CE_i).
    const std::vector<int64_t> B = IntValues(c.int_inputs[0]), cb = IntValues(c.int_inputs[1]),
                               ce = IntValues(c.int_inputs[2]);
    int64_t count =
        d[0] / std::accumulate(B.begin(), B.end(), int64_t{1}, std::multiplies<int64_t>());
    for (size_t i = 1; i < d.size(); ++i) count *= d[i] * B[i] - cb[i] - ce[i];
    Require("BlockOpsPermute", c, y.NumElements() == count,
            "BatchToSpace output has the wrong number of elements");
    for (const auto& [bits, n] : got) {
      Require("BlockOpsPermute", c, want[bits] >= n,
              "BatchToSpace output holds a value more often than the input");
    }
    return;
  }
  if (got != want) {
    RecordFailure("BlockOpsPermute", c, "output is not the input plus the expected pad zeros");
    RC_FAIL("histograms differ");
  }
}

// ---- blocks_first and depth_first differ by a fixed channel permutation --------------------

RC_GTEST_PROP(Properties, DepthModesDifferByAChannelPermutation, ()) {
  RcChooser ch;
  const Op op = ch.Bool() ? Op::kDepthToSpace : Op::kSpaceToDepth;
  OpCase bf = BuildValidCase(ch, op);
  bf.mode = "blocks_first";
  OpCase df = bf;
  df.mode = "depth_first";
  const int64_t b = *bf.block_size, K = static_cast<int64_t>(bf.data.shape.size()) - 2;
  const int64_t bk = Pow(b, K);
  if (op == Op::kDepthToSpace) {
    // Input channel of (c', f): blocks_first f * C' + c', depth_first c' * b^K + f. So
    // D2S_df(x) = D2S_bf(x') with x'[f * C' + c'] = x[c' * b^K + f].
    const int64_t C_out = bf.data.shape[1] / bk;
    std::vector<int64_t> perm(static_cast<size_t>(bf.data.shape[1]));
    for (int64_t f = 0; f < bk; ++f) {
      for (int64_t c = 0; c < C_out; ++c) perm[static_cast<size_t>(f * C_out + c)] = c * bk + f;
    }
    OpCase permuted = bf;
    permuted.data = PermuteChannels(bf.data, perm);
    ExpectSame("DepthModes", df, Eval("DepthModes", df), Eval("DepthModes", permuted),
               "D2S depth_first(x) != D2S blocks_first(channel-permuted x)");
  } else {
    // Output channel of (c, f): blocks_first f * C + c, depth_first c * b^K + f. So
    // S2D_df(x)[c * b^K + f] = S2D_bf(x)[f * C + c].
    const int64_t C = bf.data.shape[1];
    std::vector<int64_t> perm(static_cast<size_t>(C * bk));
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t f = 0; f < bk; ++f) perm[static_cast<size_t>(c * bk + f)] = f * C + c;
    }
    const Tensor y_bf = Eval("DepthModes", bf);
    if (y_bf.NumElements() == 0) return;
    ExpectSame("DepthModes", df, Eval("DepthModes", df), PermuteChannels(y_bf, perm),
               "S2D depth_first(x) != channel-permuted S2D blocks_first(x)");
  }
}

// ---- ExtractImagePatches special cases -------------------------------------------------------

RC_GTEST_PROP(Properties, UnitPatchesAreTheIdentity, ()) {
  RcChooser ch;
  OpCase c = BuildValidCase(ch, Op::kExtractImagePatches);
  c.sizes = c.strides = c.rates = {1, 1};
  ExpectSame("UnitPatchesAreTheIdentity", c, Eval("UnitPatchesAreTheIdentity", c), c.data,
             "ExtractImagePatches with unit sizes, strides and rates is not the identity");
}

RC_GTEST_PROP(Properties, BlockPatchesEqualSpaceToDepthBlocksFirst, ()) {
  RcChooser ch;
  BuildOptions o;
  o.min_rank = o.max_rank = 4;
  OpCase s2d = BuildValidCase(ch, Op::kSpaceToDepth, o);
  s2d.mode = "blocks_first";
  // sizes == strides == block, rates 1, no padding: patch channel (kh * b + kw) * C + c is
  // SpaceToDepth blocks_first's channel flat(o) * C + c (the permutation is the identity; the
  // depth_first mode differs by the permutation of DepthModesDifferByAChannelPermutation).
  OpCase eip;
  eip.op = Op::kExtractImagePatches;
  eip.data = s2d.data;
  const int64_t b = *s2d.block_size;
  eip.sizes = eip.strides = {b, b};
  eip.rates = {1, 1};
  eip.auto_pad = "valid";
  ExpectSame("BlockPatchesEqualSpaceToDepth", eip, Eval("BlockPatchesEqualSpaceToDepth", eip),
             Eval("BlockPatchesEqualSpaceToDepth", s2d),
             "ExtractImagePatches(sizes = strides = b) != SpaceToDepth blocks_first");
}

// ---- Output shapes follow each specification's Outputs section -------------------------------

Shape SpecOutputShape(const OpCase& c) {
  const Shape& d = c.data.shape;
  Shape out;
  switch (c.op) {
    case Op::kSpaceToBatch: {
      // [batch * B_0 * ... * B_{N-1}, (D_1 + P_1) / B_1, ...]
      const auto B = IntValues(c.int_inputs[0]), pb = IntValues(c.int_inputs[1]),
                 pe = IntValues(c.int_inputs[2]);
      out.push_back(d[0] *
                    std::accumulate(B.begin(), B.end(), int64_t{1}, std::multiplies<int64_t>()));
      for (size_t i = 1; i < d.size(); ++i) out.push_back((d[i] + pb[i] + pe[i]) / B[i]);
      break;
    }
    case Op::kBatchToSpace: {
      // [batch / (B_0 * ... * B_{N-1}), D_1 * B_1 - CB_1 - CE_1, ...]
      const auto B = IntValues(c.int_inputs[0]), cb = IntValues(c.int_inputs[1]),
                 ce = IntValues(c.int_inputs[2]);
      out.push_back(d[0] /
                    std::accumulate(B.begin(), B.end(), int64_t{1}, std::multiplies<int64_t>()));
      for (size_t i = 1; i < d.size(); ++i) out.push_back(d[i] * B[i] - cb[i] - ce[i]);
      break;
    }
    case Op::kSpaceToDepth: {
      // [N, C * b^K, D_1 / b, ...]
      const int64_t b = c.block_size.value_or(1);
      out = {d[0], d[1] * Pow(b, static_cast<int64_t>(d.size()) - 2)};
      for (size_t i = 2; i < d.size(); ++i) out.push_back(d[i] / b);
      break;
    }
    case Op::kDepthToSpace: {
      // [N, C / b^K, D_1 * b, ...]
      const int64_t b = c.block_size.value_or(1);
      out = {d[0], d[1] / Pow(b, static_cast<int64_t>(d.size()) - 2)};
      for (size_t i = 2; i < d.size(); ++i) out.push_back(d[i] * b);
      break;
    }
    case Op::kExtractImagePatches: {
      // [N, size_rows * size_cols * depth, out_rows, out_cols]; out as ERRATA E8.
      out = {d[0], c.sizes[0] * c.sizes[1] * d[1]};
      for (size_t i = 0; i < 2; ++i) {
        const int64_t in = d[2 + i], s = c.strides[i];
        const int64_t eff = c.rates[i] * (c.sizes[i] - 1) + 1;
        if (*c.auto_pad == "valid") {
          out.push_back(in >= eff ? (in - eff + 1 + s - 1) / s : 0);
        } else {
          out.push_back((in + s - 1) / s);
        }
      }
      break;
    }
  }
  return out;
}

RC_GTEST_PROP(Properties, OutputShapeFollowsTheSpecification, ()) {
  RcChooser ch;
  const OpCase c = BuildValidCase(ch, ch.Pick<Op>(AllOps()));
  const Shape want = SpecOutputShape(c);
  absl::StatusOr<Validation> v = Validate(c);
  Require("OutputShape", c, v.ok(), "Validate failed on a built valid case");
  if (v->output_shape != want) {
    RecordFailure("OutputShape", c,
                  absl::StrCat("inferred ", ShapeToString(v->output_shape), ", spec says ",
                               ShapeToString(want)));
    RC_FAIL("inferred shape differs from the spec's Outputs section");
  }
  Require("OutputShape", c, Eval("OutputShape", c).shape == want,
          "evaluated output shape differs from the spec's Outputs section");
}

// ---- Every driver counts classes; the RapidCheck driver hits every declared class ----------

TEST(RapidCheckDriver, HitsEveryDeclaredClass) {
  ClassCounter counts;
  rc::detail::TestParams params;
  params.maxSuccess = 3000;
  params.seed = 20261122;
  params.disableShrinking = true;
  rc::detail::TestMetadata meta;
  meta.id = meta.description = "class coverage";
  const auto result = rc::detail::checkTestable(
      [&] {
        RcChooser ch;
        counts.Add(GenerateCase(ch));
      },
      meta, params);
  EXPECT_TRUE(result.template is<rc::detail::SuccessResult>());
  std::cout << counts.Report();
  const std::vector<std::string> missing = counts.Missing();
  EXPECT_TRUE(missing.empty()) << missing.size() << " classes never hit, e.g. " << missing[0];
}

}  // namespace
}  // namespace dmconf
