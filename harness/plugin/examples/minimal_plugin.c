/* The smallest useful dmconf plugin: DepthToSpace-1, f32, 4-D, blocks_first.
 * docs/vendor-guide.md walks through it; the tests run it through the C ABI.
 * out[n, c, y, x] = in[n, ((y % b) * b + x % b) * C_out + c, y / b, x / b] */
#include <stdio.h>
#include <string.h>

#include "harness/plugin/dmconf_plugin.h"

static const dmconf_op_support kOps[] = {
    {"DepthToSpace", "f32", 4, 4, "blocks_first"},
};

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  const int64_t* s = c->data.shape;
  const int64_t b = c->has_block_size ? c->block_size : 1;
  if (c->data.rank != 4) { /* ranks below 3 are illegal: dmconf runs them whatever we declare */
    snprintf(r->message, sizeof(r->message), "data rank must be 4");
    return DMCONF_REJECTED;
  }
  if (c->mode == NULL || strcmp(c->mode, "blocks_first") != 0) {
    snprintf(r->message, sizeof(r->message), "mode must be blocks_first");
    return DMCONF_REJECTED;
  }
  /* Every product is overflow-checked: dims may be near 2^63 (a zero dim makes a tensor
   * without data). A b * b above 2^63-1 divides only C = 0. */
  int64_t bb = 0, h, w, total = 0;
  const int bb_over = b < 1 || __builtin_mul_overflow(b, b, &bb);
  if (b < 1 || (bb_over ? s[1] != 0 : s[1] % bb != 0)) {
    snprintf(r->message, sizeof(r->message), "bad block_size %lld", (long long)b);
    return DMCONF_REJECTED;
  }
  const int64_t n = s[0], cout = bb_over ? 0 : s[1] / bb;
  if (__builtin_mul_overflow(s[2], b, &h) || __builtin_mul_overflow(s[3], b, &w) ||
      (n && cout && h && w &&
       (__builtin_mul_overflow(n, cout, &total) || __builtin_mul_overflow(total, h, &total) ||
        __builtin_mul_overflow(total, w, &total)))) {
    snprintf(r->message, sizeof(r->message), "output above 2^63-1");
    return DMCONF_REJECTED;
  }
  r->element_type = "f32";
  r->rank = 4;
  r->shape[0] = n;
  r->shape[1] = cout;
  r->shape[2] = h;
  r->shape[3] = w;
  /* As many elements as the data (a rearrangement): the byte count is the data's. */
  float* out = (float*)r->alloc_output(r, (uint64_t)total * sizeof(float));
  if (total == 0) return DMCONF_OK;
  if (out == NULL) return DMCONF_REJECTED;
  const float* in = (const float*)c->data.data;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t ch = 0; ch < cout; ++ch)
      for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
          const int64_t in_c = ((y % b) * b + x % b) * cout + ch;
          *out++ = in[((i * s[1] + in_c) * s[2] + y / b) * s[3] + x / b];
        }
  return DMCONF_OK;
}

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION, "minimal", 1, kOps, NULL, NULL, Run, NULL, NULL,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
