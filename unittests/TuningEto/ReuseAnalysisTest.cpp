//===- ReuseAnalysisTest.cpp - Definition 2, features, ranges and GetS ----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/ReuseAnalysis.h"

#include "EtoTestUtils.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

using ReuseAnalysisTest = EtoTest;

/// Fig. 2b: the best program of beta = conv2d X[1,512,28,28] W[128,512,1,1].
SmallVector<SmallVector<int64_t>> getFig2bTiles() {
  return {{1, 1, 1, 1, 1}, {4, 1, 8, 2, 2}, {14, 1, 1, 1, 2}, {1, 1, 28, 1, 1},
          {4, 64, 2},      {1, 1, 1},       {1, 1, 1}};
}

TEST_F(ReuseAnalysisTest, Definition2) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask alpha = extract(getConvSource(1, 256, 28, 28, 128, 1, 1));
  ReuseCheck check = checkReusePair(alpha, beta);
  EXPECT_TRUE(check.reusable) << check.reason;
  EXPECT_EQ(check.order, ExtentOrder::Smaller);
  EXPECT_TRUE(check.reason.empty());
  // Symmetric: beta may reuse alpha too.
  check = checkReusePair(beta, alpha);
  EXPECT_TRUE(check.reusable);
  EXPECT_EQ(check.order, ExtentOrder::Larger);
  EXPECT_TRUE(checkReusePair(alpha, alpha).reusable);
  EXPECT_EQ(checkReusePair(alpha, alpha).order, ExtentOrder::Equal);
}

TEST_F(ReuseAnalysisTest, Definition2FailsOnOneLoop) {
  // Fewer input channels (loop 4) but more output channels (loop 1).
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask alpha = extract(getConvSource(1, 256, 28, 28, 256, 1, 1));
  ReuseCheck check = checkReusePair(alpha, beta);
  EXPECT_FALSE(check.reusable);
  EXPECT_EQ(check.order, ExtentOrder::Incomparable);
  EXPECT_EQ(check.reason, "extents are incomparable: loop 4 is smaller (256 "
                          "< 512) but loop 1 is larger (256 > 128)");
}

TEST_F(ReuseAnalysisTest, Definition2NeedsTheSameOpAndSketches) {
  TuningTask conv = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask matmul = extract(getMatmulSource(64, 64, 64));
  ReuseCheck check = checkReusePair(conv, matmul);
  EXPECT_FALSE(check.reusable);
  EXPECT_EQ(check.reason, "op kinds differ: conv_2d_nchw_fchw vs matmul");
  // A matmul whose first input is read too rarely to be staged has a
  // different sketch set than a square one.
  TuningTask skinny = extract(getMatmulSource(1, 1024, 1024));
  TuningTask square = extract(getMatmulSource(256, 256, 256));
  check = checkReusePair(skinny, square);
  EXPECT_FALSE(check.reusable);
  EXPECT_EQ(check.reason, "sketch sets differ");
}

TEST_F(ReuseAnalysisTest, FeaturesAndShapesOfFig2b) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  SearchSpace space = getSpace(beta);
  ConfigAttr config = getConfig(getFig2bTiles(), 1024, {1, 1});
  ASSERT_TRUE(succeeded(space.check(config)));
  ProgramFeatures features = getProgramFeatures(space, config);
  EXPECT_EQ(features.blocks, 56);
  EXPECT_EQ(features.threads, 56 * 224);
  EXPECT_EQ(features.sharedElements, 56 * 11264);

  llvm::Expected<ReuseShapes> shapes = getReuseShapes(space, config);
  ASSERT_TRUE(static_cast<bool>(shapes)) << llvm::toString(shapes.takeError());
  EXPECT_EQ(shapes->blockShape, (SmallVector<int64_t>{1, 32, 2, 28}));
  EXPECT_EQ(shapes->vthreadShape, (SmallVector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(shapes->threadShape, (SmallVector<int64_t>{1, 4, 2, 1}));
  EXPECT_EQ(shapes->fetchShape, (SmallVector<int64_t>{4, 1, 1}));

  // GetS gives back Fig. 2b's tiles from its shapes.
  llvm::Expected<SmallVector<SmallVector<int64_t>>> tiles =
      buildTiles(space, *shapes);
  ASSERT_TRUE(static_cast<bool>(tiles)) << llvm::toString(tiles.takeError());
  EXPECT_EQ(*tiles, getFig2bTiles());
}

TEST_F(ReuseAnalysisTest, Example3Ranges) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask alpha = extract(getConvSource(1, 256, 28, 28, 128, 1, 1));
  ProgramFeatures best{56, 56 * 224, 56 * 11264};
  int64_t space = 128 * 28 * 28;
  FeatureRanges ranges = computeFeatureRanges(best, space * 256, space * 512,
                                              256, 512, EtoOptions());
  EXPECT_DOUBLE_EQ(ranges.blocks.lo, 28);
  EXPECT_DOUBLE_EQ(ranges.blocks.hi, 112);
  EXPECT_DOUBLE_EQ(ranges.threads.lo, 56 * 112);
  EXPECT_DOUBLE_EQ(ranges.threads.hi, 56 * 224);
  EXPECT_DOUBLE_EQ(ranges.sharedElements.lo, 56 * 5632);
  EXPECT_DOUBLE_EQ(ranges.sharedElements.hi, 56 * 11264);
  EXPECT_TRUE(ranges.sharedElements.contains(56 * 5632));
  EXPECT_FALSE(ranges.blocks.contains(27.99));
}

TEST_F(ReuseAnalysisTest, BlockLowerBoundOption) {
  ProgramFeatures best{10, 100, 1000};
  EtoOptions options;
  // |I(L_alpha)| / |I(L_beta)| = 2, the reduction ratio beta / alpha = 2.
  FeatureRanges ranges = computeFeatureRanges(best, 200, 100, 50, 100, options);
  EXPECT_DOUBLE_EQ(ranges.blocks.lo, 20);
  EXPECT_DOUBLE_EQ(ranges.blocks.hi, 20);
  options.blockLowerBound = BlockLowerBound::Eq1;
  ranges = computeFeatureRanges(best, 200, 100, 50, 100, options);
  EXPECT_DOUBLE_EQ(ranges.blocks.lo, 5);
  EXPECT_DOUBLE_EQ(ranges.blocks.hi, 20);
  EXPECT_DOUBLE_EQ(ranges.threads.lo, 100);
  EXPECT_DOUBLE_EQ(ranges.threads.hi, 200);
}

TEST_F(ReuseAnalysisTest, GetSRule) {
  // Section 5.1: a space loop of 16 whose first three levels are 2.
  llvm::Expected<SmallVector<int64_t>> tiles = completeTiles(16, {2, 2, 2}, 5);
  ASSERT_TRUE(static_cast<bool>(tiles));
  EXPECT_EQ(*tiles, (SmallVector<int64_t>{2, 2, 2, 1, 2}));
  // Fig. 2b: rc of 512 with 4 fetches.
  tiles = completeTiles(512, {4}, 3);
  ASSERT_TRUE(static_cast<bool>(tiles));
  EXPECT_EQ(*tiles, (SmallVector<int64_t>{4, 64, 2}));
  // A prime rest goes innermost; nothing left is all ones.
  tiles = completeTiles(7, {}, 2);
  ASSERT_TRUE(static_cast<bool>(tiles));
  EXPECT_EQ(*tiles, (SmallVector<int64_t>{1, 7}));
  tiles = completeTiles(28, {28}, 3);
  ASSERT_TRUE(static_cast<bool>(tiles));
  EXPECT_EQ(*tiles, (SmallVector<int64_t>{28, 1, 1}));
  tiles = completeTiles(12, {5}, 3);
  ASSERT_FALSE(static_cast<bool>(tiles));
  EXPECT_EQ(llvm::toString(tiles.takeError()),
            "the given levels (product 5) do not divide the extent 12");
}

} // namespace
