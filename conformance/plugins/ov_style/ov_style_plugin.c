/* The OpenVINO-style plugin's C ABI (harness/plugin/dmconf_plugin.h, version 2): every op, every
 * element type, ranks 0..16 (illegal ranks are refused by the shape rules), kernels, static and
 * partial shape inference. See ov_style.h. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "conformance/plugins/ov_style/ov_style.h"

static const dmconf_op_support kOps[] = {
    {"SpaceToBatch", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
    {"BatchToSpace", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
    {"SpaceToDepth", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
    {"DepthToSpace", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
    {"ExtractImagePatches", NULL, 0, DMCONF_PLUGIN_MAX_RANK, NULL},
};

static void CopyAttrs(OvShapeCase* s, const char* op, int has_b, int64_t b, const char* mode,
                      int ns, int nt, int nr, const int64_t* sizes, const int64_t* strides,
                      const int64_t* rates, const char* auto_pad) {
  s->op = OvOpOf(op);
  s->has_block_size = has_b;
  s->block_size = b;
  s->mode = mode;
  s->num_sizes = ns;
  s->num_strides = nt;
  s->num_rates = nr;
  s->sizes = sizes;
  s->strides = strides;
  s->rates = rates;
  s->auto_pad = auto_pad;
}

/* A partial integer input: a constant (decoded) or a type and a (partial) shape. */
static void FromIntInput(const dmconf_int_input* in, OvIntIn* out) {
  if (in->is_constant) {
    OvDecodeInts(&in->constant, out);
    return;
  }
  memset(out, 0, sizeof(*out));
  out->type = in->element_type;
  out->rank = in->rank;
  out->len.lo = 0;
  out->len.hi = OV_MAX;
  if (in->rank == 1) {
    out->len.lo = in->shape[0].lo;
    out->len.hi = in->shape[0].hi == DMCONF_UNBOUNDED ? OV_MAX : in->shape[0].hi;
  }
}

static int Infer(const dmconf_shape_case* c, dmconf_shape_result* r, int strict) {
  OvShapeCase s;
  OvShape o;
  int i, rc;
  memset(&s, 0, sizeof(s));
  CopyAttrs(&s, c->op, c->has_block_size, c->block_size, c->mode, c->num_sizes, c->num_strides,
            c->num_rates, c->sizes, c->strides, c->rates, c->auto_pad);
  s.type = c->element_type;
  s.strict = strict;
  s.rank = c->rank;
  if (c->rank > DMCONF_PLUGIN_MAX_RANK) return DMCONF_UNSUPPORTED;
  for (i = 0; i < c->rank; ++i) {
    s.dim[i].lo = c->shape[i].lo;
    s.dim[i].hi = c->shape[i].hi == DMCONF_UNBOUNDED ? OV_MAX : c->shape[i].hi;
  }
  s.num_int = c->num_int_inputs;
  for (i = 0; i < c->num_int_inputs && i < 3; ++i) FromIntInput(&c->int_inputs[i], &s.in[i]);
  if (OvElementBits(c->element_type) == 0) {
    snprintf(r->message, sizeof(r->message), "case.element_type.known: %s", c->element_type);
    return DMCONF_REJECTED;
  }
  rc = OvInfer(&s, &o, r->message, (int)sizeof(r->message));
  if (rc != DMCONF_OK) return rc;
  r->element_type = c->element_type;
  r->rank = o.rank;
  for (i = 0; i < o.rank; ++i) r->shape[i] = (dmconf_dim){o.dim[i].lo, o.dim[i].hi};
  return DMCONF_OK;
}

static int InferStatic(void* state, const dmconf_shape_case* c, dmconf_shape_result* r) {
  (void)state;
  return Infer(c, r, 1);
}

static int InferPartial(void* state, const dmconf_shape_case* c, dmconf_shape_result* r) {
  (void)state;
  return Infer(c, r, 0);
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  OvShapeCase s;
  OvShape o;
  int64_t total = 1;
  int i, rc;
  void* dst;
  (void)state;
#if OV_STYLE_BUG == 4 /* bug 4: a crash at rank >= 6 (an index array sized for rank 5) */
  if (c->data.rank >= 6) raise(SIGSEGV);
#elif OV_STYLE_BUG == 5 /* bug 5: a hang for block_size > 4 (a lookup table built to 4) */
  if (c->has_block_size && c->block_size > 4) {
    for (;;) pause();
  }
#endif
  memset(&s, 0, sizeof(s));
  CopyAttrs(&s, c->op, c->has_block_size, c->block_size, c->mode, c->num_sizes, c->num_strides,
            c->num_rates, c->sizes, c->strides, c->rates, c->auto_pad);
  s.type = c->data.element_type;
  s.strict = 1;
  s.rank = c->data.rank;
  if (OvElementBits(s.type) == 0) {
    snprintf(r->message, sizeof(r->message), "case.element_type.known: %s", s.type);
    return DMCONF_REJECTED;
  }
  if (c->data.rank > DMCONF_PLUGIN_MAX_RANK) return DMCONF_UNSUPPORTED;
  for (i = 0; i < c->data.rank; ++i) s.dim[i].lo = s.dim[i].hi = c->data.shape[i];
  s.num_int = c->num_int_inputs;
  for (i = 0; i < c->num_int_inputs && i < 3; ++i) OvDecodeInts(&c->int_inputs[i], &s.in[i]);
  rc = OvInfer(&s, &o, r->message, (int)sizeof(r->message));
  if (rc != DMCONF_OK) return rc;
  r->element_type = c->data.element_type;
  r->rank = o.rank;
  for (i = 0; i < o.rank; ++i) r->shape[i] = o.dim[i].lo;
  for (i = 0; i < o.rank; ++i) {
    if (o.dim[i].lo == 0) total = 0; /* an empty output, however large its other dims */
  }
  for (i = 0; i < o.rank && total != 0; ++i) {
    /* An answer whose element count is above 2^63-1 (only a seeded bug gives one) has no
     * output to write. */
    if (__builtin_mul_overflow(total, o.dim[i].lo, &total)) {
      snprintf(r->message, sizeof(r->message), "output element count above 2^63-1");
      return DMCONF_REJECTED;
    }
  }
  {
    const uint64_t bytes = OvPackedBytes(OvElementBits(s.type), total);
    dst = r->alloc_output(r, bytes);
    if (dst == NULL && bytes != 0) {
      snprintf(r->message, sizeof(r->message), "output of %llu bytes refused",
               (unsigned long long)bytes);
      return DMCONF_UNSUPPORTED;
    }
    if (bytes != 0) memset(dst, 0, bytes);
  }
  OvRunKernel(c, &s, &o, dst);
  return DMCONF_OK;
}

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION, "ov_style", 5, kOps, NULL, NULL, Run, InferStatic, InferPartial,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
