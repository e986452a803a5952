// The op instances of published models (harness/suites/model_cases.h): every one valid, with the
// output shape the model itself has (hand-derived from the papers' layer sizes, not from the
// oracle's formulas), at least four per op, batch sizes above 1, and each in the catalogue.
#include "harness/suites/model_cases.h"

#include <map>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "harness/suites/catalogue.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

// name -> the output shape the model has there.
const std::map<std::string, Shape>& ModelOutputs() {
  static const auto* m = new std::map<std::string, Shape>{
      // YOLOv2: 26x26x64 -> 13x13x256 (and 20x20 -> 10x10 at a 320 input).
      {"yolov2.reorg.416", {1, 256, 13, 13}},
      {"yolov2.reorg.320.batch2", {2, 256, 10, 10}},
      {"yolov2.reorg.320.depth_first", {1, 256, 10, 10}},
      // TResNet: 224x224x3 -> 56x56x48.
      {"tresnet.stem.224", {1, 48, 56, 56}},
      // ESPCN: r^2 channels per colour channel -> an r-times larger 17x17 patch.
      {"espcn.x2.batch16", {16, 1, 34, 34}},
      {"espcn.x3.batch16", {16, 1, 51, 51}},
      {"espcn.x4.batch4", {4, 1, 68, 68}},
      {"espcn.x3.rgb", {1, 3, 51, 51}},
      // ViT: (H / P) x (W / P) tokens of P * P * C values.
      {"vit.cifar10.patch4.batch8", {8, 48, 8, 8}},
      {"vit.mnist.patch7.batch16", {16, 49, 4, 4}},
      // MobileViT: 2x2 patches of d channels.
      {"mobilevit.xxs.unfold.16x16", {1, 320, 8, 8}},
      {"mobilevit.xxs.unfold.8x8", {1, 384, 4, 4}},
      // DeepLab at rate r on 9x9: 9 + 2r padded up to a multiple of r, r^2 batches of it / r;
      // after the VALID 3x3 convolution, BatchToSpace gives back 9x9.
      {"deeplabv3.aspp.rate6.space_to_batch", {36, 4, 4, 320}},
      {"deeplabv3.aspp.rate12.space_to_batch", {144, 3, 3, 320}},
      {"deeplabv3.aspp.rate18.space_to_batch", {324, 3, 3, 320}},
      {"deeplabv3.aspp.rate6.batch2.space_to_batch", {72, 4, 4, 320}},
      {"deeplabv3.aspp.rate6.batch_to_space", {1, 9, 9, 256}},
      {"deeplabv3.aspp.rate12.batch_to_space", {1, 9, 9, 256}},
      {"deeplabv3.aspp.rate18.batch_to_space", {1, 9, 9, 256}},
      // WaveNet: T steps at dilation d become d sequences of T / d steps, and back.
      {"wavenet.dilation2.time_to_batch", {2, 512, 32}},
      {"wavenet.dilation16.time_to_batch", {16, 64, 32}},
      {"wavenet.dilation512.time_to_batch", {512, 2, 32}},
      {"wavenet.dilation16.time_to_batch.t1000", {16, 63, 32}},
      {"wavenet.dilation16.batch_to_time", {1, 1024, 32}},
      {"wavenet.dilation512.batch_to_time", {1, 1024, 32}},
  };
  return *m;
}

TEST(ModelCases, EachIsValidWithTheModelsOutputShape) {
  std::set<std::string> seen;
  for (const ModelCase& m : ModelCases()) {
    SCOPED_TRACE(m.name);
    EXPECT_TRUE(seen.insert(m.name).second) << "duplicate name";
    EXPECT_FALSE(m.source.empty());
    auto want = ModelOutputs().find(m.name);
    ASSERT_NE(want, ModelOutputs().end()) << "no hand-derived shape for this instance";
    absl::StatusOr<Validation> v = Validate(m.c);
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_EQ(v->kind(), ExpectationKind::kValid);
    EXPECT_EQ(v->output_shape, want->second);
  }
  EXPECT_EQ(seen.size(), ModelOutputs().size());
}

TEST(ModelCases, FourOrMorePerOpAndBatchesAboveOne) {
  std::map<Op, int> per_op;
  int batched = 0;
  for (const ModelCase& m : ModelCases()) {
    ++per_op[m.c.op];
    if (!m.c.data.shape.empty() && m.c.data.shape[0] > 1 && m.c.op != Op::kBatchToSpace) {
      ++batched;
    }
  }
  for (Op op : AllOps()) EXPECT_GE(per_op[op], 4) << OpName(op);
  EXPECT_GE(batched, 4);
}

TEST(ModelCases, RunInTheCatalogueUnderTheirNames) {
  std::set<std::string> names;
  for (const OpCase& c : BuildCatalogue({})) {
    if (c.id.rfind("model/", 0) == 0) names.insert(c.id.substr(6, c.id.find('/', 6) - 6));
  }
  for (const auto& [name, shape] : ModelOutputs()) EXPECT_EQ(names.count(name), 1u) << name;
}

}  // namespace
}  // namespace dmconf
