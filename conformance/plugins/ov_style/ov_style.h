/* The OpenVINO-style plugin: a second, independent implementation of the five ops (kernels
 * for every element type, static and partial shape inference) written from the specification
 * text (/spec) and the errata ledger (docs/errata.md, docs/errata-partial.md), following
 * OpenVINO's conventions wherever the specification allows them: 2^63-1 as the upper bound of
 * an unbounded dim, [a, inf) / d = [ceil(a / d), floor((2^63-1) / d)], dynamic rank passed
 * through by DepthToSpace / SpaceToDepth, a rank-4 `?` output for ExtractImagePatches of
 * unknown rank, `?` dims where a block_shape is not constant. It is a test asset of the
 * false-positive hunt (docs/false-positive-hunt.md): dmconf must pass it with no failure.
 *
 * OV_STYLE_BUG (0 = none) selects a seeded bug met during the hunt: each is a variant that
 * dmconf must catch (conformance/plugins/ov_style/CMakeLists.txt registers them). Bugs 4 and 5
 * are hostile ones for the threshold search of shrinking (harness/shrink/threshold.h): run()
 * crashes at rank >= 6 (4), or hangs for block_size > 4 (5); below, it answers correctly. */
#ifndef DMCONF_CONFORMANCE_PLUGINS_OV_STYLE_H_
#define DMCONF_CONFORMANCE_PLUGINS_OV_STYLE_H_

#include <stdint.h>

#include "harness/plugin/dmconf_plugin.h"

#ifndef OV_STYLE_BUG
#define OV_STYLE_BUG 0
#endif

#define OV_MAX INT64_MAX /* an upper bound of 2^63-1 means "unbounded" (ov::Interval s_max) */
#define OV_MAX_VALUES 64
/* An interval without an upper bound: hi 2^63-1 (and not an exact dim of 2^63-1, which a
 * static answer must keep exact). */
#if OV_STYLE_BUG == 1
#define OV_UNBOUNDED(iv) ((iv).hi == OV_MAX) /* bug 1: an exact 2^63-1 read as unbounded */
#else
#define OV_UNBOUNDED(iv) ((iv).hi == OV_MAX && (iv).lo < (iv).hi)
#endif /* constant values kept per integer input */

typedef enum { kOvS2B, kOvB2S, kOvS2D, kOvD2S, kOvEip, kOvUnknownOp } OvOp;

/* An interval of int64 values, 0 <= lo <= hi <= OV_MAX. */
typedef struct {
  int64_t lo, hi;
} OvIv;

/* An integer input (block_shape, pads, crops) as shape inference sees it. */
typedef struct {
  const char* type;
  int is_constant;
  int rank;                 /* -1: unknown (non-constant only) */
  OvIv len;                 /* its length as an interval (a constant's is exact) */
  int64_t n;                /* constant: number of values */
  int64_t v[OV_MAX_VALUES]; /* constant: values (saturated to int64) */
  int64_t vmin;             /* constant: the smallest value (INT64_MAX when empty) */
  int any_huge;             /* constant: some value above 2^63-1 (u64) */
} OvIntIn;

/* A case for shape inference: static (every dim exact, constants) or partial. */
typedef struct {
  OvOp op;
  const char* type;
  int rank; /* -1: unknown */
  OvIv dim[DMCONF_PLUGIN_MAX_RANK];
  int num_int;
  OvIntIn in[3];
  int has_block_size;
  int64_t block_size;
  const char* mode;
  int num_sizes, num_strides, num_rates;
  const int64_t *sizes, *strides, *rates;
  const char* auto_pad;
  int strict; /* static entry / run(): refuse the unspecified cases too (E5, E7 sizes 0) */
} OvShapeCase;

/* The answer: rank -1 for an unknown rank. */
typedef struct {
  int rank;
  OvIv dim[DMCONF_PLUGIN_MAX_RANK];
} OvShape;

/* Element types (ov_style_elements.c). */
int OvElementBits(const char* type); /* 0: not a known type */
int OvIsIntegerType(const char* type);
uint64_t OvGetBits(const void* buf, int bits, int64_t i);
void OvSetBits(void* buf, int bits, int64_t i, uint64_t v);
uint64_t OvPackedBytes(int bits, int64_t n);
/* Decodes a 1-D integer tensor into `in`; 0 if the type is not an integer type. */
int OvDecodeInts(const dmconf_tensor* t, OvIntIn* in);
OvOp OvOpOf(const char* name);

/* Shape inference (ov_style_shapes.c, ov_style_blocks.c). DMCONF_OK or DMCONF_REJECTED (with
 * msg). */
int OvInfer(const OvShapeCase* c, OvShape* out, char* msg, int msg_size);
int OvInferBlocks(const OvShapeCase* c, OvShape* out, char* msg, int msg_size);

/* Kernels (ov_style_kernels.c): writes the output of a validated static case. */
void OvRunKernel(const dmconf_case* c, const OvShapeCase* sc, const OvShape* out, void* dst);

/* Checked arithmetic. */
int OvMul(int64_t a, int64_t b, int64_t* r); /* 1 on overflow; 0 * anything = 0 */
int64_t OvSatMul(int64_t a, int64_t b);      /* saturates at OV_MAX (nonnegative args) */
int64_t OvSatAdd(int64_t a, int64_t b);
int64_t OvCeilDiv(int64_t a, int64_t b);

#endif /* DMCONF_CONFORMANCE_PLUGINS_OV_STYLE_H_ */
