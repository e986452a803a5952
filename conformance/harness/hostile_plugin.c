/* Plugins that misbehave the way real ones have: they fork and leave children behind, leave
 * their session, hang on one op, or scribble on descriptors they were never given. Built in
 * variants (HOSTILE_MODE); used by process_tree_test.cc through the C ABI, version 1.
 *
 *   1 fork          run() forks a child that sleeps 60 s, then refuses the case
 *   2 setsid_crash  run() forks a child that calls setsid() and sleeps, then segfaults
 *   3 daemon        run() double-forks a setsid() grandchild that sleeps (a daemon), refuses
 *   4 hang_d2s      DepthToSpace forks a sleeper and hangs; SpaceToDepth is refused at once
 *   5 fd_junk       run() writes junk to descriptors 3..19, then refuses the case
 *   6 alloc         run() allocates and touches 64 MiB blocks without bound (no NULL check)
 *   7 unsupported   declares DepthToSpace f32 rank 4 only and answers UNSUPPORTED to every
 *                   case (used by cli_strictness_test.sh: a declared slice that runs nothing)
 *   8 forged_reply  run() writes a reply header claiming 16 GiB on the worker's reply pipe
 *                   (descriptor 4), then waits (used by hostile_paths_test.sh)
 *   9 fork_many     run() starts 300 processes that sleep 60 s, then refuses the case (used by
 *                   hostile_paths_test.sh: the per-worker process cap)
 *  10 alloc_big     run() mallocs one 1 GiB block and writes to it without a NULL check (used
 *                   by memory_limit_test.sh: one failed allocation far from the limit)
 *  11 join_group    run() forks a child that joins the harness's own process group (out of
 *                   reach of a kill of the worker's group) and sleeps 60 s holding the worker's
 *                   stdout, which is the harness's; then refuses the case
 *
 * Every process a variant leaves behind writes its pid to $DMCONF_HOSTILE_PID_DIR/<pid>, the
 * file holding its start time, so the test can check that none survives (a reused pid is
 * another process). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Built against the version-1 header: proves version-1 plugins keep loading. */
#include "conformance/harness/dmconf_plugin_v1.h"

#ifndef HOSTILE_MODE
#define HOSTILE_MODE 1
#endif

static const dmconf_op_support kOps[] = {
    {"DepthToSpace", "f32", 4, 4, "blocks_first,depth_first"},
    {"SpaceToDepth", "f32", 4, 4, "blocks_first,depth_first"},
};

/* This process's start time (field 22 of /proc/self/stat, after the parenthesised name), as
 * text; "" when it cannot be read. With the pid it names the process even after the pid is
 * reused (pid_max may be 32768, and a test starts thousands). */
static void StartTime(char* out, size_t n) {
  out[0] = '\0';
  char buf[1024];
  int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t got = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (got <= 0) return;
  buf[got] = '\0';
  char* p = strrchr(buf, ')');
  if (p == NULL) return;
  /* Field 3 (the state) is the first after ") "; the start time is the 20th. */
  for (int field = 2; field < 22 && p != NULL; ++field) p = strchr(p + 1, ' ');
  if (p == NULL) return;
  ++p;
  size_t len = strcspn(p, " ");
  if (len >= n) return;
  memcpy(out, p, len);
  out[len] = '\0';
}

static void RecordSelf(void) {
  const char* dir = getenv("DMCONF_HOSTILE_PID_DIR");
  if (dir != NULL) {
    char path[512], start[64];
    snprintf(path, sizeof path, "%s/%ld", dir, (long)getpid());
    StartTime(start, sizeof start);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd >= 0) {
      (void)!write(fd, start, strlen(start));
      close(fd);
    }
  }
}

static void RecordAndSleep(void) {
  RecordSelf();
  sleep(60);
  _exit(0);
}

static int Refuse(dmconf_result* r, const char* why) {
  snprintf(r->message, sizeof r->message, "%s", why);
  return DMCONF_REJECTED;
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  (void)c;
  if (HOSTILE_MODE == 1) {
    if (fork() == 0) RecordAndSleep();
    return Refuse(r, "forked a sleeper");
  }
  if (HOSTILE_MODE == 2) {
    if (fork() == 0) {
      setsid();
      RecordAndSleep();
    }
    raise(SIGSEGV);
  }
  if (HOSTILE_MODE == 3) {
    pid_t child = fork();
    if (child == 0) {
      setsid();
      if (fork() == 0) RecordAndSleep();
      _exit(0);
    }
    return Refuse(r, "started a daemon");
  }
  if (HOSTILE_MODE == 4) {
    if (strcmp(c->op, "DepthToSpace") == 0) {
      if (fork() == 0) RecordAndSleep();
      RecordSelf();
      for (;;) pause();
    }
    return Refuse(r, "no SpaceToDepth here");
  }
  if (HOSTILE_MODE == 5) {
    static const char junk[] = "JUNK FROM A PLUGIN\n";
    for (int fd = 3; fd < 20; ++fd) {
      ssize_t ignored = write(fd, junk, sizeof junk - 1);
      (void)ignored;
    }
    return Refuse(r, "wrote junk");
  }
  if (HOSTILE_MODE == 6) {
    for (;;) {
      volatile char* block = (volatile char*)malloc((size_t)64 << 20);
      for (size_t i = 0; i < ((size_t)64 << 20); i += 4096) block[i] = 1;
    }
  }
  if (HOSTILE_MODE == 7) return DMCONF_UNSUPPORTED;
  if (HOSTILE_MODE == 8) {
    unsigned char header[8] = {0, 0, 0, 0, 4, 0, 0, 0}; /* 2^34 bytes, little-endian */
    ssize_t ignored = write(4, header, sizeof header);
    (void)ignored;
    for (;;) pause();
  }
  if (HOSTILE_MODE == 9) {
    for (int i = 0; i < 300; ++i) {
      if (fork() == 0) RecordAndSleep();
    }
    return Refuse(r, "started 300 processes");
  }
  if (HOSTILE_MODE == 10) {
    volatile char* block = (volatile char*)malloc((size_t)1 << 30);
    for (size_t i = 0; i < ((size_t)1 << 30); i += 4096) block[i] = 1;
    return Refuse(r, "the block was written");
  }
  if (HOSTILE_MODE == 11) {
    const pid_t harness_group = getpgid(getppid()); /* the worker's parent is the harness */
    if (fork() == 0) {
      setpgid(0, harness_group);
      RecordAndSleep();
    }
    return Refuse(r, "a child joined the harness's group");
  }
  return Refuse(r, "unknown mode");
}

static const dmconf_plugin kPlugin = {
    1u,   "hostile", HOSTILE_MODE == 7 ? 1 : (int32_t)(sizeof(kOps) / sizeof(kOps[0])), kOps, NULL,
    NULL, Run,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == 1u ? &kPlugin : NULL;
}
