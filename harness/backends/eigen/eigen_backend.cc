#include "harness/backends/eigen/eigen_backend.h"

#include <cstring>
#include <limits>
#include <unsupported/Eigen/CXX11/Tensor>

#include "absl/strings/str_cat.h"

namespace dmconf {

namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Sizes are kept far below Eigen's float-based output size arithmetic (exact up to 2^24).
constexpr int64_t kMaxDim = int64_t{1} << 20;

struct Params {
  int64_t n, c, h, w, kh, kw, sh, sw, rh, rw;
  AutoPad pad;
};

template <typename T>
RunOutcome RunTyped(const OpCase& oc, const Params& p) {
  using In = Eigen::Tensor<T, 4, Eigen::RowMajor, Eigen::Index>;
  // NCHW bytes -> RowMajor NHWC tensor x(n, h, w, c).
  In x(p.n, p.h, p.w, p.c);
  const T* src = reinterpret_cast<const T*>(oc.data.bytes.data());
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t c = 0; c < p.c; ++c)
      for (int64_t y = 0; y < p.h; ++y)
        for (int64_t v = 0; v < p.w; ++v) {
          T e;
          std::memcpy(&e, src + ((n * p.c + c) * p.h + y) * p.w + v, sizeof(T));
          x(n, y, v, c) = e;
        }
  // Eigen's rows are W here (the dim next to depth), so every (rows, cols) pair is (W, H).
  Eigen::Tensor<T, 5, Eigen::RowMajor, Eigen::Index> y;
  int64_t oh = 0, ow = 0;
  if (p.pad == AutoPad::kSameLower) {
    // ERRATA E8: out = ceil(in / stride), total pad = max(0, (out-1)*stride + eff - in), the odd
    // remainder at the beginning.
    oh = CeilDiv(p.h, p.sh);
    ow = CeilDiv(p.w, p.sw);
    const int64_t th = std::max<int64_t>(0, (oh - 1) * p.sh + p.rh * (p.kh - 1) + 1 - p.h);
    const int64_t tw = std::max<int64_t>(0, (ow - 1) * p.sw + p.rw * (p.kw - 1) + 1 - p.w);
    y = x.extract_image_patches(p.kw, p.kh, p.sw, p.sh, p.rw, p.rh, 1, 1, tw - tw / 2, tw / 2,
                                th - th / 2, th / 2, T(0));
  } else {
    const bool valid = p.pad == AutoPad::kValid;
    y = x.extract_image_patches(p.kw, p.kh, p.sw, p.sh, p.rw, p.rh,
                                valid ? Eigen::PADDING_VALID : Eigen::PADDING_SAME, T(0));
    if (valid) {
      oh = CeilDiv(p.h - (p.rh * (p.kh - 1) + 1) + 1, p.sh);
      ow = CeilDiv(p.w - (p.rw * (p.kw - 1) + 1) + 1, p.sw);
    } else {
      oh = CeilDiv(p.h, p.sh);
      ow = CeilDiv(p.w, p.sw);
    }
  }
  // y: [N, patches, kh, kw, C] (RowMajor; patch index = oh_i * OW + ow_i).
  const int64_t patches = y.dimension(1);
  const int64_t depth = p.kh * p.kw * p.c;
  if (y.dimension(0) != p.n || y.size() != p.n * patches * depth) {
    return RunOutcome::Of(RunOutcome::Kind::kRejected, "Eigen returned an unexpected patch tensor");
  }
  if (patches != oh * ow) {
    // Eigen's own patch grid disagrees with the spec's: report its patches as a 1-row grid so
    // the comparison shows a wrong shape.
    oh = 1;
    ow = patches;
  }
  absl::StatusOr<Tensor> out = Tensor::Zeros(oc.data.type, {p.n, depth, oh, ow});
  if (!out.ok())
    return RunOutcome::Of(RunOutcome::Kind::kRejected, std::string(out.status().message()));
  const T* yd = y.data();
  for (int64_t n = 0; n < p.n; ++n)
    for (int64_t q = 0; q < patches; ++q)
      for (int64_t d = 0; d < depth; ++d) {
        std::memcpy(&out->bytes[static_cast<size_t>((n * depth + d) * patches + q) * sizeof(T)],
                    yd + (n * patches + q) * depth + d, sizeof(T));
      }
  RunOutcome r;
  r.output = std::move(*out);
  return r;
}

}  // namespace

Capabilities EigenBackend::GetCapabilities() const {
  std::set<ElementType> types;
  for (ElementType t : AllElementTypes()) {
    if (!IsSubByte(t)) types.insert(t);
  }
  Capabilities caps;
  caps.ops.push_back({Op::kExtractImagePatches,
                      types,
                      4,
                      4,
                      {"valid", "same_upper", "same_lower"},
                      "sizes, strides, rates >= 1; valid needs the effective kernel to fit"});
  return caps;
}

std::string EigenBackend::Unsupported(const OpCase& c, const Capabilities& declared) const {
  if (!CapabilitiesSupport(declared, c)) {
    return "outside the capability table (ExtractImagePatches, byte-aligned types, rank 4)";
  }
  if (!c.auto_pad.has_value() || !ParseAutoPad(*c.auto_pad).has_value()) {
    return "no or unknown auto_pad: Eigen has no way to refuse it";
  }
  if (!c.data.Validate("data").ok()) return "malformed data tensor";
  if (c.sizes.size() != 2 || c.strides.size() != 2 || c.rates.size() != 2) {
    return "sizes, strides and rates need two values each (Eigen does not check)";
  }
  for (const std::vector<int64_t>* v : {&c.sizes, &c.strides, &c.rates}) {
    for (int64_t x : *v) {
      if (x < 1 || x > kMaxDim)
        return "sizes, strides and rates must be in [1, 2^20] (Eigen does not check)";
    }
  }
  for (int64_t d : c.data.shape) {
    if (d > kMaxDim) return "a dim above 2^20 (Eigen computes output sizes in float)";
  }
  if (c.data.NumElements() == 0) return "an empty input (Eigen's patch arithmetic needs dims >= 1)";
  if (*ParseAutoPad(*c.auto_pad) == AutoPad::kValid) {
    for (int i = 0; i < 2; ++i) {
      if (c.rates[i] * (c.sizes[i] - 1) + 1 > c.data.shape[2 + i]) {
        return "valid padding with an effective kernel larger than the input: Eigen asserts "
               "(abort, or bad_alloc under NDEBUG)";
      }
    }
  }
  return "";
}

bool EigenBackend::Supports(const OpCase& c, const Capabilities& declared) const {
  return Unsupported(c, declared).empty();
}

RunOutcome EigenBackend::Run(const OpCase& c) {
  if (std::string why = Unsupported(c, GetCapabilities()); !why.empty()) {
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported, why);
  }
  const Params p{c.data.shape[0],
                 c.data.shape[1],
                 c.data.shape[2],
                 c.data.shape[3],
                 c.sizes[0],
                 c.sizes[1],
                 c.strides[0],
                 c.strides[1],
                 c.rates[0],
                 c.rates[1],
                 *ParseAutoPad(*c.auto_pad)};
  switch (BitWidth(c.data.type)) {
    case 8:
      return RunTyped<uint8_t>(c, p);
    case 16:
      return RunTyped<uint16_t>(c, p);
    case 32:
      return RunTyped<uint32_t>(c, p);
    case 64:
      return RunTyped<uint64_t>(c, p);
    default:
      return RunOutcome::Of(RunOutcome::Kind::kUnsupported, "sub-byte element type");
  }
}

std::unique_ptr<Backend> MakeEigenBackend() { return std::make_unique<EigenBackend>(); }

}  // namespace dmconf
