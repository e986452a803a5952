/* A plugin whose every text is hostile, and plugins whose capabilities lie (HOSTILE_TEXT_MODE):
 *
 *   1 text       its name, declared modes, refusal messages and answered element type hold
 *                markup (<script>, ]]>, quotes, &), Markdown (|, backticks), control bytes
 *                (ESC, CR, BEL, DEL) and a byte that is not UTF-8 (0xff). DepthToSpace
 *                blocks_first is refused with that message; depth_first answers an output
 *                whose element type is that text (an invalid answer that names it);
 *                SpaceToDepth is refused too. Used by hostile_text_test.sh: every output
 *                (JSON, JUnit, HTML, terminal) must stay well-formed and show the text as text.
 *   2 neg_rank   declares DepthToSpace f32 with ranks -3..4
 *   3 huge_count declares 2^30 ops with a table of one
 *   4 rank_order declares ranks 5..4 (min_rank above max_rank)
 *   5 newline    its name, refusal messages and answered element type hold a newline followed
 *                by a line of its own making ("\nFAKE: OK ..."); DepthToSpace f32 rank 4 as
 *                in mode 1. Used by hostile_newlines_test.sh: no such line on the terminal
 *   6 newline_caps  declares an element type "f32\nFAKE: OK caps" (refused when loaded) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness/plugin/dmconf_plugin.h"

#ifndef HOSTILE_TEXT_MODE
#define HOSTILE_TEXT_MODE 1
#endif

#define EVIL "<script>alert(1)</script> ]]> \"q\" 'a' &amp; |x|y| `tick` \x1b[2J\r\x07\x7f\xff end"

static const dmconf_op_support kText[] = {
    {"DepthToSpace", "f32", 4, 4, "blocks_first,depth_first," EVIL},
    {"SpaceToDepth", "f32", 4, 4, "blocks_first,depth_first"},
};
#define FORGED "\nFAKE: OK"
static const dmconf_op_support kNewline[] = {
    {"DepthToSpace", "f32", 4, 4, "blocks_first,depth_first"},
};
static const dmconf_op_support kNewlineCaps[] = {
    {"DepthToSpace", "f32" FORGED " caps", 4, 4, NULL}};
static const dmconf_op_support kNegRank[] = {{"DepthToSpace", "f32", -3, 4, NULL}};
static const dmconf_op_support kRankOrder[] = {{"DepthToSpace", "f32", 5, 4, NULL}};

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  if (strcmp(c->op, "DepthToSpace") == 0 && c->mode != NULL &&
      strcmp(c->mode, "depth_first") == 0) {
    r->element_type = HOSTILE_TEXT_MODE == 5 ? "f32" FORGED " type" : EVIL;
    r->rank = c->data.rank;
    for (int32_t i = 0; i < c->data.rank; ++i) r->shape[i] = c->data.shape[i];
    return DMCONF_OK;
  }
  snprintf(r->message, sizeof r->message, "refused: %s",
           HOSTILE_TEXT_MODE == 5 ? "x" FORGED " refusal" : EVIL);
  return DMCONF_REJECTED;
}

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION,
    HOSTILE_TEXT_MODE == 1   ? EVIL
    : HOSTILE_TEXT_MODE == 5 ? "newline" FORGED " name"
                             : "liar",
    HOSTILE_TEXT_MODE == 1   ? 2
    : HOSTILE_TEXT_MODE == 3 ? (int32_t)1 << 30
                             : 1,
    HOSTILE_TEXT_MODE == 1   ? kText
    : HOSTILE_TEXT_MODE == 4 ? kRankOrder
    : HOSTILE_TEXT_MODE == 5 ? kNewline
    : HOSTILE_TEXT_MODE == 6 ? kNewlineCaps
                             : kNegRank,
    NULL,
    NULL,
    Run,
    NULL,
    NULL,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
