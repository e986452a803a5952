/* dmconf plugin C ABI, version 2: how an out-of-tree backend is loaded with
 * `dmconf run --backend-lib path/to/libmybackend.so`.
 *
 * Stability: this header is C (C99) and only ever grows at the end of its structs under a new
 * DMCONF_PLUGIN_ABI_VERSION; a plugin built against version 1 keeps working. The harness calls
 * dmconf_plugin_get(2) and, when that returns NULL, dmconf_plugin_get(1); it reads a table
 * whose abi_version is 1 as version 1 (no shape inference entries) and refuses any other.
 *
 * Version 2 adds two optional entries, infer_static and infer_partial (docs/vendor-guide.md,
 * "Shape inference"): shape inference without data, on dims up to 2^63-1 (static) and on
 * interval dims, unknown ranks and non-constant integer inputs (partial). dmconf judges their
 * answers against its oracle (verdicts wrong_shape, false_accept, false_reject, unsound_shape,
 * loose_shape; a malformed answer is invalid_answer).
 *
 * Unbounded dims (docs/errata-partial.md, D-P1 and D-P9): an instance of a partial case has
 * every dim at most 2^63-1 and at most 2^63-1 output elements. In an answer, an upper bound of
 * 2^63-1 (INT64_MAX) means "unbounded", exactly as DMCONF_UNBOUNDED and as OpenVINO's
 * ov::Interval s_max; any upper bound at or above the largest output an accepted instance can
 * have is sound and not loose, so OpenVINO's [a, inf) / d = [ceil(a / d), floor((2^63-1) / d)]
 * passes. unsound_shape names an accepted instance (its dims) whose output is outside.
 *
 * Names, not numbers, cross the boundary: ops are "SpaceToBatch", "BatchToSpace",
 * "SpaceToDepth", "DepthToSpace", "ExtractImagePatches"; element types are OpenVINO's names
 * ("f32", "u4", ...). Tensors are dense, row-major, packed exactly as OpenVINO packs them
 * (docs/element-types.md; u4/i4: first element in the low nibble; u1: first element in the
 * most significant bit).
 *
 * Threading and lifetime: the harness calls create() once per worker process, then run()
 * one case at a time, then destroy(). Each worker is a separate process, so a plugin may keep
 * global state. A crash, abort or hang inside run() is caught by the harness and becomes that
 * case's verdict.
 *
 * Minimal plugin (a complete one is harness/plugin/examples/example_plugin.c):
 *   static const dmconf_op_support kOps[] = {
 *     {"DepthToSpace", "f32,i32", 3, 8, "blocks_first,depth_first"}};
 *   static int Run(void* s, const dmconf_case* c, dmconf_result* r) { ... return DMCONF_OK; }
 *   static const dmconf_plugin kPlugin = {DMCONF_PLUGIN_ABI_VERSION, "mine", 1, kOps,
 *                                         NULL, NULL, Run, NULL, NULL};
 *   DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi) {
 *     return abi == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
 *   }
 */
#ifndef DMCONF_PLUGIN_H_
#define DMCONF_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMCONF_PLUGIN_ABI_VERSION 2u
#define DMCONF_PLUGIN_MAX_RANK 16
#define DMCONF_PLUGIN_EXPORT __attribute__((visibility("default")))

/* Return codes of run(), infer_static() and infer_partial(). */
#define DMCONF_OK 0          /* result holds the output */
#define DMCONF_REJECTED 1    /* the backend refuses the case (an error it would report) */
#define DMCONF_UNSUPPORTED 2 /* the case is outside what the backend supports */

/* A read-only input tensor. */
typedef struct dmconf_tensor {
  const char* element_type; /* "f32" */
  int32_t rank;
  const int64_t* shape; /* rank dims */
  const void* data;     /* packed bytes */
  uint64_t byte_size;
} dmconf_tensor;

/* One invocation of an op. Absent attributes: NULL strings, has_block_size = 0, count 0. */
typedef struct dmconf_case {
  const char* op; /* "DepthToSpace" */
  const char* id; /* the harness's case id, for the plugin's own logs */
  dmconf_tensor data;
  /* SpaceToBatch: block_shape, pads_begin, pads_end; BatchToSpace: block_shape, crops_begin,
   * crops_end (1-D integer tensors). Otherwise 0 inputs. */
  int32_t num_int_inputs;
  const dmconf_tensor* int_inputs;
  /* SpaceToDepth / DepthToSpace */
  int32_t has_block_size;
  int64_t block_size;
  const char* mode; /* "blocks_first" / "depth_first" or NULL */
  /* ExtractImagePatches */
  int32_t num_sizes, num_strides, num_rates;
  const int64_t* sizes;
  const int64_t* strides;
  const int64_t* rates;
  const char* auto_pad; /* "valid" / "same_upper" / "same_lower" or NULL */
} dmconf_case;

/* The output of run(). The plugin sets element_type, rank and shape, then calls
 * alloc_output(result, bytes) for a buffer of the packed size and fills it. */
typedef struct dmconf_result {
  const char* element_type; /* set by the plugin; must stay valid until run() returns */
  int32_t rank;
  int64_t shape[DMCONF_PLUGIN_MAX_RANK];
  /* Provided by the harness: returns a buffer of `bytes` bytes (NULL if too large). Its
   * contents are unspecified: write every element, the padding zeros too. (dmconf fills it
   * with a non-zero pattern, and runs cases of ops with padding twice over two patterns: an
   * element left unwritten is a wrong_values failure that says so. A write past the last
   * of the `bytes` bytes changes a guard dmconf checks after the call: invalid_answer,
   * plugin.output.bounds.) */
  void* (*alloc_output)(struct dmconf_result* self, uint64_t bytes);
  void* harness_private;
  /* Optional: why the case was rejected or unsupported (NUL-terminated). */
  char message[256];
} dmconf_result;

/* What the backend supports for one op. Lists are comma-separated names; NULL or "" = all. */
typedef struct dmconf_op_support {
  const char* op;
  const char* element_types; /* "f32,f16,u8" */
  int32_t min_rank, max_rank;
  const char* modes; /* DepthToSpace/SpaceToDepth modes, or ExtractImagePatches auto_pad values */
} dmconf_op_support;

/* ---- Version 2: shape inference ---------------------------------------------------------- */

#define DMCONF_UNBOUNDED                                                                       \
  (-1)                           /* dmconf_dim.hi of an interval without an upper bound (in an \
                                    answer, hi == INT64_MAX means the same) */
#define DMCONF_RANK_UNKNOWN (-1) /* rank of a shape whose rank is not known */

/* One dimension: the interval [lo, hi]; hi == DMCONF_UNBOUNDED for [lo, inf). A static dim has
 * lo == hi. OpenVINO's "?" is {0, DMCONF_UNBOUNDED}. 0 <= lo <= hi <= 2^63-1. */
typedef struct dmconf_dim {
  int64_t lo;
  int64_t hi;
} dmconf_dim;

/* An integer input (block_shape, pads_begin/end, crops_begin/end) of a shape case: either a
 * constant, whose values are known, or a non-constant (a graph parameter) of which only the
 * element type and a possibly partial shape are known. */
typedef struct dmconf_int_input {
  int32_t is_constant;
  dmconf_tensor constant;   /* is_constant: the 1-D tensor, packed as in run() */
  const char* element_type; /* both kinds: "i64", "i32", "u64", ... */
  int32_t rank;             /* !is_constant: rank of the input, or DMCONF_RANK_UNKNOWN */
  const dmconf_dim* shape;  /* !is_constant: rank dims */
} dmconf_int_input;

/* A case without data. The attributes are as in dmconf_case. */
typedef struct dmconf_shape_case {
  const char* op;
  const char* id;
  const char* element_type; /* the data input's element type */
  int32_t rank;             /* the data input's rank, or DMCONF_RANK_UNKNOWN (partial only) */
  const dmconf_dim* shape;  /* rank dims; infer_static: every dim has lo == hi */
  int32_t num_int_inputs;   /* 3 for SpaceToBatch / BatchToSpace, else 0 */
  const dmconf_int_input* int_inputs; /* infer_static: all constants */
  int32_t has_block_size;
  int64_t block_size;
  const char* mode;
  int32_t num_sizes, num_strides, num_rates;
  const int64_t* sizes;
  const int64_t* strides;
  const int64_t* rates;
  const char* auto_pad;
} dmconf_shape_case;

/* The answer of infer_static / infer_partial: the output's element type and (partial) shape.
 * infer_static answers lo == hi in every dim and a known rank. On DMCONF_REJECTED /
 * DMCONF_UNSUPPORTED only message is read. */
typedef struct dmconf_shape_result {
  const char* element_type; /* must stay valid until the entry returns */
  int32_t rank;             /* DMCONF_RANK_UNKNOWN allowed from infer_partial */
  dmconf_dim shape[DMCONF_PLUGIN_MAX_RANK];
  char message[256];
} dmconf_shape_result;

typedef struct dmconf_plugin {
  uint32_t abi_version; /* DMCONF_PLUGIN_ABI_VERSION (1 for a version-1 table) */
  const char* name;
  int32_t num_ops;
  const dmconf_op_support* ops;
  /* Optional (may be NULL): per-process state; its result is passed to run() and destroy(). */
  void* (*create)(void);
  void (*destroy)(void* state);
  /* Runs one case: DMCONF_OK, DMCONF_REJECTED or DMCONF_UNSUPPORTED. May be NULL in a version-2
   * table that has infer_static or infer_partial: shape inference without kernels (ops then
   * declare where the shape inference applies; the kernel lane is reported as not provided). */
  int (*run)(void* state, const dmconf_case* c, dmconf_result* result);
  /* Version 2, both optional (NULL: not implemented). Static shape inference: every data dim
   * exact (any value up to 2^63-1: no data exists), every integer input a constant. */
  int (*infer_static)(void* state, const dmconf_shape_case* c, dmconf_shape_result* result);
  /* Partial shape inference: interval dims, possibly an unknown rank, integer inputs constant
   * or not. The answer must be sound (contain the output shape of every instance the spec
   * accepts; reject only when no instance is valid) and should be tight. */
  int (*infer_partial)(void* state, const dmconf_shape_case* c, dmconf_shape_result* result);
} dmconf_plugin;

/* The one symbol a plugin exports. abi_version is the version the harness asks for (2, then
 * 1); return a table of that version, or NULL. */
typedef const dmconf_plugin* (*dmconf_plugin_get_fn)(uint32_t abi_version);
DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version);

#ifdef __cplusplus
}
#endif

#endif /* DMCONF_PLUGIN_H_ */
