#include "harness/suites/model_cases.h"

#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/gen/fills.h"
#include "oracle/case_factory.h"

namespace dmconf {
namespace {

Tensor X(Shape s) { return PositionalTensor(ElementType::kF32, std::move(s)); }

constexpr char kYolo[] =
    "YOLO9000 / YOLOv2 (Redmon and Farhadi, CVPR 2017): the passthrough (reorg) layer stacks "
    "the 26x26x64 features of a 416x416 input into 13x13x256";
constexpr char kEspcn[] =
    "ESPCN (Shi et al., CVPR 2016): the efficient sub-pixel convolution layer rearranges r^2 "
    "channels into an r-times larger image (PyTorch PixelShuffle, DepthToSpace depth_first), "
    "on 17x17 low-resolution training patches";
constexpr char kVit[] =
    "Vision Transformer (Dosovitskiy et al., ICLR 2021): the image is cut into non-overlapping "
    "P x P patches that become the token sequence";
constexpr char kMobileVit[] =
    "MobileViT (Mehta and Rastegari, ICLR 2022): a MobileViT block unfolds its feature map into "
    "non-overlapping 2x2 patches before the transformer";
constexpr char kDeepLab[] =
    "DeepLabv3 (Chen et al., 2017) with a MobileNetV2 backbone (320 channels at output stride "
    "16, 129x129 input: 9x9 features): an ASPP atrous 3x3 convolution as TensorFlow runs it "
    "(atrous_conv2d: SpaceToBatchND with SAME base paddings rounded up to the rate, a VALID "
    "convolution, BatchToSpaceND cropping the rounding), NHWC";
constexpr char kWaveNet[] =
    "WaveNet (van den Oord et al., 2016): a dilated causal convolution run as time_to_batch "
    "(SpaceToBatch over time) on 1024 steps of 32 residual channels, [N, T, C]";

// DeepLab's atrous 3x3 convolution at `rate` on 9x9 features: SAME padding (rate on each side)
// rounded up to a multiple of the rate at the end; after the VALID 3x3 convolution, the
// BatchToSpace crops the rounding.
void AddAtrous(std::vector<ModelCase>* out, int64_t rate, int64_t batch) {
  const int64_t padded = 9 + 2 * rate;
  const int64_t extra = (rate - padded % rate) % rate;
  const std::string name = absl::StrCat("deeplabv3.aspp.rate", rate, batch > 1 ? ".batch2" : "");
  out->push_back({absl::StrCat(name, ".space_to_batch"), kDeepLab,
                  BlockOpCase(Op::kSpaceToBatch, X({batch, 9, 9, 320}), {1, rate, rate, 1},
                              {0, rate, rate, 0}, {0, rate + extra, rate + extra, 0})});
  if (batch > 1) return;
  // After the convolution: (padded + extra) / rate - 2 rows and columns per batch entry.
  const int64_t side = (padded + extra) / rate - 2;
  out->push_back({absl::StrCat(name, ".batch_to_space"), kDeepLab,
                  BlockOpCase(Op::kBatchToSpace, X({rate * rate, side, side, 256}),
                              {1, rate, rate, 1}, {0, 0, 0, 0}, {0, extra, extra, 0})});
}

}  // namespace

std::vector<ModelCase> ModelCases() {
  std::vector<ModelCase> out;
  // SpaceToDepth: YOLOv2's reorg, at 416x416 and at a 320x320 multi-scale input with batch 2;
  // TResNet's stem.
  out.push_back({"yolov2.reorg.416", kYolo,
                 DepthOpCase(Op::kSpaceToDepth, X({1, 64, 26, 26}), 2, "blocks_first")});
  out.push_back({"yolov2.reorg.320.batch2", absl::StrCat(kYolo, "; 320x320 multi-scale input"),
                 DepthOpCase(Op::kSpaceToDepth, X({2, 64, 20, 20}), 2, "blocks_first")});
  out.push_back({"yolov2.reorg.320.depth_first",
                 absl::StrCat(kYolo, "; 320x320 input, exported with the depth-first order"),
                 DepthOpCase(Op::kSpaceToDepth, X({1, 64, 20, 20}), 2, "depth_first")});
  out.push_back({"tresnet.stem.224",
                 "TResNet (Ridnik et al., WACV 2021): the SpaceToDepth stem turns the 224x224x3 "
                 "image into 56x56x48 with a block of 4, in place of a strided convolution",
                 DepthOpCase(Op::kSpaceToDepth, X({1, 3, 224, 224}), 4, "blocks_first")});
  // DepthToSpace: ESPCN's sub-pixel layer for x2, x3 and x4 (luma), and x3 on RGB.
  out.push_back({"espcn.x2.batch16", kEspcn,
                 DepthOpCase(Op::kDepthToSpace, X({16, 4, 17, 17}), 2, "depth_first")});
  out.push_back({"espcn.x3.batch16", kEspcn,
                 DepthOpCase(Op::kDepthToSpace, X({16, 9, 17, 17}), 3, "depth_first")});
  out.push_back({"espcn.x4.batch4", kEspcn,
                 DepthOpCase(Op::kDepthToSpace, X({4, 16, 17, 17}), 4, "depth_first")});
  out.push_back({"espcn.x3.rgb", absl::StrCat(kEspcn, "; three colour channels, 27 = 3 x 3^2"),
                 DepthOpCase(Op::kDepthToSpace, X({1, 27, 17, 17}), 3, "depth_first")});
  // ExtractImagePatches: ViT's patch embedding input and MobileViT's unfolding.
  out.push_back({"vit.cifar10.patch4.batch8", absl::StrCat(kVit, "; 32x32 CIFAR-10 images, P = 4"),
                 PatchOpCase(X({8, 3, 32, 32}), {4, 4}, {4, 4}, {1, 1}, "valid")});
  out.push_back({"vit.mnist.patch7.batch16", absl::StrCat(kVit, "; 28x28 MNIST digits, P = 7"),
                 PatchOpCase(X({16, 1, 28, 28}), {7, 7}, {7, 7}, {1, 1}, "valid")});
  out.push_back({"mobilevit.xxs.unfold.16x16",
                 absl::StrCat(kMobileVit, "; 16x16 map of d = 80 at a 256x256 input"),
                 PatchOpCase(X({1, 80, 16, 16}), {2, 2}, {2, 2}, {1, 1}, "valid")});
  out.push_back({"mobilevit.xxs.unfold.8x8",
                 absl::StrCat(kMobileVit, "; 8x8 map of d = 96 at a 256x256 input"),
                 PatchOpCase(X({1, 96, 8, 8}), {2, 2}, {2, 2}, {1, 1}, "valid")});
  // SpaceToBatch / BatchToSpace: DeepLab's ASPP rates, and WaveNet's dilations.
  for (int64_t rate : {6, 12, 18}) AddAtrous(&out, rate, 1);
  AddAtrous(&out, 6, 2);
  for (int64_t d : {2, 16, 512}) {
    out.push_back(
        {absl::StrCat("wavenet.dilation", d, ".time_to_batch"), kWaveNet,
         BlockOpCase(Op::kSpaceToBatch, X({1, 1024, 32}), {1, d, 1}, {0, 0, 0}, {0, 0, 0})});
  }
  // A length that is not a multiple of the dilation: time_to_batch pads the end up to one.
  out.push_back(
      {"wavenet.dilation16.time_to_batch.t1000",
       absl::StrCat(kWaveNet, "; 1000 steps, padded at the end to 1008"),
       BlockOpCase(Op::kSpaceToBatch, X({1, 1000, 32}), {1, 16, 1}, {0, 0, 0}, {0, 8, 0})});
  for (int64_t d : {16, 512}) {
    out.push_back(
        {absl::StrCat("wavenet.dilation", d, ".batch_to_time"), kWaveNet,
         BlockOpCase(Op::kBatchToSpace, X({d, 1024 / d, 32}), {1, d, 1}, {0, 0, 0}, {0, 0, 0})});
  }
  return out;
}

}  // namespace dmconf
