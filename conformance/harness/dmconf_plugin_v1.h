/* A frozen copy of dmconf_plugin.h as released at ABI version 1, for the test plugins that prove
 * version-1 plugins keep loading (a version-1 table is shorter than a version-2 one).
 *
 * dmconf plugin C ABI, version 1: how an out-of-tree backend is loaded with
 * `dmconf run --backend-lib path/to/libmybackend.so`.
 *
 * Stability: this header is C (C99) and only ever grows at the end of its structs under a new
 * DMCONF_PLUGIN_ABI_VERSION; a plugin built against version 1 keeps working. The harness calls
 * dmconf_plugin_get(DMCONF_PLUGIN_ABI_VERSION) and refuses a plugin that returns NULL or a
 * table whose abi_version differs.
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
 *                                         NULL, NULL, Run};
 *   DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi) {
 *     return abi == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
 *   }
 */
#ifndef DMCONF_PLUGIN_V1_H_
#define DMCONF_PLUGIN_V1_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMCONF_PLUGIN_ABI_VERSION 1u
#define DMCONF_PLUGIN_MAX_RANK 16
#define DMCONF_PLUGIN_EXPORT __attribute__((visibility("default")))

/* Return codes of run(). */
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
   * element left unwritten is a wrong_values failure that says so.) */
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

typedef struct dmconf_plugin {
  uint32_t abi_version; /* DMCONF_PLUGIN_ABI_VERSION */
  const char* name;
  int32_t num_ops;
  const dmconf_op_support* ops;
  /* Optional (may be NULL): per-process state; its result is passed to run() and destroy(). */
  void* (*create)(void);
  void (*destroy)(void* state);
  /* Runs one case: DMCONF_OK, DMCONF_REJECTED or DMCONF_UNSUPPORTED. */
  int (*run)(void* state, const dmconf_case* c, dmconf_result* result);
} dmconf_plugin;

/* The one symbol a plugin exports. */
typedef const dmconf_plugin* (*dmconf_plugin_get_fn)(uint32_t abi_version);
DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version);

#ifdef __cplusplus
}
#endif

#endif /* DMCONF_PLUGIN_V1_H_ */
