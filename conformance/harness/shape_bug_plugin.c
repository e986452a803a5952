/* A plugin with static and partial shape inference (dmconf_plugin.h, version 2) for all five
 * ops, and seeded shape-inference bugs: the targets of the shape-inference fuzz target
 * (fuzz/targets/plugin_shape.cc) and of `dmconf run`'s shape lanes. run() answers
 * DMCONF_UNSUPPORTED to every case: only infer_static / infer_partial matter here.
 *
 * Built once per variant (SHAPE_BUG=<n>, conformance/harness/CMakeLists.txt):
 *   0   correct            sound and tight everywhere the oracle is (docs/errata-partial.md),
 *                          D-P5 included (the same bounded search)
 *   1   s2b_batch_wrap     infer_static: the SpaceToBatch batch product is formed in uint64
 *                          (wrapping) and checked against 2^63-1 only afterwards -> false_accept
 *   2   ceil_off_by_one    infer_partial: the lower bound of an interval quotient is lo / d + 1
 *                          instead of ceil(lo / d) -> unsound_shape
 *   3   rank_as_4          infer_partial: an unknown data rank is answered as rank 4 of "?"
 *                          -> unsound_shape
 *   4   block_ones         infer_partial: a non-constant block_shape is taken as all ones
 *                          -> unsound_shape
 *   5   eip_same_floor     infer_static: ExtractImagePatches same_upper / same_lower answer
 *                          floor(in / stride) instead of ceil -> wrong_shape
 *   6   crops_vs_lo        infer_partial: BatchToSpace crops checked against D_lo * B (the
 *                          interval's lower bound) instead of the largest D_i * B_i: cases
 *                          with valid instances refused -> unsound_shape
 *   7   s2d_no_divide      infer_static: the SpaceToDepth divisibility check skipped
 *                          -> false_accept
 *   8   d2s_refuse_b1      infer_static: DepthToSpace with block_size 1 refused -> false_reject
 *   9   type_i64           both: the output element type answered as i64 -> wrong_type
 *   10  pads_zero          infer_partial: non-constant SpaceToBatch pads taken as 0
 *                          -> unsound_shape
 *   11  eff_unknown_rank   infer_partial: ExtractImagePatches' effective patch size
 *                          rate * (size - 1) + 1 is checked only when the rank is known (an
 *                          attribute-only rule skipped under unknown rank) -> false_accept
 *   12  absent_block_zero  both: SpaceToDepth / DepthToSpace with block_size absent (the spec
 *                          default 1) read as block_size 0 and refused -> false_reject
 *   13  s2d_absent_two     infer_partial: SpaceToDepth with block_size absent read as 2 (the
 *                          spec default is 1) -> unsound_shape
 *   14  d2s_absent_two     infer_static: DepthToSpace with block_size absent read as 2
 *                          -> wrong_shape (depth divisible by 2^K) or false_reject
 *   15  depth_unknown_rank infer_partial: SpaceToDepth / DepthToSpace answer an unknown rank
 *                          before checking block_size and mode (attribute-only rules skipped
 *                          under unknown rank) -> false_accept
 *   16  block_unknown_rank infer_partial: SpaceToBatch / BatchToSpace answer an unknown data
 *                          rank before checking the constant inputs' values (block_shape >= 1,
 *                          pads / crops >= 0) -> false_accept
 *   17  s2b_interval_divide infer_partial: SpaceToBatch checks "block_shape[i] divides
 *                          D_i + pads" only for an exact padded dim; an interval is divided
 *                          with floor at both ends -> false_accept (no multiple in the interval)
 *   18  s2d_depth_wrap     infer_static: SpaceToDepth's C * block_size^K formed in uint64
 *                          (wrapping), no overflow check -> false_accept (or invalid_answer when
 *                          the wrapped value is negative as int64)
 *   19  eip_lower_as_valid infer_partial: ExtractImagePatches same_lower answered with the valid
 *                          formula (only same_upper taken as padding) -> unsound_shape
 *   20  eip_rates_ignored  infer_static: ExtractImagePatches' effective patch size taken as
 *                          size (rates ignored) for valid padding -> wrong_shape
 *   21  crops_begin_dropped infer_partial: BatchToSpace subtracts crops_end only from
 *                          D_i * block_shape[i] (crops_begin forgotten) -> unsound_shape
 *   22  s2d_interval_divide infer_partial: SpaceToDepth checks divisibility by block_size only
 *                          for exact spatial dims; an interval is divided with floor at both
 *                          ends -> false_accept (no multiple in the interval)
 *   23  depth_mode_unchecked infer_partial: SpaceToDepth / DepthToSpace never check mode (it
 *                          does not change the shape) -> false_accept
 *   101 openvino_bounds    correct, but with OpenVINO's interval arithmetic for unbounded dims
 *                          (ov::Interval: s_max = 2^63-1 is "no upper bound"): every unbounded
 *                          upper bound answered as 2^63-1, and [a, inf) / d as
 *                          [ceil(a / d), floor((2^63-1) / d)] -> pass (no instance has a dim
 *                          above 2^63-1, docs/errata-partial.md D-P1)
 *   102 tight_bounds       correct, and as tight as soundness allows near 2^63 where the oracle's
 *                          own bound is not reached (docs/errata-partial.md D-P6): 2^63-1 for an
 *                          unbounded upper bound, floor((2^63-1) / d) for [a, inf) / d, the
 *                          largest multiple of the factor below 2^63 for an unbounded D * k,
 *                          and for a block that is not constant the largest multiple of an exact
 *                          D_i (BatchToSpace D_i * B_i) or of an exact batch (SpaceToBatch
 *                          batch * prod(B)) below 2^63 -> pass: sound, so never unsound_shape
 *   100 openvino_like      answers "?" ({0, DMCONF_UNBOUNDED}) or an unknown rank where
 *                          OpenVINO's PartialShape path does (reference-openvino-behaviour.md
 *                          2.1 / 2.2, "Partial knowledge"), otherwise as 0 -> loose_shape, never
 *                          unsound_shape
 *
 * Built with SHAPE_ONLY defined, run is NULL: shape inference without kernels (the
 * dmconf_shape_only_* libraries).
 *
 * Example: `dmconf run --backend-lib libdmconf_shape_bug_rank_as_4.so --no-kernels` ... or
 *   DMCONF_FUZZ_PLUGIN=libdmconf_shape_bug_rank_as_4.so fuzz_plugin_shape_random 60
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness/plugin/dmconf_plugin.h"

#ifndef SHAPE_BUG
#define SHAPE_BUG 0
#endif

#define BUG_S2B_BATCH_WRAP 1
#define BUG_CEIL_OFF_BY_ONE 2
#define BUG_RANK_AS_4 3
#define BUG_BLOCK_ONES 4
#define BUG_EIP_SAME_FLOOR 5
#define BUG_CROPS_VS_LO 6
#define BUG_S2D_NO_DIVIDE 7
#define BUG_D2S_REFUSE_B1 8
#define BUG_TYPE_I64 9
#define BUG_PADS_ZERO 10
#define BUG_EFF_UNKNOWN_RANK 11
#define BUG_ABSENT_BLOCK_ZERO 12
#define BUG_S2D_ABSENT_TWO 13
#define BUG_D2S_ABSENT_TWO 14
#define BUG_DEPTH_UNKNOWN_RANK 15
#define BUG_BLOCK_UNKNOWN_RANK 16
#define BUG_S2B_INTERVAL_DIVIDE 17
#define BUG_S2D_DEPTH_WRAP 18
#define BUG_EIP_LOWER_AS_VALID 19
#define BUG_EIP_RATES_IGNORED 20
#define BUG_CROPS_BEGIN_DROPPED 21
#define BUG_S2D_INTERVAL_DIVIDE 22
#define BUG_DEPTH_MODE_UNCHECKED 23
#define OPENVINO_LIKE 100
#define OPENVINO_BOUNDS 101
#define TIGHT_BOUNDS 102
/* Upper bounds answered as OpenVINO's Interval does: 2^63-1 for "unbounded". */
#define MAX_AS_UNBOUNDED (SHAPE_BUG == OPENVINO_BOUNDS || SHAPE_BUG == TIGHT_BOUNDS)

#define kMax INT64_MAX
#define kUnb ((int64_t)DMCONF_UNBOUNDED)
/* A data rank implied only by a non-constant input's length above this stays unknown
 * (docs/errata-partial.md, D-P12). */
#define kMaxImpliedRank ((int64_t)1 << 16)

typedef dmconf_dim Dim;

static const dmconf_op_support kOps[] = {
    {"SpaceToBatch", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
    {"BatchToSpace", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
    {"SpaceToDepth", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
    {"DepthToSpace", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
    {"ExtractImagePatches", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
};

/* ---- Arithmetic ---------------------------------------------------------------------------- */

static int MulOk(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
static int AddOk(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }
static int64_t Min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t Max64(int64_t a, int64_t b) { return a > b ? a : b; }
/* a, b >= 0, b >= 1 */
static int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }
/* hi * k, clamped to the largest multiple of k representable (larger instances are rejected as
 * unrepresentable, so they need no room in the answer: D-P9). k >= 1. */
static int64_t MulClamp(int64_t hi, int64_t k) {
  int64_t p;
  return MulOk(hi, k, &p) ? p : (kMax / k) * k;
}
static int Bounded(Dim d) { return d.hi != kUnb; }
/* The largest multiple of k (>= 1) at most 2^63-1: every product v * k of an instance is one. */
static int64_t LargestMultiple(int64_t k) { return (kMax / k) * k; }
/* The upper bound of a product v * k whose v is unbounded: unbounded, or under tight_bounds the
 * largest multiple of k below 2^63. */
static int64_t UnboundedTimes(int64_t k) {
  return SHAPE_BUG == TIGHT_BOUNDS ? LargestMultiple(k) : kUnb;
}
static Dim Exact(int64_t v) {
  Dim d = {v, v};
  return d;
}
static Dim Iv(int64_t lo, int64_t hi) {
  Dim d = {lo, hi};
  return d;
}
static Dim Any(void) { return Iv(0, kUnb); }

static int Fail(dmconf_shape_result* r, int status, const char* why) {
  snprintf(r->message, sizeof(r->message), "%s", why);
  return status;
}
#define REJECT(why) return Fail(r, DMCONF_REJECTED, why)

/* [ceil(lo / d), floor(hi / d)] (an unbounded hi stays unbounded); 0 when no value of the
 * interval is divisible by d. */
static int DivIv(Dim in, int64_t d, Dim* out) {
  int64_t lo = CeilDiv(in.lo, d);
  if (SHAPE_BUG == BUG_CEIL_OFF_BY_ONE && in.lo != in.hi) lo = in.lo / d + 1;
  /* An unbounded dim is still at most 2^63-1 in every instance. */
  if (lo > (Bounded(in) ? in.hi : kMax) / d) return 0;
  *out = Iv(lo, Bounded(in) ? in.hi / d : kUnb);
  /* OpenVINO's Dimension division: [a, inf) / d = [ceil(a / d), floor(s_max / d)]. */
  if (MAX_AS_UNBOUNDED && !Bounded(in) && lo <= kMax / d) out->hi = kMax / d;
  return 1;
}

/* in * factor; factor_ok 0: the factor is above 2^63-1, so only in = 0 is accepted. 0: every
 * instance's product is above 2^63-1. factor >= 1. */
static int ScaleIv(Dim in, int factor_ok, int64_t factor, Dim* out) {
  int64_t lo;
  if (!factor_ok) {
    if (in.lo > 0) return 0;
    *out = Exact(0);
    return 1;
  }
  if (!MulOk(in.lo, factor, &lo)) return 0;
  *out = Iv(lo, Bounded(in) ? MulClamp(in.hi, factor) : UnboundedTimes(factor));
  return 1;
}

/* Whether the smallest output (every lower bound) has at most 2^63-1 elements; a zero dim
 * makes the product 0. */
static int LowsRepresentable(const Dim* d, int rank) {
  int64_t p = 1;
  int overflow = 0, i;
  for (i = 0; i < rank; ++i) {
    if (d[i].lo == 0) return 1;
    if (!overflow && !MulOk(p, d[i].lo, &p)) overflow = 1;
  }
  return !overflow;
}

/* ---- Integer inputs --------------------------------------------------------------------- */

enum { kBytes, kMsbFirst, kLowNibbleFirst, kSplit };
typedef struct {
  const char* name;
  int bits, is_signed, packing;
} IntType;

static const IntType kIntTypes[] = {
    {"u1", 1, 0, kMsbFirst},       {"u2", 2, 0, kMsbFirst}, {"u3", 3, 0, kSplit},
    {"u4", 4, 0, kLowNibbleFirst}, {"u6", 6, 0, kSplit},    {"i4", 4, 1, kLowNibbleFirst},
    {"u8", 8, 0, kBytes},          {"i8", 8, 1, kBytes},    {"u16", 16, 0, kBytes},
    {"i16", 16, 1, kBytes},        {"u32", 32, 0, kBytes},  {"i32", 32, 1, kBytes},
    {"u64", 64, 0, kBytes},        {"i64", 64, 1, kBytes},
};

static const IntType* LookupInt(const char* name) {
  size_t i;
  if (name == NULL) return NULL;
  for (i = 0; i < sizeof(kIntTypes) / sizeof(kIntTypes[0]); ++i)
    if (strcmp(name, kIntTypes[i].name) == 0) return &kIntTypes[i];
  return NULL;
}

/* Element i of a packed integer tensor (docs/element-types.md); 0 when its bytes are not all
 * there. *too_large: an unsigned value above 2^63-1. */
static int ReadInt(const dmconf_tensor* t, const IntType* it, int64_t i, int64_t* v,
                   int* too_large) {
  const uint8_t* b = (const uint8_t*)t->data;
  const uint64_t mask = it->bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << it->bits) - 1);
  uint64_t bits = 0, last;
  int k;
  switch (it->packing) {
    case kBytes:
      last = (uint64_t)(i + 1) * (uint64_t)(it->bits / 8);
      if (last > t->byte_size) return 0;
      for (k = 0; k < it->bits / 8; ++k)
        bits |= (uint64_t)b[(uint64_t)i * (it->bits / 8) + k] << (8 * k);
      break;
    case kMsbFirst: {
      const int per = 8 / it->bits;
      if ((uint64_t)(i / per) >= t->byte_size) return 0;
      bits = (b[i / per] >> (8 - it->bits * (int)(i % per + 1))) & mask;
      break;
    }
    case kLowNibbleFirst:
      if ((uint64_t)(i / 2) >= t->byte_size) return 0;
      bits = (b[i / 2] >> (4 * (int)(i % 2))) & 0xF;
      break;
    default: { /* split: n = 24 / bits elements in 3 bytes */
      const int n = 24 / it->bits, s = n - 1 - (int)(i % n);
      const int low_bits = 16 / n, high_bits = 8 / n;
      const uint64_t g = (uint64_t)(i / n) * 3;
      uint32_t word;
      if (g + 3 > t->byte_size) return 0;
      word = ((uint32_t)b[g] << 8) | b[g + 1];
      bits = ((word >> (low_bits * s)) & (((uint32_t)1 << low_bits) - 1)) |
             ((uint64_t)((b[g + 2] >> (high_bits * s)) & ((1u << high_bits) - 1)) << low_bits);
      break;
    }
  }
  if (it->is_signed) {
    if (it->bits < 64 && ((bits >> (it->bits - 1)) & 1)) bits |= ~mask;
    *v = (int64_t)bits;
  } else if (bits > (uint64_t)kMax) {
    *too_large = 1;
    *v = kMax;
  } else {
    *v = (int64_t)bits;
  }
  return 1;
}

/* Value i of constant input k (checked readable by ReadBlockInputs). */
static int64_t Val(const dmconf_shape_case* c, int k, int64_t i) {
  int64_t v = 0;
  int big = 0;
  ReadInt(&c->int_inputs[k].constant, LookupInt(c->int_inputs[k].element_type), i, &v, &big);
  return v;
}

/* Whether the case is partial (an unknown rank, an interval dim or a non-constant input): the
 * infer_partial bugs below fire only there, so that a static case answers the same through
 * infer_static and infer_partial (dmconf run asks infer_static for it). */
static int IsPartial(const dmconf_shape_case* c) {
  int i;
  if (c->rank < 0) return 1;
  for (i = 0; i < c->rank; ++i)
    if (c->shape[i].lo != c->shape[i].hi) return 1;
  for (i = 0; i < c->num_int_inputs; ++i)
    if (!c->int_inputs[i].is_constant) return 1;
  return 0;
}

/* ---- Answers ------------------------------------------------------------------------------ */

static int Answer(const dmconf_shape_case* c, dmconf_shape_result* r, const Dim* d, int rank) {
  int i;
  r->element_type = SHAPE_BUG == BUG_TYPE_I64 ? "i64" : c->element_type;
  r->rank = rank;
  for (i = 0; i < rank; ++i) r->shape[i] = d[i];
  /* OpenVINO's Interval: no upper bound is s_max = 2^63-1. */
  for (i = 0; MAX_AS_UNBOUNDED && i < rank; ++i)
    if (r->shape[i].hi == kUnb) r->shape[i].hi = kMax;
  return DMCONF_OK;
}

static int AnswerUnknownRank(const dmconf_shape_case* c, dmconf_shape_result* r) {
  Dim any[4];
  int i;
  if (SHAPE_BUG == BUG_RANK_AS_4) {
    for (i = 0; i < 4; ++i) any[i] = Any();
    return Answer(c, r, any, 4);
  }
  return Answer(c, r, NULL, DMCONF_RANK_UNKNOWN);
}

/* ---- SpaceToBatch / BatchToSpace ------------------------------------------------------------ */

/* Smallest D * B - C over D in [dlo, dhi], 1 <= B <= bmax (kUnb: any), D * B >= C, where some
 * multiple of B lies in the batch interval [blo, bhi] (blo == 0: any B). 0 when there is no such
 * (D, B). Past 2^16 steps the answer is the sound bound 0 (docs/errata-partial.md, D-P5). */
static int MinCropped(int64_t dlo, int64_t dhi, int64_t bmax, int64_t blo, int64_t bhi, int64_t C,
                      int64_t* best) {
  int found = 0;
  int64_t D, B, steps = 0, from, to, full;
  /* D >= C: B = 1 gives D - C, smallest at D = max(dlo, C). */
  const int64_t d1 = Max64(dlo, C);
  if (dhi == kUnb || d1 <= dhi) {
    *best = d1 - C;
    found = 1;
  }
  /* 1 <= D < C: the smallest allowed B >= ceil(C / D); D < ceil(C / bmax) leaves no B. */
  from = Max64(dlo, 1);
  if (bmax != kUnb) from = Max64(from, CeilDiv(C, Max64(bmax, 1)));
  to = Min64(dhi == kUnb ? kMax : dhi, C - 1);
  for (D = from; D <= to; ++D) {
    /* Every D costs a step: its B loop may not run at all (its smallest B overflows). */
    if (++steps > ((int64_t)1 << 16)) {
      *best = 0;
      return 1;
    }
    /* B above (2^63-1) / D makes D * B overflow, and so does every larger B. */
    for (B = CeilDiv(C, D); B <= kMax / D && (bmax == kUnb || B <= bmax); ++B) {
      if (++steps > ((int64_t)1 << 16)) {
        *best = 0;
        return 1;
      }
      /* B allowed: B <= bmax, and a multiple of B in [blo, bhi] (any when bhi is unbounded). */
      if (blo == 0 || bhi == kUnb || (bhi / B) * B >= blo) {
        if (MulOk(D, B, &full) && (!found || full - C < *best)) {
          *best = full - C;
          found = 1;
        }
        break;
      }
      if (B == kMax) break;
    }
  }
  return found;
}

/* The block ops' answer. OpenVINO-like: an unknown data rank is answered as an unknown rank
 * even where the inputs' length fixes it, but only after every check has run (a looser answer
 * must not accept what every instance breaks). */
static int BlockAnswer(const dmconf_shape_case* c, dmconf_shape_result* r, const Dim* out,
                       int rank) {
  if (SHAPE_BUG == OPENVINO_LIKE && c->rank < 0) return AnswerUnknownRank(c, r);
  return Answer(c, r, out, rank);
}

/* Block value i: a non-constant block_shape is "all ones" under the seeded bug block_ones. */
#define BLOCK(i) (known[0] == 2 ? 1 : Val(c, 0, i))

/* SpaceToBatch's answer, the checks of InferBlock passed and the data rank known. */
static int S2bAnswer(const dmconf_shape_case* c, dmconf_shape_result* r, const int* known,
                     const Dim* d, int rank, int is_static) {
  Dim out[DMCONF_PLUGIN_MAX_RANK];
  int64_t low[DMCONF_PLUGIN_MAX_RANK];
  int i;
  /* Output [batch * B_0 * ... * B_{N-1}, (D_i + pads_begin[i] + pads_end[i]) / B_i]. */
  if (known[0]) {
    int64_t prod = 1;
    int prod_ok = 1;
    for (i = 0; i < rank && prod_ok; ++i) prod_ok = MulOk(prod, BLOCK(i), &prod);
    if (SHAPE_BUG == BUG_S2B_BATCH_WRAP && is_static) {
      uint64_t p = (uint64_t)d[0].lo;
      for (i = 0; i < rank; ++i) p *= (uint64_t)BLOCK(i);
      if (p > (uint64_t)kMax) REJECT("batch * prod(block_shape) above 2^63-1");
      out[0] = Exact((int64_t)p);
    } else if (!prod_ok) {
      if (d[0].lo > 0) REJECT("batch * prod(block_shape) above 2^63-1");
      out[0] = Exact(0);
    } else {
      int64_t lo;
      if (!MulOk(d[0].lo, prod, &lo)) REJECT("batch * prod(block_shape) above 2^63-1");
      out[0] = Iv(lo, Bounded(d[0]) ? MulClamp(d[0].hi, prod) : UnboundedTimes(prod));
    }
  } else {
    /* B >= 1 unknown: batch * prod(B) is at least batch, unbounded unless batch is 0. */
    out[0] = d[0].hi == 0 ? Exact(0) : Iv(d[0].lo, kUnb);
    /* Tight: batch * prod(B) is a multiple of an exact batch. */
    if (SHAPE_BUG == TIGHT_BOUNDS && d[0].lo == d[0].hi && d[0].lo > 0)
      out[0].hi = LargestMultiple(d[0].lo);
  }
  for (i = 1; i < rank; ++i) {
    const int pads_known = (known[1] && known[2]) || SHAPE_BUG == BUG_PADS_ZERO;
    int64_t P, plo, phi = kUnb;
    /* P_i = pads_begin[i] + pads_end[i]; an unknown pad only bounds it below by 0. */
    if (!AddOk(known[1] ? Val(c, 1, i) : 0, known[2] ? Val(c, 2, i) : 0, &P) ||
        !AddOk(d[i].lo, P, &plo))
      REJECT("D_i + pads above 2^63-1 for every instance");
    low[i] = plo;
    if (pads_known && Bounded(d[i]) && !AddOk(d[i].hi, P, &phi)) phi = kMax;
    if (known[0]) {
      /* "block_shape[i] divides data_shape[i] + pads_begin[i] + pads_end[i]" */
      if (SHAPE_BUG == BUG_S2B_INTERVAL_DIVIDE && !is_static && plo != phi)
        out[i] = Iv(plo / BLOCK(i), phi == kUnb ? kUnb : phi / BLOCK(i));
      else if (!DivIv(Iv(plo, phi), BLOCK(i), &out[i]))
        REJECT("no padded size is divisible by block_shape[i]");
    } else {
      /* B unknown: B = padded gives 1 (0 for an empty padded dim), B = 1 gives padded. */
      out[i] = Iv(plo == 0 ? 0 : 1, phi);
    }
  }
  if (!LowsRepresentable(out, (int)rank)) REJECT("every output has more than 2^63-1 elements");
  /* Every instance's output holds batch * B_0 * prod(D_i + P_i) elements (the blocks regroup
   * the padded data): the smallest padded data bounds the count below. (A constant block's
   * lower bounds above are reached together; a non-constant one's are not.) */
  low[0] = d[0].lo;
  if (!known[0]) {
    Dim padded[DMCONF_PLUGIN_MAX_RANK];
    for (i = 0; i < rank; ++i) padded[i] = Exact(low[i]);
    if (!LowsRepresentable(padded, (int)rank))
      REJECT("every output has more than 2^63-1 elements (the padded data)");
  }
  /* OpenVINO-like: "?" wherever an input is not constant (the overflow check above stays:
   * widening an answer must not turn a must_reject case into an accepted one). */
  if (SHAPE_BUG == OPENVINO_LIKE && (!known[0] || !known[1] || !known[2]))
    for (i = 1; i < rank; ++i) out[i] = Any();
  if (SHAPE_BUG == OPENVINO_LIKE && !known[0]) out[0] = Any();
  return BlockAnswer(c, r, out, (int)rank);
}

/* BatchToSpace: [batch / (B_0 * ... * B_{N-1}), D_i * B_i - crops_begin[i] - crops_end[i]].
 * prod(B) divides the batch, so B_i <= batch unless the batch can be 0. */
static int B2sAnswer(const dmconf_shape_case* c, dmconf_shape_result* r, const int* known,
                     const Dim* d, int rank, int is_static) {
  Dim out[DMCONF_PLUGIN_MAX_RANK];
  int64_t low[DMCONF_PLUGIN_MAX_RANK];
  int i;
  const Dim b = d[0];
  const int64_t bmax = b.lo == 0 ? kUnb : b.hi;
  if (known[0]) {
    int64_t prod = 1;
    for (i = 0; i < rank; ++i)
      if (!MulOk(prod, BLOCK(i), &prod)) REJECT("prod(block_shape) above 2^63-1");
    /* "batch divisible by prod(block_shape)" */
    if (!DivIv(b, prod, &out[0])) REJECT("no batch is divisible by prod(block_shape)");
  } else {
    /* batch / P over divisors P >= 1: batch itself (P = 1) down to 1 (P = batch) or 0. */
    out[0] = Iv(b.lo == 0 ? 0 : 1, b.hi);
  }
  for (i = 1; i < rank; ++i) {
    const Dim D = d[i];
    const int crops_known = known[1] && known[2];
    int64_t C, full_hi = kUnb, hi;
    /* "crops_begin[i] + crops_end[i] <= block_shape[i] * D_i"; an unknown crop only bounds
     * the sum below by the known one. */
    if (!AddOk(known[1] ? Val(c, 1, i) : 0, known[2] ? Val(c, 2, i) : 0, &C))
      REJECT("crops_begin + crops_end above 2^63-1");
    if (known[0]) {
      full_hi = Bounded(D) ? MulClamp(D.hi, BLOCK(i)) : UnboundedTimes(BLOCK(i));
    } else if (D.hi == 0) {
      full_hi = 0;
    } else if (Bounded(D) && bmax != kUnb && MulOk(D.hi, bmax, &full_hi)) {
      /* B varies over [1, bmax]. */
    } else if (SHAPE_BUG == TIGHT_BOUNDS && D.lo == D.hi) {
      /* Tight: D_i * B_i of an exact D_i is a multiple of it (issue's repro: D_i = 2^61, batch
       * 4 answers 3 * 2^61 where no accepted instance passes 2^62). */
      full_hi = LargestMultiple(D.hi);
    } else if (Bounded(D) && bmax != kUnb) {
      /* An overflowing D_hi * bmax leaves 2^63-1 as the bound. */
      full_hi = kMax;
    }
    if (full_hi != kUnb && full_hi < C) REJECT("crops exceed D_i * block_shape[i]");
    hi = full_hi == kUnb ? kUnb : full_hi - C;
    if (!crops_known) {
      int64_t full, lo;
      /* "D_i * B_i are representable" whatever the crops; some D * B must hold them. */
      if (known[0] && !MulOk(Max64(D.lo, CeilDiv(C, BLOCK(i))), BLOCK(i), &full))
        REJECT("D_i * block_shape[i] above 2^63-1");
      if (!known[0] && !MinCropped(D.lo, D.hi, bmax, b.lo, b.hi, C, &lo))
        REJECT("crops exceed every D_i * block_shape[i]");
      out[i] = Iv(0, hi);
    } else if (known[0]) {
      const int64_t B = BLOCK(i);
      int64_t full;
      if (SHAPE_BUG == BUG_CROPS_VS_LO && (!MulOk(D.lo, B, &full) || full < C))
        REJECT("crops exceed D_i * block_shape[i]");
      if (!MulOk(Max64(D.lo, CeilDiv(C, B)), B, &full)) REJECT("D_i * block_shape[i] above 2^63-1");
      out[i] = Iv(full - C, hi);
    } else {
      int64_t lo;
      if (!MinCropped(D.lo, D.hi, bmax, b.lo, b.hi, C, &lo))
        REJECT("crops exceed every D_i * block_shape[i]");
      out[i] = Iv(lo, hi);
      /* OpenVINO: D_i * [1, inf) - crop. */
      if (SHAPE_BUG == OPENVINO_LIKE) out[i] = Iv(Max64(D.lo - C, 0), kUnb);
    }
    low[i] = out[i].lo;
    if (SHAPE_BUG == OPENVINO_LIKE && !crops_known) out[i] = Any();
    /* The seeded bug: crops_begin not subtracted (its checks above kept). */
    if (SHAPE_BUG == BUG_CROPS_BEGIN_DROPPED && !is_static && IsPartial(c) && known[1]) {
      out[i].lo += Val(c, 1, i);
      if (Bounded(out[i])) out[i].hi += Val(c, 1, i);
    }
  }
  low[0] = out[0].lo;
  {
    Dim lows[DMCONF_PLUGIN_MAX_RANK];
    for (i = 0; i < rank; ++i) lows[i] = Exact(low[i]);
    if (!LowsRepresentable(lows, (int)rank)) REJECT("every output has more than 2^63-1 elements");
  }
  if (SHAPE_BUG == OPENVINO_LIKE && !known[0]) out[0] = Any();
  return BlockAnswer(c, r, out, (int)rank);
}
#undef BLOCK

static int InferBlock(const dmconf_shape_case* c, dmconf_shape_result* r, int is_static) {
  const int s2b = strcmp(c->op, "SpaceToBatch") == 0;
  const dmconf_int_input* in = c->int_inputs;
  const IntType* types[3];
  Dim len = Iv(0, kUnb), d[DMCONF_PLUGIN_MAX_RANK];
  int any_const = 0, known[3], k, i, big = 0;
  int64_t rank = c->rank, n;
  if (c->num_int_inputs != 3 || in == NULL) return Fail(r, DMCONF_UNSUPPORTED, "3 inputs needed");
  /* "data: N-D tensor [batch, D_1, ..., D_{N-1}], rank >= 2" */
  if (rank >= 0 && rank < 2) REJECT("data rank below 2");
  /* "T2: any supported integer type"; BatchToSpace: one common type. */
  for (k = 0; k < 3; ++k) {
    types[k] = LookupInt(in[k].element_type);
    if (types[k] == NULL) REJECT("block_shape / pads / crops must have an integer type");
    known[k] = in[k].is_constant != 0;
  }
  if (!s2b && (types[0] != types[1] || types[0] != types[2]))
    REJECT("block_shape, crops_begin and crops_end must have one type");
  /* "1-D tensors with shape [N], N the rank of data": the lengths every input admits. */
  for (k = 0; k < 3; ++k) {
    Dim l;
    const int32_t rk = known[k] ? in[k].constant.rank : in[k].rank;
    if (!known[k] && rk == DMCONF_RANK_UNKNOWN) continue;
    if (rk != 1) REJECT("block_shape / pads / crops must be 1-D");
    l = known[k] ? Exact(in[k].constant.shape[0]) : in[k].shape[0];
    any_const |= known[k];
    len.lo = Max64(len.lo, l.lo);
    if (Bounded(l)) len.hi = Bounded(len) ? Min64(len.hi, l.hi) : l.hi;
    if (Bounded(len) && len.lo > len.hi) REJECT("the inputs' lengths admit no common N");
  }
  if (rank >= 0 && (rank < len.lo || (Bounded(len) && rank > len.hi)))
    REJECT("the inputs' length is not the data rank");
  if (rank < 0) {
    /* D-P4: a length fixed by the inputs is the data rank. */
    int64_t lo;
    if (Bounded(len) && len.hi < 2) REJECT("the inputs' length means a data rank below 2");
    lo = Max64(len.lo, 2);
    if (Bounded(len) && len.hi == lo && (any_const || lo <= kMaxImpliedRank)) rank = lo;
  }
  if (SHAPE_BUG == BUG_BLOCK_UNKNOWN_RANK && c->rank < 0) return AnswerUnknownRank(c, r);
  /* Values: block_shape >= 1, pads / crops >= 0, all representable in int64. */
  for (k = 0; k < 3; ++k) {
    if (!known[k]) continue;
    for (n = 0; n < in[k].constant.shape[0]; ++n) {
      int64_t v;
      if (!ReadInt(&in[k].constant, types[k], n, &v, &big))
        return Fail(r, DMCONF_UNSUPPORTED, "a constant is shorter than its shape");
      if (k == 0 ? v < 1 : v < 0)
        REJECT(k == 0 ? "block_shape values must be >= 1" : "pads / crops must be non-negative");
    }
  }
  if (big) REJECT("an integer input value is above 2^63-1");
  if (rank < 0) return AnswerUnknownRank(c, r);
  if (rank > DMCONF_PLUGIN_MAX_RANK) return Fail(r, DMCONF_UNSUPPORTED, "rank above 16");
  for (i = 0; i < rank; ++i) d[i] = c->rank >= 0 ? c->shape[i] : Any();
  if (SHAPE_BUG == BUG_BLOCK_ONES && !known[0]) known[0] = 2; /* non-constant: "all ones" */
  return s2b ? S2bAnswer(c, r, known, d, (int)rank, is_static)
             : B2sAnswer(c, r, known, d, (int)rank, is_static);
}

/* ---- SpaceToDepth / DepthToSpace ---------------------------------------------------------- */

static int64_t DefaultBlockSize(const dmconf_shape_case* c, int d2s, int is_static) {
  if (SHAPE_BUG == BUG_ABSENT_BLOCK_ZERO) return 0;
  if (SHAPE_BUG == BUG_S2D_ABSENT_TWO && !d2s && !is_static && IsPartial(c)) return 2;
  if (SHAPE_BUG == BUG_D2S_ABSENT_TWO && d2s && is_static) return 2;
  return 1;
}

/* C * b^K formed in uint64 and read back as int64: the seeded bug s2d_depth_wrap. */
static Dim WrappedDepth(const dmconf_shape_case* c, int64_t b) {
  uint64_t p = (uint64_t)c->shape[1].lo;
  int i;
  for (i = 0; i < c->rank - 2; ++i) p *= (uint64_t)b;
  return Exact((int64_t)p);
}

static int InferDepth(const dmconf_shape_case* c, dmconf_shape_result* r, int is_static) {
  const int d2s = strcmp(c->op, "DepthToSpace") == 0;
  /* "Default value: 1" (seeded bugs: an absent block_size read as 0 or 2) */
  const int64_t b = c->has_block_size ? c->block_size : DefaultBlockSize(c, d2s, is_static);
  Dim out[DMCONF_PLUGIN_MAX_RANK];
  int64_t bk = 1;
  int bk_ok = 1, i;
  /* "data: input tensor of type T with rank >= 3" */
  if (c->rank >= 0 && c->rank < 3) REJECT("data rank below 3");
  if (SHAPE_BUG == BUG_DEPTH_UNKNOWN_RANK && c->rank < 0) return AnswerUnknownRank(c, r);
  if (b < 1) REJECT("block_size must be a positive integer");
  if (SHAPE_BUG != BUG_DEPTH_MODE_UNCHECKED || is_static || !IsPartial(c)) {
    if (c->mode == NULL) REJECT("mode is required");
    if (strcmp(c->mode, "blocks_first") != 0 && strcmp(c->mode, "depth_first") != 0)
      REJECT("mode must be blocks_first or depth_first");
  }
  if (SHAPE_BUG == BUG_D2S_REFUSE_B1 && is_static && d2s && b == 1)
    REJECT("block_size 1 is not supported");
  if (c->rank < 0) return AnswerUnknownRank(c, r); /* a dynamic rank passes through */
  if (c->rank > DMCONF_PLUGIN_MAX_RANK) return Fail(r, DMCONF_UNSUPPORTED, "rank above 16");
  /* b^K, K = rank - 2 (b = 1: 1 for any K) */
  for (i = 0; b > 1 && i < c->rank - 2 && bk_ok; ++i) bk_ok = MulOk(bk, b, &bk);
  out[0] = c->shape[0];
  if (!d2s) {
    /* SpaceToDepth: [N, C * (block_size ^ K), D1 / block_size, ..., DK / block_size];
     * "The spatial dimensions must be evenly divided by block_size." */
    for (i = 2; i < c->rank; ++i) {
      const Dim in = c->shape[i];
      if (SHAPE_BUG == BUG_S2D_NO_DIVIDE && is_static) {
        out[i] = Exact(in.lo / b);
      } else if (SHAPE_BUG == BUG_S2D_INTERVAL_DIVIDE && !is_static && in.lo != in.hi) {
        out[i] = Iv(in.lo / b, Bounded(in) ? in.hi / b : kUnb);
      } else if (!DivIv(c->shape[i], b, &out[i])) {
        REJECT("a spatial dim is not divisible by block_size");
      }
    }
    if (SHAPE_BUG == BUG_S2D_DEPTH_WRAP && is_static) {
      out[1] = WrappedDepth(c, b);
    } else if (!ScaleIv(c->shape[1], bk_ok, bk, &out[1])) {
      REJECT("C * block_size^K above 2^63-1");
    }
    if (!LowsRepresentable(out, c->rank)) REJECT("every output has more than 2^63-1 elements");
    return Answer(c, r, out, c->rank);
  }
  /* DepthToSpace: [N, C / (block_size ^ K), D1 * block_size, ..., DK * block_size];
   * "The depth dimension size must be evenly divided by block_size ^ (len(input.shape) - 2)":
   * a block_size ^ K above 2^63-1 divides only C = 0. */
  if (!bk_ok) {
    if (c->shape[1].lo > 0) REJECT("depth not divisible by block_size^K");
    out[1] = Exact(0);
  } else if (!DivIv(c->shape[1], bk, &out[1])) {
    REJECT("depth not divisible by block_size^K");
  }
  for (i = 2; i < c->rank; ++i)
    if (!ScaleIv(c->shape[i], 1, b, &out[i])) REJECT("D_i * block_size above 2^63-1");
  if (!LowsRepresentable(out, c->rank)) REJECT("every output has more than 2^63-1 elements");
  return Answer(c, r, out, c->rank);
}

/* ---- ExtractImagePatches ------------------------------------------------------------------ */

static int InferPatches(const dmconf_shape_case* c, dmconf_shape_result* r, int is_static) {
  const int64_t* attr[3] = {c->sizes, c->strides, c->rates};
  const int32_t count[3] = {c->num_sizes, c->num_strides, c->num_rates};
  Dim out[4];
  int64_t factor = 0;
  int valid, a, i;
  /* "data: 4-D tensor [batch, depth, in_rows, in_cols]" */
  if (c->rank >= 0 && c->rank != 4) REJECT("data rank must be 4");
  /* sizes: [size_rows, size_cols] >= 0; strides, rates: two values > 0 (ERRATA E7) */
  for (a = 0; a < 3; ++a) {
    if (count[a] != 2) REJECT("sizes, strides and rates have two values");
    for (i = 0; i < 2; ++i)
      if (attr[a][i] < (a == 0 ? 0 : 1)) REJECT("sizes >= 0, strides and rates > 0");
  }
  if (c->auto_pad == NULL) REJECT("auto_pad is required");
  valid = strcmp(c->auto_pad, "valid") == 0;
  if (!valid && strcmp(c->auto_pad, "same_upper") != 0 && strcmp(c->auto_pad, "same_lower") != 0)
    REJECT("auto_pad must be valid, same_upper or same_lower");
  /* The seeded bug: only same_upper taken as padding. */
  if (SHAPE_BUG == BUG_EIP_LOWER_AS_VALID && !is_static && IsPartial(c))
    valid |= !strcmp(c->auto_pad, "same_lower");
  /* patch_sizes_eff = rate * (size - 1) + 1 must be representable: the attributes alone
   * decide it, so it holds at every rank, an unknown one too. */
  for (i = 0; i < 2 && !(SHAPE_BUG == BUG_EFF_UNKNOWN_RANK && c->rank < 0); ++i) {
    int64_t eff;
    if (!MulOk(c->rates[i], c->sizes[i] - 1, &eff) || !AddOk(eff, 1, &eff))
      REJECT("rate * (size - 1) + 1 above 2^63-1");
  }
  for (i = 0; i < 4; ++i) out[i] = Any();
  /* sizes = 0 is unspecified (E7): refused where an exact answer is due (infer_static);
   * otherwise, and for a dynamic rank, a rank-4 output of "?". */
  if ((c->sizes[0] == 0 || c->sizes[1] == 0) && is_static)
    REJECT("sizes of 0 are unspecified (ERRATA E7): refused");
  if (c->sizes[0] == 0 || c->sizes[1] == 0 || c->rank < 0) return Answer(c, r, out, 4);
  /* Output [batch, size[0] * size[1] * depth, out_rows, out_cols]. */
  out[0] = c->shape[0];
  {
    /* The factor first: C leaves the order of argument evaluation open. */
    const int factor_ok = MulOk(c->sizes[0], c->sizes[1], &factor);
    if (!ScaleIv(c->shape[1], factor_ok, factor, &out[1]))
      REJECT("size_rows * size_cols * depth above 2^63-1");
  }
  for (i = 0; i < 2; ++i) {
    const Dim in = c->shape[2 + i];
    const int64_t s = c->strides[i];
    int64_t eff, x[2] = {0, 0};
    int e;
    /* patch_sizes_eff = rate * (size - 1) + 1 (representable: checked above) */
    MulOk(c->rates[i], c->sizes[i] - 1, &eff);
    eff += 1;
    if (SHAPE_BUG == BUG_EIP_RATES_IGNORED && is_static) eff = c->sizes[i]; /* rates ignored */
    /* valid: out = floor((in - eff) / stride) + 1 if in >= eff, else 0;
     * same_upper / same_lower: out = ceil(in / stride) (ERRATA E8). Non-decreasing in `in`,
     * so the bounds are the images of the input bounds. */
    for (e = 0; e < 2; ++e) {
      const int64_t v = e == 0 ? in.lo : in.hi;
      if (e == 1 && !Bounded(in)) {
        x[1] = kUnb;
      } else if (!valid) {
        x[e] = SHAPE_BUG == BUG_EIP_SAME_FLOOR && is_static ? v / s : CeilDiv(v, s);
      } else {
        x[e] = v >= eff ? (v - eff) / s + 1 : 0;
      }
    }
    out[2 + i] = Iv(x[0], x[1]);
  }
  if (!LowsRepresentable(out, 4)) REJECT("every output has more than 2^63-1 elements");
  return Answer(c, r, out, 4);
}

/* ---- Entries ------------------------------------------------------------------------------ */

static int Infer(const dmconf_shape_case* c, dmconf_shape_result* r, int is_static) {
  if (c->op == NULL || c->element_type == NULL || (c->rank > 0 && c->shape == NULL))
    return Fail(r, DMCONF_UNSUPPORTED, "malformed case");
  if (strcmp(c->op, "SpaceToBatch") == 0 || strcmp(c->op, "BatchToSpace") == 0)
    return InferBlock(c, r, is_static);
  if (strcmp(c->op, "SpaceToDepth") == 0 || strcmp(c->op, "DepthToSpace") == 0)
    return InferDepth(c, r, is_static);
  if (strcmp(c->op, "ExtractImagePatches") == 0) return InferPatches(c, r, is_static);
  return Fail(r, DMCONF_UNSUPPORTED, "unknown op");
}

static int InferStatic(void* state, const dmconf_shape_case* c, dmconf_shape_result* r) {
  (void)state;
  return Infer(c, r, 1);
}

static int InferPartial(void* state, const dmconf_shape_case* c, dmconf_shape_result* r) {
  (void)state;
  return Infer(c, r, 0);
}

#ifndef SHAPE_ONLY
static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  (void)c;
  snprintf(r->message, sizeof(r->message), "shape inference only");
  return DMCONF_UNSUPPORTED;
}
#define RUN_ENTRY Run
#else
/* Built with SHAPE_ONLY: shape inference without kernels (run is NULL; its kernel lane is "not
 * provided", docs/vendor-guide.md). */
#define RUN_ENTRY NULL
#endif

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION,
    "shape-bug",
    (int32_t)(sizeof(kOps) / sizeof(kOps[0])),
    kOps,
    NULL,
    NULL,
    RUN_ENTRY,
    InferStatic,
    InferPartial,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
