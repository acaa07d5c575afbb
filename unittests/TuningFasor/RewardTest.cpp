//===- RewardTest.cpp - Fasor's Eq. 3 reward ------------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Reward.h"

#include "gtest/gtest.h"

using namespace mlir::tessel::fasor;

namespace {

TEST(RewardTest, ModesWeights) {
  RewardWeights efficiency = RewardWeights::highEfficiency();
  EXPECT_EQ(efficiency.latency, 0.35);
  EXPECT_EQ(efficiency.roofline, 0.25);
  EXPECT_EQ(efficiency.iterations, 0.40);
  RewardWeights quality = RewardWeights::highQuality();
  EXPECT_EQ(quality.latency, 0.45);
  EXPECT_EQ(quality.roofline, 0.35);
  EXPECT_EQ(quality.iterations, 0.20);
  RewardWeights plain = quality.withoutRoofline();
  EXPECT_EQ(plain.latency, 0.45);
  EXPECT_EQ(plain.roofline, 0.0);
  EXPECT_EQ(plain.iterations, 0.20);
}

/// 100 us -> 80 us (20% faster), CS 0.6, MS 0.3 (ratio 2), step 2 of 10:
/// 0.35 x 0.2 + 0.25 x 2 - 0.40 x 0.2 = 0.49 (high efficiency) and
/// 0.45 x 0.2 + 0.35 x 2 - 0.20 x 0.2 = 0.75 (high quality).
TEST(RewardTest, Formula) {
  EXPECT_NEAR(computeReward(100, 80, 0.6, 0.3, 2, 10,
                            RewardWeights::highEfficiency()),
              0.49, 1e-12);
  EXPECT_NEAR(computeReward(100, 80, 0.6, 0.3, 2, 10,
                            RewardWeights::highQuality()),
              0.75, 1e-12);
  // Without the roofline term only the gain and the iteration cost remain.
  EXPECT_NEAR(computeReward(100, 80, 0.6, 0.3, 2, 10,
                            RewardWeights::highQuality().withoutRoofline()),
              0.05, 1e-12);
}

/// A slower schedule is punished; later steps cost more; MS near 0 counts
/// as 0.05, so the roofline term stays bounded.
TEST(RewardTest, SignsAndBounds) {
  RewardWeights weights = RewardWeights::highEfficiency();
  double faster = computeReward(100, 90, 0.5, 0.5, 1, 10, weights);
  double slower = computeReward(100, 110, 0.5, 0.5, 1, 10, weights);
  EXPECT_GT(faster, slower);
  EXPECT_NEAR(faster - slower, 0.35 * 0.2, 1e-12);
  EXPECT_GT(computeReward(100, 90, 0.5, 0.5, 1, 10, weights),
            computeReward(100, 90, 0.5, 0.5, 5, 10, weights));
  EXPECT_NEAR(computeReward(100, 100, 1.0, 0.0, 0, 10, weights),
              0.25 * 20, 1e-12);
}

} // namespace
