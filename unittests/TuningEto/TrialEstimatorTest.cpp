//===- TrialEstimatorTest.cpp - The sampled trial estimate ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/TrialEstimator.h"

#include "EtoTestUtils.h"

#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

namespace {

using TrialEstimatorTest = EtoTest;

TEST_F(TrialEstimatorTest, DeterministicAndSampled) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask alpha = extract(getConvSource(1, 256, 28, 28, 128, 1, 1));
  EtoOptions options;
  auto start = std::chrono::steady_clock::now();
  double estimate = estimateEtoTrials(alpha, beta, device, options, 7);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::cout << "estimate " << estimate << " in " << seconds * 1000 << " ms\n";
  EXPECT_TRUE(std::isfinite(estimate));
  EXPECT_GT(estimate, 0);
  EXPECT_EQ(estimateEtoTrials(alpha, beta, device, options, 7), estimate);

  // One sample is the count of the first config the seed draws.
  options.samples = 1;
  double one = estimateEtoTrials(alpha, beta, device, options, 7);
  SearchSpace space =
      *SearchSpace::get(beta.getTargetOp(), beta.sketches.front(), device);
  ASSERT_EQ(beta.sketches.size(), 1u);
  RandomEngine rng(7);
  FailureOr<ConfigAttr> config = space.sample(rng);
  ASSERT_TRUE(succeeded(config));
  llvm::Expected<int64_t> count = countEtoTrials(
      alpha, {&beta, space.getSketch(), *config}, device, options);
  ASSERT_TRUE(static_cast<bool>(count)) << llvm::toString(count.takeError());
  EXPECT_EQ(one, static_cast<double>(*count));

  // No samples, or no shared sketch: no edge.
  options.samples = 0;
  EXPECT_TRUE(std::isinf(estimateEtoTrials(alpha, beta, device, options, 7)));
  TuningTask matmul = extract(getMatmulSource(64, 64, 64));
  EXPECT_TRUE(
      std::isinf(estimateEtoTrials(matmul, beta, device, EtoOptions(), 7)));
}

} // namespace

namespace {

/// Matmuls and 3x3 and 1x1 convolutions of ResNet-50 sizes.
TEST_F(TrialEstimatorTest, LargerPairs) {
  std::vector<std::pair<std::string, std::string>> pairs = {
      {getMatmulSource(512, 1024, 1024), getMatmulSource(1024, 1024, 1024)},
      {getConvSource(1, 64, 58, 58, 64, 3, 3),
       getConvSource(1, 128, 30, 30, 128, 3, 3)},
      {getConvSource(1, 256, 14, 14, 256, 1, 1),
       getConvSource(1, 512, 28, 28, 512, 1, 1)}};
  for (auto &[alphaSource, betaSource] : pairs) {
    TuningTask alpha = extract(alphaSource);
    TuningTask beta = extract(betaSource);
    auto start = std::chrono::steady_clock::now();
    double estimate = estimateEtoTrials(alpha, beta, device, EtoOptions(), 1);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::cout << alpha.describe() << " <- " << beta.describe() << ": "
              << estimate << " in " << seconds * 1000 << " ms\n";
    EXPECT_TRUE(std::isfinite(estimate));
    EXPECT_GT(estimate, 0);
    // The driver estimates O(n^2) pairs: well under a second each (tens of
    // milliseconds on the development machine).
    EXPECT_LT(seconds, 1.0);
  }
}

} // namespace
