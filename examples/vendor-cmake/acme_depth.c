/* An example vendor plugin: DepthToSpace-1 and SpaceToDepth-1, f32, 4-D (NCHW), both modes.
 * Built by examples/vendor-cmake/CMakeLists.txt against the installed dmconf package.
 *
 * DepthToSpace, b = block_size, C' = C / b^2, for i, j in [0, b):
 *   blocks_first: out[n, c, h*b + i, w*b + j] = in[n, (i*b + j) * C' + c, h, w]
 *   depth_first:  out[n, c, h*b + i, w*b + j] = in[n, c * b^2 + i*b + j, h, w]
 * SpaceToDepth is its inverse: out[n, <the same channel>, h, w] = in[n, c, h*b + i, w*b + j]. */
#include <dmconf/dmconf_plugin.h>
#include <stdio.h>
#include <string.h>

static const dmconf_op_support kOps[] = {
    {"DepthToSpace", "f32", 4, 4, "blocks_first,depth_first"},
    {"SpaceToDepth", "f32", 4, 4, "blocks_first,depth_first"},
};

static int Reject(dmconf_result* r, const char* why) {
  snprintf(r->message, sizeof(r->message), "%s", why);
  return DMCONF_REJECTED;
}

/* The input channel of output element (c, i, j) for DepthToSpace, or the output channel of
 * input element (c, i, j) for SpaceToDepth: the same formula, cd = C / b^2 or C. */
static int64_t Channel(int depth_first, int64_t c, int64_t i, int64_t j, int64_t b, int64_t cd) {
#ifdef ACME_SEEDED_BUG
  depth_first = 0;
#endif
  return depth_first ? c * b * b + i * b + j : (i * b + j) * cd + c;
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  const int d2s = strcmp(c->op, "DepthToSpace") == 0;
  if (c->data.rank != 4) return Reject(r, "data rank must be 4");
  if (c->mode == NULL) return Reject(r, "mode is required");
  const int depth_first = strcmp(c->mode, "depth_first") == 0;
  if (!depth_first && strcmp(c->mode, "blocks_first") != 0) return Reject(r, "unknown mode");
  const int64_t b = c->has_block_size ? c->block_size : 1; /* the spec's default */
  if (b < 1) return Reject(r, "block_size must be positive");
  const int64_t* s = c->data.shape;
  int64_t bb, out[4] = {s[0], s[1], s[2], s[3]};
  if (__builtin_mul_overflow(b, b, &bb)) bb = -1; /* above 2^63-1: divides only 0 */
  if (d2s) {
    if (bb < 0 ? s[1] != 0 : s[1] % bb != 0) return Reject(r, "C is not divisible by b^2");
    out[1] = bb < 0 ? 0 : s[1] / bb;
    if (__builtin_mul_overflow(s[2], b, &out[2]) || __builtin_mul_overflow(s[3], b, &out[3]))
      return Reject(r, "output dim above 2^63-1");
  } else {
    if (s[2] % b != 0 || s[3] % b != 0) return Reject(r, "H and W must be divisible by b");
    if (bb < 0 ? s[1] != 0 : __builtin_mul_overflow(s[1], bb, &out[1]))
      return Reject(r, "output channels above 2^63-1");
    if (bb < 0) out[1] = 0;
    out[2] = s[2] / b;
    out[3] = s[3] / b;
  }
  r->element_type = "f32";
  r->rank = 4;
  memcpy(r->shape, out, sizeof(out));
  const uint64_t count = c->data.byte_size / sizeof(float); /* the same elements, moved */
  float* o = (float*)r->alloc_output(r, count * sizeof(float));
  if (o == NULL) return Reject(r, "output too large");
  if (count == 0) return DMCONF_OK;
  const float* in = (const float*)c->data.data;
  /* Walk the small side (4-D, b^2 divides the channel count or H, W are multiples of b). */
  const int64_t N = s[0], Cs = d2s ? out[1] : s[1], H = d2s ? s[2] : out[2],
                W = d2s ? s[3] : out[3];
  const int64_t Cb = d2s ? s[1] : out[1]; /* the channel count of the deep side */
  for (int64_t n = 0; n < N; ++n)
    for (int64_t ch = 0; ch < Cs; ++ch)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < b; ++i)
          for (int64_t w = 0; w < W; ++w)
            for (int64_t j = 0; j < b; ++j) {
              const int64_t deep =
                  ((n * Cb + Channel(depth_first, ch, i, j, b, Cs)) * H + h) * W + w;
              const int64_t wide = ((n * Cs + ch) * H * b + h * b + i) * W * b + w * b + j;
              if (d2s)
                o[wide] = in[deep];
              else
                o[deep] = in[wide];
            }
  return DMCONF_OK;
}

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION, "acme-depth", 2, kOps, NULL, NULL, Run, NULL, NULL,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
