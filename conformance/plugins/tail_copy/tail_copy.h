/* The tail_copy test plugin's internal interface (see README.md). Written from the
 * specifications in the project's shared spec folder, apart from dmconf's case generators
 * and detection code. */
#ifndef CONFORMANCE_PLUGINS_TAIL_COPY_TAIL_COPY_H_
#define CONFORMANCE_PLUGINS_TAIL_COPY_TAIL_COPY_H_

#include <stdint.h>

#include "harness/plugin/dmconf_plugin.h"

#ifndef TAIL_COPY_BUG
#define TAIL_COPY_BUG 0
#endif

/* The vector width of the row copy helpers, in bytes. */
#define TC_VEC_BYTES 16

/* Row copy helpers (row_copy.c): copy n elements of esize bytes (1, 2, 4 or 8) from src to
 * dst, one helper per kernel. Each reads and writes only the n * esize bytes of the row, in
 * every variant. */
void TcRowCopyB2s(void* dst, const void* src, int64_t n, int esize);
void TcRowCopyS2b(void* dst, const void* src, int64_t n, int esize);
void TcRowCopyDepth(void* dst, const void* src, int64_t n, int esize);

/* plugin.c: writes the message and returns DMCONF_REJECTED (TcReject) or DMCONF_UNSUPPORTED. */
int TcReject(dmconf_result* r, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
int TcUnsupported(dmconf_result* r, const char* why);

/* Kernels. data holds count elements of esize bytes (checked by the caller). */
int TcBatchToSpace(const dmconf_case* c, dmconf_result* r, int esize);
int TcSpaceToBatch(const dmconf_case* c, dmconf_result* r, int esize);
int TcDepthOp(const dmconf_case* c, dmconf_result* r, int esize, int depth_to_space);

#endif /* CONFORMANCE_PLUGINS_TAIL_COPY_TAIL_COPY_H_ */
