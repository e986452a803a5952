/* A plugin that changes its own file while it is certified (used by certify_test.sh). On its
 * first run() call (the marker file $DMCONF_SELF_MARKER does not exist yet) it makes the
 * marker, changes a file, and aborts, so that the next case starts a new worker, which loads
 * the plugin again; every later call answers UNSUPPORTED (a plugin loaded again after the
 * change that is still this one runs no case). SELF_MODE selects the change:
 *
 *   1 rewrite_self   rewrites the file it was loaded from (dladdr's name for it) in place with
 *                    the bytes of $DMCONF_SELF_WITH
 *   2 replace_named  renames a copy of $DMCONF_SELF_WITH over $DMCONF_SELF_PATH (the path it
 *                    was given on the command line)
 *   3 remove_named   removes $DMCONF_SELF_PATH
 *   4 origin         none: built with RUNPATH $ORIGIN and a dependency found there only
 *                    (self_changing_dep.c), to show how certify's sealed copy loads it
 *
 * Declares DepthToSpace f32 rank 4. $DMCONF_SELF_WITH is a plugin that passes those cases
 * (the example plugin): a worker that loads it instead shows as passing cases in the report. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/plugin/dmconf_plugin.h"

#ifndef SELF_MODE
#define SELF_MODE 1
#endif

#if SELF_MODE == 4
int dmconf_self_changing_dep(void); /* self_changing_dep.c */
#endif

static const dmconf_op_support kOps[] = {
    {"DepthToSpace", "f32", 4, 4, "blocks_first,depth_first"},
};

/* Copies the file `from` to `to` (O_TRUNC: in place when `to` exists); 0 on success. */
static int CopyFile(const char* from, const char* to) {
  const int in = open(from, O_RDONLY | O_CLOEXEC);
  if (in < 0) return -1;
  const int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
  if (out < 0) {
    close(in);
    return -1;
  }
  char buf[65536];
  ssize_t n;
  int rc = 0;
  while ((n = read(in, buf, sizeof buf)) > 0) {
    if (write(out, buf, (size_t)n) != n) rc = -1;
  }
  close(in);
  close(out);
  return n < 0 ? -1 : rc;
}

static void ChangeFile(void) {
  const char* with = getenv("DMCONF_SELF_WITH");
  const char* path = getenv("DMCONF_SELF_PATH");
  if (SELF_MODE == 1 && with != NULL) {
    Dl_info info;
    if (dladdr((void*)&ChangeFile, &info) != 0 && info.dli_fname != NULL) {
      CopyFile(with, info.dli_fname); /* fails on a sealed copy: EPERM */
    }
  } else if (SELF_MODE == 2 && with != NULL && path != NULL) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    if (CopyFile(with, tmp) == 0) rename(tmp, path);
  } else if (SELF_MODE == 3 && path != NULL) {
    unlink(path);
  }
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  (void)c;
#if SELF_MODE == 4
  (void)dmconf_self_changing_dep();
#endif
  const char* marker = getenv("DMCONF_SELF_MARKER");
  if (SELF_MODE != 4 && marker != NULL && access(marker, F_OK) != 0) {
    const int fd = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) close(fd);
    ChangeFile();
    abort();
  }
  snprintf(r->message, sizeof r->message, "this plugin runs no case");
  return DMCONF_UNSUPPORTED;
}

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION, "self-changing", 1, kOps, NULL, NULL, Run, NULL, NULL,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
