//===- ToleranceTest.cpp - How close a GPU result must be -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A TF32 matmul (inputs cut to 10 mantissa bits, f32 sums) against the f32
// reference, compared as the runner compares: f32's tolerance rejects a
// correct TF32 result, TF32's accepts it and still rejects a wrong one.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Check.h"
#include "tessel/Tuning/Measure/Reference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// `x` with its 13 low mantissa bits dropped: TF32 by truncation, the
/// coarser of the two ways a GPU gets there.
float truncateToTf32(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  bits &= ~uint32_t(0x1FFF);
  std::memcpy(&x, &bits, 4);
  return x;
}

/// C = A (m x k) * B (k x n) in f32 sums over `round`ed inputs.
std::vector<float> matmul(const HostTensor &a, const HostTensor &b, int64_t m,
                          int64_t n, int64_t k, float (*round)(float)) {
  auto at = [](const HostTensor &t, int64_t i) {
    float v;
    std::memcpy(&v, t.data.data() + 4 * i, 4);
    return v;
  };
  std::vector<float> c(m * n, 0.0f);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float sum = 0;
      for (int64_t l = 0; l < k; ++l)
        sum += round(at(a, i * k + l)) * round(at(b, l * n + j));
      c[i * n + j] = sum;
    }
  return c;
}

HostTensor asTensor(const std::vector<float> &values) {
  HostTensor t;
  t.dtype = "f32";
  t.shape = {static_cast<int64_t>(values.size())};
  t.data.resize(values.size() * 4);
  std::memcpy(t.data.data(), values.data(), t.data.size());
  return t;
}

int64_t mismatches(const std::vector<float> &got, const HostTensor &want,
                   Tolerance tolerance) {
  return ::tessel::runtime::compareElements(
             ::tessel::runtime::DType::F32, got.data(), want.data.data(),
             static_cast<int64_t>(got.size()), tolerance.rtol, tolerance.atol)
      .mismatches;
}

TEST(ToleranceTest, Tf32ResultsGetTf32sTolerance) {
  MLIRContext context;
  Builder builder(&context);
  const int64_t m = 64, n = 64, k = 1024;
  Type f32 = builder.getF32Type();
  auto inputs = makeRandomInputs(
      {RankedTensorType::get({m, k}, f32), RankedTensorType::get({k, n}, f32)},
      /*seed=*/7);
  ASSERT_TRUE(bool(inputs)) << llvm::toString(inputs.takeError());
  const HostTensor &a = (*inputs)[0], &b = (*inputs)[1];
  HostTensor reference =
      asTensor(matmul(a, b, m, n, k, [](float x) { return x; }));
  std::vector<float> tf32 = matmul(a, b, m, n, k, truncateToTf32);

  EXPECT_GT(mismatches(tf32, reference, getTolerance(reference)), 0);
  EXPECT_EQ(mismatches(tf32, reference, getTolerance(reference, true)), 0);
  // A real error still fails: one product of k missing from every sum.
  std::vector<float> wrong = tf32;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float a0, b0;
      std::memcpy(&a0, a.data.data() + 4 * (i * k), 4);
      std::memcpy(&b0, b.data.data() + 4 * j, 4);
      wrong[i * n + j] -= a0 * b0;
    }
  EXPECT_GT(mismatches(wrong, reference, getTolerance(reference, true)),
            m * n / 2);
}

} // namespace
