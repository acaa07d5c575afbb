//===- CheckTest.cpp - Tests of output comparison -------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Check.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

using namespace tessel::runtime;

namespace {

CompareResult compareF32(const std::vector<float> &got,
                         const std::vector<float> &want, double rtol,
                         double atol) {
  return compareElements(DType::F32, got.data(), want.data(),
                         static_cast<int64_t>(got.size()), rtol, atol);
}

TEST(CheckTest, DTypeNamesAndSizes) {
  for (DType type : {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I8,
                     DType::I32, DType::I64})
    EXPECT_EQ(symbolizeDType(stringifyDType(type)), type);
  EXPECT_EQ(symbolizeDType("f8"), std::nullopt);
  EXPECT_EQ(getDTypeSize(DType::BF16), 2u);
  EXPECT_EQ(getDTypeSize(DType::I64), 8u);
  EXPECT_EQ(getDTypeSize(DType::I8), 1u);
  EXPECT_TRUE(isFloatDType(DType::F16));
  EXPECT_FALSE(isFloatDType(DType::I32));
}

TEST(CheckTest, F32WithinTolerancePasses) {
  // |got - want| <= atol + rtol * |want|: 1e-5 + 1e-4 * 100 = 0.01001.
  CompareResult result =
      compareF32({100.01f, 0.0f}, {100.0f, 0.0f}, 1e-4, 1e-5);
  EXPECT_TRUE(result.passed());
  EXPECT_EQ(result.firstMismatch, -1);
  EXPECT_NEAR(result.maxAbsError, 0.01, 1e-5);
  EXPECT_NEAR(result.maxRelError, 1e-4, 1e-7);
  EXPECT_EQ(result.describe(), "all 2 elements match");
}

TEST(CheckTest, F32OutsideToleranceFailsAtTheFirstIndex) {
  CompareResult result =
      compareF32({1, 2, 3.5f, 4, 6}, {1, 2, 3, 4, 5}, 1e-4, 1e-5);
  EXPECT_FALSE(result.passed());
  EXPECT_EQ(result.mismatches, 2);
  EXPECT_EQ(result.firstMismatch, 2);
  EXPECT_EQ(result.firstGot, 3.5);
  EXPECT_EQ(result.firstWant, 3);
  EXPECT_EQ(result.maxAbsError, 1);
  EXPECT_NEAR(result.maxRelError, 0.2, 1e-12);
  EXPECT_EQ(result.describe(),
            "2 of 5 elements differ; first at index 2: got 3.5, want 3; max "
            "abs error 1, max rel error 0.2");
}

TEST(CheckTest, NaNNeverPasses) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  CompareResult got = compareF32({1, nan}, {1, 2}, 1, 1);
  EXPECT_EQ(got.mismatches, 1);
  EXPECT_EQ(got.firstMismatch, 1);
  EXPECT_EQ(got.describe(), "1 of 2 elements differ; first at index 1: got "
                            "nan, want 2; max abs error 0, max rel error 0");
  // NaN expected: fails too, even against NaN.
  EXPECT_FALSE(compareF32({nan}, {nan}, 1, 1).passed());
  // Poison (all 0xFF bytes) is a NaN.
  std::vector<uint8_t> poison(4, 0xFF);
  float one = 1;
  EXPECT_FALSE(
      compareElements(DType::F32, poison.data(), &one, 1, 1, 1).passed());
}

TEST(CheckTest, EqualInfinitiesPass) {
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(compareF32({inf, -inf}, {inf, -inf}, 0, 0).passed());
  EXPECT_FALSE(compareF32({inf}, {-inf}, 0, 0).passed());
  EXPECT_FALSE(compareF32({inf}, {1}, 1, 1).passed());
}

TEST(CheckTest, HalfConversion) {
  EXPECT_EQ(halfToDouble(0x3C00), 1.0);
  EXPECT_EQ(halfToDouble(0xC000), -2.0);
  EXPECT_EQ(halfToDouble(0x3555), 0.333251953125);
  EXPECT_EQ(halfToDouble(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(halfToDouble(0x7BFF), 65504.0);
  EXPECT_TRUE(std::isinf(halfToDouble(0x7C00)));
  EXPECT_TRUE(std::isnan(halfToDouble(0x7E00)));
}

TEST(CheckTest, F16Tolerance) {
  // 1.0 and the next half (1 + 2^-10), with the f16 default rtol 1e-2.
  std::vector<uint16_t> got = {0x3C01, 0x4000}, want = {0x3C00, 0x3C00};
  CompareResult result =
      compareElements(DType::F16, got.data(), want.data(), 2, 1e-2, 1e-3);
  EXPECT_EQ(result.mismatches, 1);
  EXPECT_EQ(result.firstMismatch, 1);
  EXPECT_EQ(result.firstGot, 2.0);
  EXPECT_EQ(result.firstWant, 1.0);
}

TEST(CheckTest, BF16Tolerance) {
  EXPECT_EQ(bfloat16ToDouble(0x3F80), 1.0);
  EXPECT_EQ(bfloat16ToDouble(0xC040), -3.0);
  EXPECT_TRUE(std::isnan(bfloat16ToDouble(0x7FC0)));
  // 1.0078125 (one bf16 ulp above 1) passes rtol 2e-2; 1.25 does not.
  std::vector<uint16_t> got = {0x3F81, 0x3FA0, 0x7FC0};
  std::vector<uint16_t> want = {0x3F80, 0x3F80, 0x3F80};
  CompareResult result =
      compareElements(DType::BF16, got.data(), want.data(), 3, 2e-2, 1e-2);
  EXPECT_EQ(result.mismatches, 2);
  EXPECT_EQ(result.firstMismatch, 1);
  EXPECT_EQ(result.firstGot, 1.25);
}

TEST(CheckTest, IntegersCompareExactly) {
  std::vector<int32_t> got = {1, 2, 4}, want = {1, 2, 3};
  CompareResult result =
      compareElements(DType::I32, got.data(), want.data(), 3, 0, 0);
  EXPECT_EQ(result.firstMismatch, 2);
  std::vector<int8_t> bytes = {-1, 5}, same = {-1, 5};
  EXPECT_TRUE(
      compareElements(DType::I8, bytes.data(), same.data(), 2, 0, 0).passed());
  // Distinct int64 values that round to the same double.
  std::vector<int64_t> big = {(int64_t(1) << 60) + 1},
                       other = {int64_t(1) << 60};
  EXPECT_FALSE(
      compareElements(DType::I64, big.data(), other.data(), 1, 0, 0).passed());
}

TEST(CheckTest, UnalignedData) {
  std::vector<uint8_t> got(9), want(9);
  double value = 1.5;
  std::memcpy(got.data() + 1, &value, 8);
  std::memcpy(want.data() + 1, &value, 8);
  EXPECT_TRUE(
      compareElements(DType::F64, got.data() + 1, want.data() + 1, 1, 0, 0)
          .passed());
}

TEST(CheckTest, RelativeL2Error) {
  std::vector<float> got = {3, 4};
  std::vector<double> want = {3, 4};
  EXPECT_EQ(relativeL2Error(got.data(), want.data(), 2), 0);
  got = {3, 4.5f};
  EXPECT_NEAR(relativeL2Error(got.data(), want.data(), 2), 0.1, 1e-12);
  got = {NAN, 4};
  EXPECT_TRUE(std::isnan(relativeL2Error(got.data(), want.data(), 2)));
}

} // namespace
