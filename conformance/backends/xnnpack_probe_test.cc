// Probe behind docs/findings.md (F7): XNNPACK's depth-to-space refuses block_size 1, which
// DepthToSpace-1 allows (a positive integer; the identity), and refuses block_size 0 as it should.
#include <xnnpack.h>

#include "gtest/gtest.h"

namespace {

xnn_status Create(uint32_t block) {
  xnn_operator_t op = nullptr;
  const xnn_status st = xnn_create_depth_to_space_nchw2nhwc_x32(2, 2, 2, block, 0, &op);
  if (op != nullptr) xnn_delete_operator(op);
  return st;
}

TEST(XnnpackFindings, F7BlockSizeOneIsRefused) {
  ASSERT_EQ(xnn_initialize(nullptr), xnn_status_success);
  EXPECT_EQ(Create(1), xnn_status_invalid_parameter);
  EXPECT_EQ(Create(0), xnn_status_invalid_parameter);
  // Control: block 2 with 2 output channels (8 input channels) is accepted.
  xnn_operator_t op = nullptr;
  EXPECT_EQ(xnn_create_depth_to_space_nchw2nhwc_x32(2, 8, 2, 2, 0, &op), xnn_status_success);
  if (op != nullptr) xnn_delete_operator(op);
}

}  // namespace
