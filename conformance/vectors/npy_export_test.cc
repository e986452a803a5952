// NPY 1.0 bytes written by hand from the format description (numpy's NEP 1): magic, version
// 1.0, little-endian header length, a Python-literal dict padded to a multiple of 64 bytes.
#include "harness/io/npy_export.h"

#include <gtest/gtest.h>

namespace dmconf::io {
namespace {

TEST(NpyExport, HeaderAndDataOfAnI16Matrix) {
  Tensor t = *MakeIntegerTensor(ElementType::kI16, {1, -2, 3, 4, 5, 6});
  t.shape = {2, 3};
  std::string dtype, encoding;
  const std::string npy = TensorToNpy(t, &dtype, &encoding);
  EXPECT_EQ(dtype, "<i2");
  EXPECT_EQ(encoding, "value");
  const std::string dict = "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }";
  // 10 + 59 + 1 = 70 bytes, padded to 128.
  ASSERT_EQ(npy.size(), 128u + 12u);
  EXPECT_EQ(npy.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(static_cast<uint8_t>(npy[8]) | (static_cast<uint8_t>(npy[9]) << 8), 118);
  EXPECT_EQ(npy.substr(10, dict.size()), dict);
  EXPECT_EQ(npy[127], '\n');
  EXPECT_EQ(npy[69], ' ');
  EXPECT_EQ(npy.substr(128, 4), std::string("\x01\x00\xfe\xff", 4));  // 1, -2 little-endian
}

TEST(NpyExport, OneDimensionalShapeHasATrailingComma) {
  Tensor t = *MakeIntegerTensor(ElementType::kU8, {1, 2, 3});
  std::string dtype, encoding;
  const std::string npy = TensorToNpy(t, &dtype, &encoding);
  EXPECT_NE(npy.find("'shape': (3,), }"), std::string::npos);
}

TEST(NpyExport, SubByteAndBitEncodedTypes) {
  std::string dtype, encoding;
  Tensor i4 = *MakeIntegerTensor(ElementType::kI4, {-1, 7, -8});
  std::string npy = TensorToNpy(i4, &dtype, &encoding);
  EXPECT_EQ(dtype, "|i1");
  EXPECT_EQ(npy.substr(npy.size() - 3), std::string("\xff\x07\xf8", 3));  // one per byte
  Tensor bf = *Tensor::Zeros(ElementType::kBf16, {1});
  bf.SetBits(0, 0x3F80);
  npy = TensorToNpy(bf, &dtype, &encoding);
  EXPECT_EQ(dtype, "<u2");
  EXPECT_EQ(encoding, "bits");
  EXPECT_EQ(npy.substr(npy.size() - 2), std::string("\x80\x3f", 2));
  Tensor scalar = *Tensor::Zeros(ElementType::kF32, {});
  npy = TensorToNpy(scalar, &dtype, &encoding);
  EXPECT_NE(npy.find("'shape': (), }"), std::string::npos);
}

}  // namespace
}  // namespace dmconf::io
