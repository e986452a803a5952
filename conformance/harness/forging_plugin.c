/* A plugin that forges frames on its worker's reply pipe and is otherwise correct: it loads the
 * example plugin ($DMCONF_WRAPPED_PLUGIN) and answers every case and shape question as that
 * one does, so that a run shows whether any verdict moved onto another case. It forges on its
 * own cases only: DepthToSpace cases of block_size 3, in run() and in infer_static(). Built in
 * variants (FORGE_MODE), each writing on descriptor 4, the reply pipe of every worker:
 *
 *   1 step0    before it answers, a 9-byte frame (a length of 1, then the step byte 0)
 *   2 step1    the same with the step byte 1 ("paused")
 *   3 step2    the same with the step byte 2
 *   4 step255  the same with the step byte 255
 *   5 split    the frame of step 1 in two writes, 50 ms apart
 *   6 before   a frame while the worker is built (create()), in the first worker only (a
 *              marker file in $DMCONF_FORGE_DIR): before any request
 *   7 after    a frame from a thread, once the worker stands idle after its answer (its main
 *              thread blocked reading descriptor 3): after the last reply, nothing asked
 *
 * Used by worker_protocol_cli_test.sh. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "harness/plugin/dmconf_plugin.h"

#ifndef FORGE_MODE
#define FORGE_MODE 1
#endif

static const dmconf_plugin* g_inner = NULL;
static dmconf_plugin g_self;

static void Nap(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static void WriteFrame(size_t from, size_t to) {
  unsigned char frame[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
  frame[8] = FORGE_MODE == 1 ? 0 : FORGE_MODE == 3 ? 2 : FORGE_MODE == 4 ? 255 : 1;
  ssize_t ignored = write(4, frame + from, to - from);
  (void)ignored;
}

/* Whether the worker's main thread is blocked reading its request pipe (descriptor 3). */
static int MainThreadIdle(void) {
  char path[64];
  snprintf(path, sizeof path, "/proc/self/task/%ld/syscall", (long)getpid());
  FILE* f = fopen(path, "r");
  if (f == NULL) return 0;
  long nr = -1;
  unsigned long fd = 0;
  const int got = fscanf(f, "%ld %lx", &nr, &fd);
  fclose(f);
  return got == 2 && nr == SYS_read && fd == 3;
}

/* Waits (up to 20 s) for a moment the worker stands idle, between two requests, and writes the
 * frame then. */
static void* ForgeWhenIdle(void* unused) {
  (void)unused;
  for (int i = 0; i < 100000; ++i) {
    if (MainThreadIdle()) {
      WriteFrame(0, 9);
      return NULL;
    }
    struct timespec t = {0, 200000};
    nanosleep(&t, NULL);
  }
  return NULL;
}

static void Forge(void) {
  if (FORGE_MODE >= 1 && FORGE_MODE <= 4) WriteFrame(0, 9);
  if (FORGE_MODE == 5) {
    WriteFrame(0, 4);
    Nap(50);
    WriteFrame(4, 9);
  }
  if (FORGE_MODE == 7) {
    static int started = 0; /* once per worker */
    if (!started) {
      started = 1;
      pthread_t t;
      if (pthread_create(&t, NULL, ForgeWhenIdle, NULL) == 0) pthread_detach(t);
    }
  }
}

static int Ours(const char* op, int32_t has_block_size, int64_t block_size) {
  return strcmp(op, "DepthToSpace") == 0 && has_block_size && block_size == 3;
}

static void* Create(void) {
  if (FORGE_MODE == 6) {
    const char* dir = getenv("DMCONF_FORGE_DIR");
    char marker[512];
    snprintf(marker, sizeof marker, "%s/forged", dir != NULL ? dir : "/nonexistent");
    const int fd = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      close(fd);
      WriteFrame(0, 9);
    }
  }
  return g_inner->create != NULL ? g_inner->create() : NULL;
}

static void Destroy(void* state) {
  if (g_inner->destroy != NULL) g_inner->destroy(state);
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  if (Ours(c->op, c->has_block_size, c->block_size)) Forge();
  return g_inner->run(state, c, r);
}

static int InferStatic(void* state, const dmconf_shape_case* c, dmconf_shape_result* r) {
  if (Ours(c->op, c->has_block_size, c->block_size)) Forge();
  return g_inner->infer_static(state, c, r);
}

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  if (abi_version != DMCONF_PLUGIN_ABI_VERSION) return NULL;
  if (g_inner == NULL) {
    const char* path = getenv("DMCONF_WRAPPED_PLUGIN");
    void* lib = path != NULL ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    dmconf_plugin_get_fn get =
        lib != NULL ? (dmconf_plugin_get_fn)dlsym(lib, "dmconf_plugin_get") : NULL;
    g_inner = get != NULL ? get(abi_version) : NULL;
    if (g_inner == NULL) return NULL;
    g_self = *g_inner;
    g_self.name = "forger";
    g_self.create = Create;
    g_self.destroy = Destroy;
    g_self.run = g_inner->run != NULL ? Run : NULL;
    g_self.infer_static = g_inner->infer_static != NULL ? InferStatic : NULL;
  }
  return &g_self;
}
