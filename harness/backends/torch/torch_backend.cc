#include "harness/backends/torch/torch_backend.h"

#include <ATen/ATen.h>

#include <cstring>
#include <exception>
#include <optional>

#include "absl/strings/str_cat.h"

namespace dmconf {

namespace {

// The torch dtype that carries an element type's bits unchanged.
std::optional<at::ScalarType> Carrier(ElementType t) {
  switch (t) {
    case ElementType::kBoolean:
      return at::kBool;
    case ElementType::kU8:
    case ElementType::kF8e4m3:
    case ElementType::kF8e5m2:
    case ElementType::kF8e8m0:
      return at::kByte;
    case ElementType::kI8:
      return at::kChar;
    case ElementType::kI16:
    case ElementType::kU16:
      return at::kShort;
    case ElementType::kF16:
      return at::kHalf;
    case ElementType::kBf16:
      return at::kBFloat16;
    case ElementType::kI32:
    case ElementType::kU32:
      return at::kInt;
    case ElementType::kF32:
      return at::kFloat;
    case ElementType::kI64:
    case ElementType::kU64:
      return at::kLong;
    case ElementType::kF64:
      return at::kDouble;
    default:
      return std::nullopt;
  }
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

RunOutcome ToOutcome(const at::Tensor& y, ElementType type) {
  const at::Tensor yc = y.contiguous();
  Shape shape(yc.sizes().begin(), yc.sizes().end());
  absl::StatusOr<Tensor> t = Tensor::Zeros(type, shape);
  if (!t.ok())
    return RunOutcome::Of(RunOutcome::Kind::kRejected, std::string(t.status().message()));
  if (static_cast<size_t>(yc.nbytes()) != t->bytes.size()) {
    return RunOutcome::Of(RunOutcome::Kind::kRejected,
                          "torch output byte size differs from its shape");
  }
  if (!t->bytes.empty()) std::memcpy(t->bytes.data(), yc.data_ptr(), t->bytes.size());
  RunOutcome r;
  r.output = std::move(*t);
  return r;
}

}  // namespace

Capabilities TorchBackend::GetCapabilities() const {
  std::set<ElementType> all;
  for (ElementType t : AllElementTypes()) {
    if (Carrier(t).has_value()) all.insert(t);
  }
  Capabilities caps;
  caps.ops.push_back({Op::kDepthToSpace, all, 4, 4, {"depth_first"}, "at::pixel_shuffle; NCHW"});
  caps.ops.push_back({Op::kSpaceToDepth, all, 4, 4, {"depth_first"}, "at::pixel_unshuffle; NCHW"});
  caps.ops.push_back({Op::kExtractImagePatches,
                      {ElementType::kF32, ElementType::kF64, ElementType::kF16},
                      4,
                      4,
                      {"valid", "same_upper", "same_lower"},
                      "explicit zero padding + at::im2col + a channel permutation"});
  return caps;
}

RunOutcome TorchBackend::Run(const OpCase& c) {
  if (!Supports(c))
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported, "outside the capability table");
  if (!c.data.Validate("data").ok()) {
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported, "malformed data");
  }
  if (c.op != Op::kExtractImagePatches && !c.mode.has_value()) {
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported,
                          "torch has no mode; a missing one cannot be passed");
  }
  try {
    // A private copy of the input (from_blob does not own or copy).
    std::vector<uint8_t> in = c.data.bytes;
    const at::Tensor x = at::from_blob(in.data(), at::IntArrayRef(c.data.shape),
                                       at::TensorOptions().dtype(*Carrier(c.data.type)))
                             .clone();
    if (c.op == Op::kDepthToSpace) {
      return ToOutcome(at::pixel_shuffle(x, c.block_size.value_or(1)), c.data.type);
    }
    if (c.op == Op::kSpaceToDepth) {
      return ToOutcome(at::pixel_unshuffle(x, c.block_size.value_or(1)), c.data.type);
    }
    // ExtractImagePatches.
    if (!c.auto_pad.has_value() || !ParseAutoPad(*c.auto_pad).has_value()) {
      return RunOutcome::Of(RunOutcome::Kind::kUnsupported,
                            "no or unknown auto_pad: nothing to pass");
    }
    if (c.sizes.size() != 2 || c.strides.size() != 2 || c.rates.size() != 2) {
      return RunOutcome::Of(RunOutcome::Kind::kUnsupported,
                            "sizes, strides, rates need two values");
    }
    const AutoPad pad = *ParseAutoPad(*c.auto_pad);
    const int64_t n = c.data.shape[0], ch = c.data.shape[1];
    int64_t pads[2][2] = {{0, 0}, {0, 0}};  // [H/W][begin/end]
    if (pad != AutoPad::kValid) {
      for (int i = 0; i < 2; ++i) {
        if (c.strides[i] < 1) break;  // left to im2col to refuse
        // ERRATA E8: out = ceil(in / stride); total = max(0, (out-1)*stride + eff - in).
        const int64_t in_dim = c.data.shape[2 + i];
        const int64_t out = CeilDiv(in_dim, c.strides[i]);
        const int64_t eff = c.rates[i] * (c.sizes[i] - 1) + 1;
        const int64_t total = std::max<int64_t>(0, (out - 1) * c.strides[i] + eff - in_dim);
        const int64_t small = total / 2, big = total - small;
        pads[i][0] = pad == AutoPad::kSameUpper ? small : big;
        pads[i][1] = pad == AutoPad::kSameUpper ? big : small;
      }
    }
    const at::Tensor xp =
        at::constant_pad_nd(x, {pads[1][0], pads[1][1], pads[0][0], pads[0][1]}, 0);
    const at::Tensor cols = at::im2col(xp, {c.sizes[0], c.sizes[1]}, {c.rates[0], c.rates[1]},
                                       {0, 0}, {c.strides[0], c.strides[1]});
    int64_t oh[2];
    for (int i = 0; i < 2; ++i) {
      const int64_t eff = c.rates[i] * (c.sizes[i] - 1) + 1;
      oh[i] = (xp.size(2 + i) - eff) / c.strides[i] + 1;
    }
    if (cols.size(2) != oh[0] * oh[1]) {
      return ToOutcome(cols, c.data.type);  // an unexpected grid: shows as a wrong shape
    }
    const int64_t kh = c.sizes[0], kw = c.sizes[1];
    const at::Tensor y = cols.view({n, ch, kh, kw, oh[0], oh[1]})
                             .permute({0, 2, 3, 1, 4, 5})
                             .reshape({n, kh * kw * ch, oh[0], oh[1]});
    return ToOutcome(y, c.data.type);
  } catch (const std::exception& e) {
    std::string what = e.what();
    // c10::Error messages carry a backtrace after the first line.
    if (size_t nl = what.find('\n'); nl != std::string::npos) what.resize(nl);
    return RunOutcome::Of(RunOutcome::Kind::kRejected, absl::StrCat("torch: ", what));
  }
}

std::unique_ptr<Backend> MakeTorchBackend() { return std::make_unique<TorchBackend>(); }

}  // namespace dmconf
