#include "harness/backends/xnnpack/xnnpack_backend.h"

#include <xnnpack.h>

#include <cstring>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"

namespace dmconf {

Capabilities XnnpackBackend::GetCapabilities() const {
  Capabilities caps;
  caps.ops.push_back({Op::kDepthToSpace,
                      {ElementType::kF32, ElementType::kI32, ElementType::kU32},
                      4,
                      4,
                      {"blocks_first"},
                      "NCHW in, NHWC out (transposed back by the adapter); block_size >= 2; "
                      "depth divisible by block_size^2"});
  return caps;
}

std::string XnnpackBackend::Unsupported(const OpCase& c, const Capabilities& declared) const {
  if (!CapabilitiesSupport(declared, c)) {
    return "outside the capability table (DepthToSpace, 4-byte types, rank 4, blocks_first)";
  }
  if (!c.mode.has_value()) return "XNNPACK has no mode parameter; a missing mode cannot be passed";
  if (!c.data.Validate("data").ok()) return "malformed data tensor";
  const int64_t b = c.block_size.value_or(1);
  if (b == 1) return "XNNPACK refuses block_size 1 (OpenVINO allows it)";
  if (b < 0 || b > std::numeric_limits<uint32_t>::max()) return "block_size is not a uint32";
  if (b >= 2) {
    const std::optional<int64_t> bb = CheckedMul(b, b);
    if (!bb.has_value() || c.data.shape[1] % *bb != 0) {
      return "XNNPACK takes the output channel count: a depth not divisible by block_size^2 "
             "cannot be passed";
    }
    // The adapter holds XNNPACK's output: its dims h * b and w * b, and its element count,
    // must fit int64 (a case whose output dims do not is must_reject: d2s.output.representable).
    const std::optional<int64_t> oh = CheckedMul(c.data.shape[2], b);
    const std::optional<int64_t> ow = CheckedMul(c.data.shape[3], b);
    std::optional<int64_t> count =
        oh.has_value() && ow.has_value() ? CheckedMul(*oh, *ow) : std::nullopt;
    if (count.has_value()) count = CheckedMul(*count, c.data.shape[0]);
    if (count.has_value()) count = CheckedMul(*count, c.data.shape[1] / *bb);
    if (!count.has_value()) {
      return "the output's dims (h * block_size, w * block_size) or element count do not fit "
             "int64: the adapter cannot hold XNNPACK's output";
    }
  }
  return "";
}

bool XnnpackBackend::Supports(const OpCase& c, const Capabilities& declared) const {
  return Unsupported(c, declared).empty();
}

RunOutcome XnnpackBackend::Run(const OpCase& c) {
  if (std::string why = Unsupported(c, GetCapabilities()); !why.empty()) {
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported, why);
  }
  static const xnn_status init = xnn_initialize(nullptr);
  if (init != xnn_status_success) {
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported,
                          absl::StrCat("xnn_initialize failed: ", init));
  }
  const int64_t n = c.data.shape[0], ch = c.data.shape[1], h = c.data.shape[2], w = c.data.shape[3];
  const int64_t b = *c.block_size;
  // block_size 0 reaches XNNPACK unchanged (its own check decides); the channel count is then 0.
  const int64_t out_c = b == 0 ? 0 : ch / (b * b);
  xnn_operator_t op = nullptr;
  xnn_status st = xnn_create_depth_to_space_nchw2nhwc_x32(
      static_cast<size_t>(out_c), static_cast<size_t>(ch), static_cast<size_t>(out_c),
      static_cast<uint32_t>(b), 0, &op);
  if (st != xnn_status_success) {
    return RunOutcome::Of(RunOutcome::Kind::kRejected,
                          absl::StrCat("xnn_create_depth_to_space_nchw2nhwc_x32: status ", st));
  }
  const int64_t oh = h * b, ow = w * b;
  std::vector<uint32_t> nhwc(static_cast<size_t>(n * oh * ow * out_c) + 1);  // +1: never empty
  // A copy with XNNPACK's customary slack at the end (its kernels may over-read a little).
  std::vector<uint32_t> input(c.data.bytes.size() / 4 + 16);
  if (!c.data.bytes.empty()) {
    std::memcpy(input.data(), c.data.bytes.data(), c.data.bytes.size());
  }
  st = xnn_setup_depth_to_space_nchw2nhwc_x32(op, static_cast<size_t>(n), static_cast<size_t>(h),
                                              static_cast<size_t>(w), input.data(), nhwc.data(),
                                              nullptr);
  if (st == xnn_status_success) st = xnn_run_operator(op, nullptr);
  xnn_delete_operator(op);
  if (st != xnn_status_success) {
    return RunOutcome::Of(RunOutcome::Kind::kRejected, absl::StrCat("xnn setup/run: status ", st));
  }
  // NHWC -> NCHW: out[n][c][y][x] = nhwc[n][y][x][c].
  absl::StatusOr<Tensor> out = Tensor::Zeros(c.data.type, {n, out_c, oh, ow});
  if (!out.ok())
    return RunOutcome::Of(RunOutcome::Kind::kRejected, std::string(out.status().message()));
  for (int64_t in = 0; in < n; ++in) {
    for (int64_t ic = 0; ic < out_c; ++ic) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          std::memcpy(&out->bytes[static_cast<size_t>(((in * out_c + ic) * oh + y) * ow + x) * 4],
                      &nhwc[static_cast<size_t>(((in * oh + y) * ow + x) * out_c + ic)], 4);
        }
      }
    }
  }
  RunOutcome r;
  r.output = std::move(*out);
  return r;
}

std::unique_ptr<Backend> MakeXnnpackBackend() { return std::make_unique<XnnpackBackend>(); }

}  // namespace dmconf
