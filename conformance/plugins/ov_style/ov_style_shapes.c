/* Shape inference of the OpenVINO-style plugin for SpaceToDepth-1, DepthToSpace-1 and
 * ExtractImagePatches-3, over interval dims (a static case is the case lo == hi). Every output
 * dim grows with every input dim, so the smallest accepted instance decides whether any
 * instance is accepted (errata D4: an output above 2^63-1 elements is must_reject).
 *
 * Seeded bugs in this file (OV_STYLE_BUG):
 *   8 (d2s_depth_mod_block): DepthToSpace, infer_static / infer_partial / run() -> InferDepth,
 *     an exact depth C. The depth is checked as C % block_size == 0 instead of
 *     C % block_size^K == 0 (K = rank - 2), and the output depth is C / block_size^K rounded
 *     down. A correct checker sees false_accept for K >= 2 on a C that block_size divides
 *     and block_size^K does not (data [1, 6, 2, 2], block_size 2, blocks_first: answered
 *     [1, 1, 4, 4]; the spec refuses, 6 % 4 != 0); K = 1 and interval depths are unaffected.
 *  10 (eip_same_interval_floor): ExtractImagePatches, infer_partial -> InferEip, auto_pad
 *     same_upper / same_lower, an interval row or column dim (lo < hi). Both bounds are
 *     divided by the stride rounding down, where the same_* output is ceil(in / stride) (the
 *     exact-dim path stays right). A correct checker sees unsound_shape where the interval's
 *     upper bound is not a multiple of the stride: the instance at that bound has an output
 *     dim one above the answer (data [1, 1, [5, 7], 4], sizes [1, 1], strides [2, 1], rates
 *     [1, 1], same_upper: answered rows [2, 3]; the instance rows 7 gives 4).
 *  12 (s2d_block0_dynrank): SpaceToDepth, infer_partial -> InferDepth, unknown data rank. The
 *     dynamic rank is passed through before block_size is validated (mode still is). A
 *     correct checker sees false_accept on block_size 0 or negative under an unknown rank
 *     (rank unknown, block_size 0, blocks_first: answered rank unknown; the attribute rule
 *     s2d.block_size.positive holds at every rank). Known ranks are unaffected.
 *  15 (eip_eff_rate_size): ExtractImagePatches, infer_static / infer_partial / run() ->
 *     InferEip, auto_pad valid. The effective patch size is taken as rate * size instead of
 *     rate * (size - 1) + 1 (the two agree for rate 1). A correct checker sees wrong_shape
 *     for rates above 1 with in >= the true effective size: rows and columns too small by
 *     up to one (data [1, 1, 10, 10], sizes [3, 3], strides [1, 1], rates [2, 2], valid:
 *     answered [1, 9, 5, 5]; the spec's output is [1, 9, 6, 6]), and false_reject where the
 *     wrong size overflows.
 *  16 (d2s_pow_double): DepthToSpace, infer_static / infer_partial / run() -> InferDepth. The
 *     divisor block_size^K is computed in double arithmetic (as OpenVINO's
 *     (TVal)pow(block_size, K)) and cast to int64; above 2^53 the double is rounded, so the
 *     divisor is off by a few units. A correct checker sees false_reject on a depth that
 *     block_size^K divides exactly (data [1, 18014398777917441, 1, 1], block_size 134217729 =
 *     2^27 + 1, blocks_first: refused, the divisor being read as 2^54 + 2^28; the spec's output
 *     is [1, 1, 134217729, 134217729]), and wrong depths or false_accept near such divisors.
 *  17 (s2d_pow_u32): SpaceToDepth, infer_static / infer_partial / run() -> InferDepth. The
 *     depth factor block_size^K is multiplied in uint32 arithmetic (an unsigned block size),
 *     which wraps modulo 2^32 unnoticed, and the output depth is C times the wrapped factor. A
 *     correct checker sees wrong_shape where block_size^K is 2^32 or above (data [1, 1, 65536,
 *     65536], block_size 65536, blocks_first: answered [1, 0, 1, 1]; the spec's output is
 *     [1, 4294967296, 1, 1]). Factors below 2^32 are unaffected.
 *  20 (eip_valid_fit_strict): ExtractImagePatches, infer_static / infer_partial / run() ->
 *     PatchOut, auto_pad valid. A patch is taken to fit only where in > eff, not in >= eff:
 *     an input exactly one effective patch wide gives 0 patches instead of 1. A correct
 *     checker sees wrong_shape (data [1, 1, 3, 3], sizes [3, 3], strides [1, 1], rates [1, 1],
 *     valid: answered [1, 9, 0, 0]; the spec's output is [1, 9, 1, 1]); same_* is unaffected.
 *  21 (eip_count_double): ExtractImagePatches, infer_static / infer_partial / run() ->
 *     InferEip. The "output above 2^63-1 elements" check multiplies the output dims in double
 *     arithmetic and compares with (double)INT64_MAX, which is 2^63: an output of exactly 2^63
 *     elements (or a little more, lost in rounding) passes. A correct checker sees
 *     false_accept (data [1, 1, 2^31, 2^31], sizes [2, 1], strides [1, 1], rates [1, 1],
 *     same_upper: answered [1, 2, 2^31, 2^31], 2^63 elements; the spec's D4 rule refuses). */
#include <stdio.h>
#include <string.h>

#include "conformance/plugins/ov_style/ov_style.h"

#define REJECT(...)                               \
  do {                                            \
    snprintf(msg, (size_t)msg_size, __VA_ARGS__); \
    return DMCONF_REJECTED;                       \
  } while (0)

/* The smallest output (every dim at its lower bound) has at most 2^63-1 elements. */
static int MinCountFits(const OvShape* s) {
  int64_t n = 1;
  int i;
  for (i = 0; i < s->rank; ++i)
    if (s->dim[i].lo == 0) return 1;
  for (i = 0; i < s->rank; ++i)
    if (OvMul(n, s->dim[i].lo, &n)) return 0;
  return 1;
}

/* b^k, 1 on overflow. */
static int Pow(int64_t b, int k, int64_t* r) {
  int i;
  *r = 1;
  for (i = 0; i < k; ++i)
    if (OvMul(*r, b, r)) return 1;
  return 0;
}

/* [lo, hi] * m for the accepted values (x * m <= 2^63-1); an unbounded hi stays unbounded. */
static int Scale(OvIv in, int64_t m, int m_over, OvIv* out) {
  if (m_over) { /* only 0 * m is representable */
    if (in.lo > 0) return 0;
    out->lo = out->hi = 0;
    return 1;
  }
  if (in.lo > OV_MAX / m) return 0;
  out->lo = in.lo * m;
  out->hi = OV_UNBOUNDED(in) ? OV_MAX : (in.hi > OV_MAX / m ? OV_MAX / m : in.hi) * m;
  return 1;
}

/* [lo, hi] / d where d divides: [ceil(lo / d), floor(hi / d)] (OpenVINO's Dimension division,
 * floor((2^63-1) / d) for an unbounded hi); 0 when no multiple of d lies inside. */
static int Divide(OvIv in, int64_t d, int d_over, OvIv* out) {
  if (d_over) { /* d above 2^63-1 divides 0 only */
    if (in.lo > 0) return 0;
    out->lo = out->hi = 0;
    return 1;
  }
  out->lo = OvCeilDiv(in.lo, d);
  out->hi = in.hi / d;
  return out->lo <= out->hi;
}

static int CheckMode(const OvShapeCase* c, const char* op, char* msg, int msg_size) {
  /* "mode: Required: yes"; "Range of values: blocks_first, depth_first". */
  if (c->mode == NULL) REJECT("%s.mode.required: mode is absent", op);
  if (strcmp(c->mode, "blocks_first") != 0 && strcmp(c->mode, "depth_first") != 0)
    REJECT("%s.mode.enum: mode '%s'", op, c->mode);
  return DMCONF_OK;
}

/* DepthToSpace-1 / SpaceToDepth-1. D2S output [N, C / (block_size ^ K), D1 * block_size, ...];
 * S2D output [N, C * (block_size ^ K), D1 / block_size, ...]; K = rank - 2. block_size:
 * "a positive integer", "Default value: 1". */
static int InferDepth(const OvShapeCase* c, OvShape* o, char* msg, int msg_size) {
  const int d2s = c->op == kOvD2S;
  const char* op = d2s ? "d2s" : "s2d";
  const int64_t b = c->has_block_size ? c->block_size : 1;
  int64_t bk = 1;
  int i, over;
  if (c->rank >= 0 && c->rank < 3) REJECT("%s.data.rank: rank %d is below 3", op, c->rank);
#if OV_STYLE_BUG == 12 /* bug 12: a dynamic rank passed through before block_size is checked */
  if (!d2s && c->rank < 0) {
    if (CheckMode(c, op, msg, msg_size) != DMCONF_OK) return DMCONF_REJECTED;
    o->rank = c->rank;
    return DMCONF_OK;
  }
#endif
  if (b < 1) REJECT("%s.block_size.positive: block_size %lld", op, (long long)b);
  if (CheckMode(c, op, msg, msg_size) != DMCONF_OK) return DMCONF_REJECTED;
  o->rank = c->rank;
  if (c->rank < 0) return DMCONF_OK; /* a dynamic rank passes through */
  over = Pow(b, c->rank - 2, &bk);
#if OV_STYLE_BUG == 16 /* bug 16: the divisor block_size^K computed as a double */
  if (d2s) {
    double p = 1;
    for (i = 0; i < c->rank - 2; ++i) p *= (double)b;
    over = p >= 9223372036854775808.0; /* 2^63 */
    bk = over ? OV_MAX : (int64_t)p;
  }
#endif
#if OV_STYLE_BUG == 17 /* bug 17: the depth factor block_size^K multiplied in uint32 */
  if (!d2s) {
    uint32_t p = 1;
    for (i = 0; i < c->rank - 2; ++i) p *= (uint32_t)b;
    over = 0;
    bk = (int64_t)p;
  }
#endif
  o->dim[0] = c->dim[0];
  if (d2s) {
#if OV_STYLE_BUG == 8 /* bug 8: an exact depth checked against block_size, not block_size^K */
    if (c->dim[1].lo == c->dim[1].hi && !over) {
      if (c->dim[1].lo % b != 0)
        REJECT("d2s.block_size.divides: depth %lld is not a multiple of block_size",
               (long long)c->dim[1].lo);
      o->dim[1].lo = o->dim[1].hi = c->dim[1].lo / bk;
    } else if (!Divide(c->dim[1], bk, over, &o->dim[1]))
      REJECT("d2s.block_size.divides: no depth in [%lld, %lld] is a multiple of block_size^K",
             (long long)c->dim[1].lo, (long long)c->dim[1].hi);
#else
    if (!Divide(c->dim[1], bk, over, &o->dim[1]))
      REJECT("d2s.block_size.divides: no depth in [%lld, %lld] is a multiple of block_size^K",
             (long long)c->dim[1].lo, (long long)c->dim[1].hi);
#endif
#if OV_STYLE_BUG == 17 /* bug 17: a wrapped factor of 0 gives a depth of 0 */
  } else if (bk == 0) {
    o->dim[1].lo = o->dim[1].hi = 0;
#endif
  } else if (!Scale(c->dim[1], bk, over, &o->dim[1])) {
    REJECT("s2d.output.representable: C * block_size^K above 2^63-1");
  }
  for (i = 2; i < c->rank; ++i) {
    if (d2s ? !Scale(c->dim[i], b, 0, &o->dim[i]) : !Divide(c->dim[i], b, 0, &o->dim[i]))
      REJECT(d2s ? "d2s.output.representable: D%d * block_size above 2^63-1"
                 : "s2d.block_size.divides: D%d has no multiple of block_size",
             i - 1);
  }
  if (!MinCountFits(o)) REJECT("%s.output.representable: output above 2^63-1 elements", op);
  return DMCONF_OK;
}

/* ExtractImagePatches-3 (errata E7, E8): eff = rate * (size - 1) + 1; valid: out = (in - eff)
 * / stride + 1 if in >= eff else 0; same_*: out = ceil(in / stride). */
static int64_t PatchOut(int64_t in, int64_t eff, int64_t stride, int same) {
  if (same) return OvCeilDiv(in, stride);
#if OV_STYLE_BUG == 20 /* bug 20: a patch fits only in an input wider than it */
  return in > eff ? (in - eff) / stride + 1 : 0;
#else
  return in >= eff ? (in - eff) / stride + 1 : 0;
#endif
}

static int CheckEipAttrs(const OvShapeCase* c, int64_t eff[2], int* same, char* msg, int msg_size) {
  int i;
  if (c->num_sizes != 2) REJECT("eip.sizes.length: %d values", c->num_sizes);
  if (c->num_strides != 2) REJECT("eip.strides.length: %d values", c->num_strides);
  if (c->num_rates != 2) REJECT("eip.rates.length: %d values", c->num_rates);
  for (i = 0; i < 2; ++i) {
    if (c->sizes[i] < 0)
      REJECT("eip.sizes.nonnegative: sizes[%d] = %lld", i, (long long)c->sizes[i]);
    if (c->strides[i] < 1)
      REJECT("eip.strides.positive: strides[%d] = %lld", i, (long long)c->strides[i]);
    if (c->rates[i] < 1) REJECT("eip.rates.positive: rates[%d] = %lld", i, (long long)c->rates[i]);
  }
  if (c->auto_pad == NULL) REJECT("eip.auto_pad.required: auto_pad is absent");
  *same = strcmp(c->auto_pad, "same_upper") == 0 || strcmp(c->auto_pad, "same_lower") == 0;
  if (!*same && strcmp(c->auto_pad, "valid") != 0)
    REJECT("eip.auto_pad.enum: auto_pad '%s'", c->auto_pad);
  for (i = 0; i < 2; ++i) {
    if (c->sizes[i] >= 1 && (OvMul(c->rates[i], c->sizes[i] - 1, &eff[i]) ||
                             __builtin_add_overflow(eff[i], 1, &eff[i])))
      REJECT("eip.output.representable: the effective patch size of axis %d above 2^63-1", i);
  }
  /* sizes = 0 defines no output (errata E7, unspecified): refused. */
  if (c->sizes[0] == 0 || c->sizes[1] == 0) REJECT("eip.sizes.zero: an empty patch");
  return DMCONF_OK;
}

static int InferEip(const OvShapeCase* c, OvShape* o, char* msg, int msg_size) {
  int64_t eff[2] = {1, 1}, ss;
  int i, same = 0, over;
  if (c->rank >= 0 && c->rank != 4) REJECT("eip.data.rank: rank %d is not 4", c->rank);
  if (CheckEipAttrs(c, eff, &same, msg, msg_size) != DMCONF_OK) return DMCONF_REJECTED;
#if OV_STYLE_BUG == 15 /* bug 15: the effective patch size taken as rate * size */
  for (i = 0; i < 2; ++i)
    if (OvMul(c->rates[i], c->sizes[i], &eff[i]))
      REJECT("eip.output.representable: the effective patch size of axis %d above 2^63-1", i);
#endif
  o->rank = 4;
  if (c->rank < 0) { /* OpenVINO: a rank-4 dynamic output */
    for (i = 0; i < 4; ++i) o->dim[i].lo = 0, o->dim[i].hi = OV_MAX;
    return DMCONF_OK;
  }
  over = OvMul(c->sizes[0], c->sizes[1], &ss);
  o->dim[0] = c->dim[0];
  if (!Scale(c->dim[1], ss, over, &o->dim[1]))
    REJECT("eip.output.representable: size[0] * size[1] * depth above 2^63-1");
  for (i = 0; i < 2; ++i) {
    const OvIv in = c->dim[2 + i];
    o->dim[2 + i].lo = PatchOut(in.lo, eff[i], c->strides[i], same);
    o->dim[2 + i].hi = OV_UNBOUNDED(in) ? OV_MAX : PatchOut(in.hi, eff[i], c->strides[i], same);
#if OV_STYLE_BUG == 10 /* bug 10: an interval divided by the stride rounding down */
    if (same && in.lo < in.hi) {
      o->dim[2 + i].lo = in.lo / c->strides[i];
      o->dim[2 + i].hi = OV_UNBOUNDED(in) ? OV_MAX : in.hi / c->strides[i];
    }
#endif
  }
#if OV_STYLE_BUG == 21 /* bug 21: the output count checked in double against 2^63 */
  {
    double count = 1;
    for (i = 0; i < 4; ++i) count *= (double)o->dim[i].lo;
    if (count > (double)OV_MAX) REJECT("eip.output.representable: output above 2^63-1 elements");
  }
#else
  if (!MinCountFits(o)) REJECT("eip.output.representable: output above 2^63-1 elements");
#endif
  return DMCONF_OK;
}

int OvInfer(const OvShapeCase* c, OvShape* out, char* msg, int msg_size) {
  memset(out, 0, sizeof(*out));
  switch (c->op) {
    case kOvS2D:
    case kOvD2S:
      return InferDepth(c, out, msg, msg_size);
    case kOvEip:
      return InferEip(c, out, msg, msg_size);
    case kOvS2B:
    case kOvB2S:
      return OvInferBlocks(c, out, msg, msg_size);
    default:
      REJECT("case.op.known: unknown op");
  }
}
