/* A plugin that crashes and hangs on some cases and refuses the others, chosen by the case
 * itself (a hash of its shape, block_size and mode), never by call order: whichever worker
 * runs a case, and whatever ran before it there, the case gets the same outcome. The target of
 * jobs_identity_test.sh: the hang and crash budgets fire at the same cases with --jobs 1 and
 * with several workers.
 *
 *   DepthToSpace f32 4-D: dies of SIGSEGV when the hash is even, else refuses the case.
 *   SpaceToDepth f32 4-D: hangs when the hash is a multiple of 3, else refuses the case. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/plugin/dmconf_plugin.h"

static const dmconf_op_support kOps[] = {
    {"DepthToSpace", "f32", 4, 4, "blocks_first,depth_first"},
    {"SpaceToDepth", "f32", 4, 4, "blocks_first,depth_first"},
};

/* FNV-1a over the case's shape, block_size and mode. */
static uint64_t CaseHash(const dmconf_case* c) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < c->data.rank; ++i) h = (h ^ (uint64_t)c->data.shape[i]) * 1099511628211ull;
  h = (h ^ (uint64_t)(c->has_block_size ? c->block_size : 0)) * 1099511628211ull;
  for (const char* m = c->mode != NULL ? c->mode : ""; *m != '\0'; ++m) {
    h = (h ^ (unsigned char)*m) * 1099511628211ull;
  }
  return h ^ (h >> 29);
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  const uint64_t h = CaseHash(c);
  if (strcmp(c->op, "DepthToSpace") == 0 && h % 2 == 0) {
    raise(SIGSEGV);
  }
  if (strcmp(c->op, "SpaceToDepth") == 0 && h % 3 == 0) {
    for (;;) pause();
  }
  snprintf(r->message, sizeof(r->message), "refused (hash %llu)", (unsigned long long)(h % 1000));
  return DMCONF_REJECTED;
}

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION, "budget", 2, kOps, NULL, NULL, Run, NULL, NULL,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
