/* Row copy helpers of the tail_copy plugin, and its seeded bugs.
 *
 * A "row" is the innermost contiguous run of elements a kernel copies (n elements of esize
 * bytes, bytes = n * esize, esize in {1, 2, 4, 8}). Each helper copies it in vectors of
 * V = TC_VEC_BYTES = 16 bytes (V / esize elements each), then copies the tail. Where the rows
 * come from:
 *   BatchToSpace: the cropped last dim, n = D_last - crops_begin - crops_end, when
 *     block_shape[last] == 1; with block_shape[last] > 1 no two neighbours of the output come
 *     from one input row and the kernel copies single elements without the helper.
 *   SpaceToBatch: the data part of an output row, n = D_last (the pads are zeroed apart), when
 *     block_shape[last] == 1 and the row is not all padding; otherwise single elements or
 *     zeros without the helper.
 *   DepthToSpace / SpaceToDepth: the innermost contiguous block of the permutation (axes of
 *     size 1 dropped, axes kept together merged): the whole tensor, n = N * C * D1 * ... * DK,
 *     for block_size 1; with block_size b > 1 only where the axes between the moved ones have
 *     size 1, and then it is the whole tensor again (DepthToSpace depth_first with every
 *     D_i = 1, or blocks_first with C / b^K = 1 and every D_i = 1; SpaceToDepth with every
 *     D_i = b, in blocks_first with C = 1 too); otherwise the innermost axis is strided and
 *     single elements are copied without the helper.
 *
 * TAIL_COPY_BUG selects a seeded bug (0 = the correct plugin). Every variant reads and writes
 * only inside the row: a bug gives wrong output values, never an out-of-bounds access.
 *
 *   1 b2s_no_tail (BatchToSpace): the tail is copied only when the row is shorter than one
 *     vector (as if longer rows were padded to the vector width). Shows when the row has at
 *     least one full vector and a tail: bytes > 16 and bytes % 16 != 0 (the tail bytes keep
 *     whatever the output buffer held). E.g. f32 n = 5, u8 n = 17, i64 n = 3.
 *   2 b2s_tail_elems (BatchToSpace): the tail length, counted in elements, is passed to the
 *     byte copy as a byte count. Shows for esize >= 2 when n % (16 / esize) != 0 (any row
 *     length, a single element too): the last tail * (esize - 1) bytes stay unwritten. Never
 *     for 1-byte types. E.g. f16 n = 3, f32 n = 1, f64 n = 5.
 *   3 s2b_src_stride (SpaceToBatch): the vector loop advances the source pointer by the
 *     vector's element count (16 / esize) instead of its 16 bytes, so every vector after the
 *     first and the tail are read from too early. Shows for esize >= 2 when bytes > 16 (a row
 *     of more than one vector). Never for 1-byte types (16 / 1 = 16). E.g. f32 n = 5, i16 n = 9.
 *   4 s2b_tail_off_by_one (SpaceToBatch): the tail loop stops one element early
 *     (k + 1 < tail): the row's last element is not written. Shows for every element size when
 *     n % (16 / esize) != 0. E.g. u8 n = 3, f32 n = 6, f64 n = 1.
 *   5 depth_tail_odd_byte (DepthToSpace and SpaceToDepth): the tail is copied in 8, 4 and 2 byte
 *     steps, the 1-byte step is missing. Shows only for 1-byte types with an odd row length n
 *     (tail % 2 == 1); 2-, 4- and 8-byte rows have an even byte tail. E.g. u8 n = 3, 17, 45.
 *   6 depth_tail_from_vec (DepthToSpace and SpaceToDepth): the tail is read from the start of
 *     the last full vector instead of the tail's start (16 bytes too early). Shows for rows of
 *     more than one vector with a tail: bytes > 16 and bytes % 16 != 0, every element size.
 *     E.g. f32 n = 6, u8 n = 20, i64 n = 3.
 */
#include <stddef.h>
#include <string.h>

#include "conformance/plugins/tail_copy/tail_copy.h"

/* One vector: V bytes loaded and stored (the compiler emits one SIMD load/store). */
static void CopyVec(unsigned char* d, const unsigned char* s) { memcpy(d, s, TC_VEC_BYTES); }

void TcRowCopyB2s(void* dst, const void* src, int64_t n, int esize) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  const int64_t per_vec = TC_VEC_BYTES / esize;
  const int64_t vecs = n / per_vec, tail = n % per_vec;
  int64_t k;
  for (k = 0; k < vecs; ++k) CopyVec(d + k * TC_VEC_BYTES, s + k * TC_VEC_BYTES);
  d += vecs * TC_VEC_BYTES;
  s += vecs * TC_VEC_BYTES;
#if TAIL_COPY_BUG == 1
  if (vecs == 0) memcpy(d, s, (size_t)(tail * esize));
#elif TAIL_COPY_BUG == 2
  memcpy(d, s, (size_t)tail);
#else
  memcpy(d, s, (size_t)(tail * esize));
#endif
}

void TcRowCopyS2b(void* dst, const void* src, int64_t n, int esize) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  const int64_t per_vec = TC_VEC_BYTES / esize;
  const int64_t vecs = n / per_vec, tail = n % per_vec;
  int64_t k;
  for (k = 0; k < vecs; ++k) {
    CopyVec(d, s);
    d += TC_VEC_BYTES;
#if TAIL_COPY_BUG == 3
    s += per_vec;
#else
    s += TC_VEC_BYTES;
#endif
  }
#if TAIL_COPY_BUG == 4
  for (k = 0; k + 1 < tail; ++k) memcpy(d + k * esize, s + k * esize, (size_t)esize);
#else
  for (k = 0; k < tail; ++k) memcpy(d + k * esize, s + k * esize, (size_t)esize);
#endif
}

/* The last bytes (< V) of a row, in 8, 4, 2 and 1 byte steps. */
static void CopyTailSteps(unsigned char* d, const unsigned char* s, size_t bytes) {
  size_t k = 0;
  if (bytes & 8) {
    memcpy(d + k, s + k, 8);
    k += 8;
  }
  if (bytes & 4) {
    memcpy(d + k, s + k, 4);
    k += 4;
  }
  if (bytes & 2) {
    memcpy(d + k, s + k, 2);
    k += 2;
  }
#if TAIL_COPY_BUG != 5
  if (bytes & 1) d[k] = s[k];
#endif
}

void TcRowCopyDepth(void* dst, const void* src, int64_t n, int esize) {
  unsigned char* d = (unsigned char*)dst;
  const unsigned char* s = (const unsigned char*)src;
  const size_t bytes = (size_t)n * (size_t)esize;
  const size_t vecs = bytes / TC_VEC_BYTES, done = vecs * TC_VEC_BYTES;
  size_t k;
  for (k = 0; k < vecs; ++k) CopyVec(d + k * TC_VEC_BYTES, s + k * TC_VEC_BYTES);
#if TAIL_COPY_BUG == 6
  CopyTailSteps(d + done, s + (vecs > 0 ? done - TC_VEC_BYTES : done), bytes - done);
#else
  CopyTailSteps(d + done, s + done, bytes - done);
#endif
}
