/* The tail_copy plugin's table and entry point: BatchToSpace-2, SpaceToBatch-2, DepthToSpace-1
 * and SpaceToDepth-1 kernels (no shape inference) for every element type whose elements are
 * whole bytes. The kernels move data with the row copy helpers of row_copy.c, whose seeded
 * bugs (TAIL_COPY_BUG) are listed at the top of that file. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "conformance/plugins/tail_copy/tail_copy.h"

#define TC_STR2(x) #x
#define TC_STR(x) TC_STR2(x)

static const char* const kByteTypes =
    "boolean,u8,i8,f8e4m3,f8e5m2,f8e8m0,u16,i16,f16,bf16,u32,i32,f32,u64,i64,f64";

static const dmconf_op_support kOps[] = {
    {"BatchToSpace", kByteTypes, 2, 6, NULL},
    {"SpaceToBatch", kByteTypes, 2, 6, NULL},
    {"DepthToSpace", kByteTypes, 3, 6, "blocks_first,depth_first"},
    {"SpaceToDepth", kByteTypes, 3, 6, "blocks_first,depth_first"},
};

int TcReject(dmconf_result* r, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(r->message, sizeof(r->message), fmt, args);
  va_end(args);
  return DMCONF_REJECTED;
}

int TcUnsupported(dmconf_result* r, const char* why) {
  snprintf(r->message, sizeof(r->message), "%s", why);
  return DMCONF_UNSUPPORTED;
}

/* Bytes per element of the whole-byte types (docs/element-types.md); 0 for any other name. */
static int ElementBytes(const char* type) {
  static const struct {
    const char* name;
    int bytes;
  } kTypes[] = {{"boolean", 1}, {"u8", 1},  {"i8", 1},  {"f8e4m3", 1}, {"f8e5m2", 1}, {"f8e8m0", 1},
                {"u16", 2},     {"i16", 2}, {"f16", 2}, {"bf16", 2},   {"u32", 4},    {"i32", 4},
                {"f32", 4},     {"u64", 8}, {"i64", 8}, {"f64", 8}};
  size_t i;
  if (type == NULL) return 0;
  for (i = 0; i < sizeof(kTypes) / sizeof(kTypes[0]); ++i)
    if (strcmp(type, kTypes[i].name) == 0) return kTypes[i].bytes;
  return 0;
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  int64_t count = 1, bytes;
  int i, zero = 0, over = 0;
  (void)state;
  if (c->op == NULL) return TcUnsupported(r, "no op");
  const int esize = ElementBytes(c->data.element_type);
  if (esize == 0) return TcUnsupported(r, "element type not supported");
  if (c->data.rank < 0 || c->data.rank > DMCONF_PLUGIN_MAX_RANK)
    return TcUnsupported(r, "rank not supported");
  /* The data must hold exactly its elements (a zero dim makes an empty tensor). */
  for (i = 0; i < c->data.rank; ++i) {
    if (c->data.shape[i] < 0) return TcReject(r, "negative dim %d", i);
    zero |= c->data.shape[i] == 0;
  }
  for (i = 0; i < c->data.rank && !zero; ++i)
    over |= __builtin_mul_overflow(count, c->data.shape[i], &count);
  if (zero) count = 0;
  if (over || __builtin_mul_overflow(count, (int64_t)esize, &bytes) ||
      (uint64_t)bytes != c->data.byte_size || (count > 0 && c->data.data == NULL))
    return TcReject(r, "data does not hold its elements");
  r->message[0] = '\0';
  if (strcmp(c->op, "BatchToSpace") == 0) return TcBatchToSpace(c, r, esize);
  if (strcmp(c->op, "SpaceToBatch") == 0) return TcSpaceToBatch(c, r, esize);
  if (strcmp(c->op, "DepthToSpace") == 0) return TcDepthOp(c, r, esize, 1);
  if (strcmp(c->op, "SpaceToDepth") == 0) return TcDepthOp(c, r, esize, 0);
  return TcUnsupported(r, "op not supported");
}

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION,
#if TAIL_COPY_BUG == 0
    "tail_copy",
#else
    "tail_copy_bug" TC_STR(TAIL_COPY_BUG),
#endif
    (int32_t)(sizeof(kOps) / sizeof(kOps[0])),
    kOps,
    NULL,
    NULL,
    Run,
    NULL, /* no shape inference: kernels only */
    NULL,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
