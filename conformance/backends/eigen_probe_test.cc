// Probe behind docs/findings.md (F6): Eigen's extract_image_patches with PADDING_VALID and an
// effective kernel larger than the input. ExtractImagePatches-3 (ERRATA E8) gives an empty
// output there; Eigen asserts m_outputRows > 0 (abort when assertions are on) and, with NDEBUG,
// divides by the zero row count (SIGFPE) or, with -1 rows and -1 cols, returns one patch.
// Run in a forked child only.
#include <new>
#include <unsupported/Eigen/CXX11/Tensor>

#include "conformance/backends/backend_test_util.h"
#include "gtest/gtest.h"

namespace dmconf {
namespace {

using ::dmconf::testing::RunInChild;

int ExtractValid(Eigen::Index kernel) {
  try {
    Eigen::Tensor<float, 4, Eigen::RowMajor> x(1, 2, 2, 1);  // NHWC, 2x2 image
    x.setZero();
    Eigen::Tensor<float, 5, Eigen::RowMajor> y =
        x.extract_image_patches(kernel, kernel, 1, 1, 1, 1, Eigen::PADDING_VALID);
    // 0: an empty patch set, as the spec says; else 10 + the number of patches Eigen made.
    return y.dimension(1) == 0 ? 0 : static_cast<int>(10 + y.dimension(1));
  } catch (const std::bad_alloc&) {
    return 2;
  }
}

TEST(EigenFindings, F6ValidKernelLargerThanInputDoesNotGiveEmptyOutput) {
  // Effective kernel = input + 1: zero output rows, which Eigen then divides by.
  const std::string zero_rows = RunInChild([] { return ExtractValid(3); });
  // Effective kernel = input + 2: a negative output size.
  const std::string negative_rows = RunInChild([] { return ExtractValid(4); });
#ifdef NDEBUG
  EXPECT_EQ(zero_rows, "signal:8");  // SIGFPE
  // -1 rows times -1 cols: one patch, whose values come from outside the image.
  EXPECT_EQ(negative_rows, "exit:11");
#else
  EXPECT_EQ(zero_rows, "signal:6");  // eigen_assert(m_outputRows > 0)
  EXPECT_EQ(negative_rows, "signal:6");
#endif
}

TEST(EigenFindings, F6ControlKernelThatFits) {
  EXPECT_EQ(RunInChild([] {
              Eigen::Tensor<float, 4, Eigen::RowMajor> x(1, 2, 2, 1);
              x.setZero();
              Eigen::Tensor<float, 5, Eigen::RowMajor> y =
                  x.extract_image_patches(2, 2, 1, 1, 1, 1, Eigen::PADDING_VALID);
              return static_cast<int>(y.dimension(1));  // one 2x2 patch
            }),
            "exit:1");
}

}  // namespace
}  // namespace dmconf
