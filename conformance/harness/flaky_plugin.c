/* A DepthToSpace-1 plugin (f32, 4-D, blocks_first, the formula of the minimal example plugin)
 * that answers right or wrong by its own call count, not by the case: the target of the
 * replay check that tells a flaky failure from a deterministic one (harness/shrink/replay.h).
 *
 * Built once per variant (FLAKY_MODE, conformance/harness/CMakeLists.txt):
 *   1  alternating    the 1st, 3rd, 5th, ... call of run() in a worker adds 1 to the first
 *                     output element; the others are right. Any two calls in a row disagree,
 *                     so every failure's replays disagree: flaky, never shrunk.
 *   0  always_wrong   every call adds 1 to the first output element: a deterministic
 *                     wrong_values, which must stay wrong_values and be shrunk.
 * out[n, c, y, x] = in[n, ((y % b) * b + x % b) * C_out + c, y / b, x / b] */
#include <stdio.h>
#include <string.h>

#include "harness/plugin/dmconf_plugin.h"

static const dmconf_op_support kOps[] = {
    {"DepthToSpace", "f32", 4, 4, "blocks_first"},
};

static unsigned long long g_calls = 0; /* run() calls in this worker process */

static int Refuse(dmconf_result* r, const char* why) {
  snprintf(r->message, sizeof(r->message), "%s", why);
  return DMCONF_REJECTED;
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  const unsigned long long call = ++g_calls;
  const int64_t* s = c->data.shape;
  const int64_t b = c->has_block_size ? c->block_size : 1;
  if (c->data.rank != 4) return Refuse(r, "data rank must be 4");
  if (c->mode == NULL || strcmp(c->mode, "blocks_first") != 0) {
    return Refuse(r, "mode must be blocks_first");
  }
  int64_t bb = 0, h, w, total = 0;
  const int bb_over = b < 1 || __builtin_mul_overflow(b, b, &bb);
  if (b < 1 || (bb_over ? s[1] != 0 : s[1] % bb != 0)) return Refuse(r, "bad block_size");
  const int64_t n = s[0], cout = bb_over ? 0 : s[1] / bb;
  if (__builtin_mul_overflow(s[2], b, &h) || __builtin_mul_overflow(s[3], b, &w) ||
      (n && cout && h && w &&
       (__builtin_mul_overflow(n, cout, &total) || __builtin_mul_overflow(total, h, &total) ||
        __builtin_mul_overflow(total, w, &total)))) {
    return Refuse(r, "output above 2^63-1");
  }
  r->element_type = "f32";
  r->rank = 4;
  r->shape[0] = n;
  r->shape[1] = cout;
  r->shape[2] = h;
  r->shape[3] = w;
  float* out = (float*)r->alloc_output(r, (uint64_t)total * sizeof(float));
  if (total == 0) return DMCONF_OK;
  if (out == NULL) return Refuse(r, "no memory");
  float* first = out;
  const float* in = (const float*)c->data.data;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t ch = 0; ch < cout; ++ch)
      for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
          const int64_t in_c = ((y % b) * b + x % b) * cout + ch;
          *out++ = in[((i * s[1] + in_c) * s[2] + y / b) * s[3] + x / b];
        }
  if (FLAKY_MODE == 0 || call % 2 == 1) *first += 1.0f;
  return DMCONF_OK;
}

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION, "flaky", 1, kOps, NULL, NULL, Run, NULL, NULL,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
