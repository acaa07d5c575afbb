//===- ShapeCostsTest.cpp - GetBShape, GetLShape, GetTShape on Example 3 --===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/ShapeCosts.h"

#include "EtoTestUtils.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

using ShapeCostsTest = EtoTest;

/// Example 3: alpha = conv2d X[1,256,28,28] W[128,256,1,1] reusing Fig. 2b.
TEST_F(ShapeCostsTest, Example3) {
  TuningTask alpha = extract(getConvSource(1, 256, 28, 28, 128, 1, 1));
  SearchSpace space = getSpace(alpha);
  llvm::Expected<ShapeCostModel> model =
      ShapeCostModel::get(space, EtoOptions());
  ASSERT_TRUE(static_cast<bool>(model)) << llvm::toString(model.takeError());

  // The block counts in [28, 112].
  SmallVector<int64_t> inRange;
  for (int64_t blocks : model->getBlockCounts())
    if (blocks >= 28 && blocks <= 112)
      inRange.push_back(blocks);
  EXPECT_EQ(inRange, (SmallVector<int64_t>{28, 32, 49, 56, 64, 98, 112}));

  std::optional<SmallVector<int64_t>> blockShape = model->getBlockShape(56);
  ASSERT_TRUE(blockShape);
  EXPECT_EQ(*blockShape, (SmallVector<int64_t>{1, 32, 2, 28}));

  // The default LShape keeps beta's 11264 elements per block.
  SmallVector<int64_t> fetchShape = model->getFetchShape(
      *blockShape, 11264, model->getLargestReductionLoop());
  EXPECT_EQ(fetchShape, (SmallVector<int64_t>{2, 1, 1}));
  EXPECT_EQ(model->getSharedElements(*blockShape, fetchShape), 11264);
  EXPECT_EQ(model->getSharedElements(*blockShape, {4, 1, 1}), 5632);

  // T = 56 x 224 gives beta's TShape back.
  std::optional<ThreadShape> threadShape =
      model->getThreadShape(56 * 224, *blockShape, fetchShape);
  ASSERT_TRUE(threadShape);
  EXPECT_EQ(threadShape->vthreadShape, (SmallVector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(threadShape->threadShape, (SmallVector<int64_t>{1, 4, 2, 1}));
  // Example 3's best TShapes of the other two thread counts.
  std::optional<ThreadShape> other =
      model->getThreadShape(56 * 112, *blockShape, fetchShape);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->vthreadShape, (SmallVector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(other->threadShape, (SmallVector<int64_t>{1, 4, 2, 2}));
  other = model->getThreadShape(56 * 128, *blockShape, fetchShape);
  ASSERT_TRUE(other);
  EXPECT_EQ(other->vthreadShape, (SmallVector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(other->threadShape, (SmallVector<int64_t>{1, 2, 1, 7}));
  // Every thread count of [112, 224] per block that the block shape allows.
  SmallVector<int64_t> threads;
  for (int64_t perBlock = 112; perBlock <= 224; ++perBlock)
    if (model->getThreadShape(56 * perBlock, *blockShape, fetchShape))
      threads.push_back(perBlock);
  EXPECT_EQ(threads, (SmallVector<int64_t>{112, 128, 224}));
  // A thread count that no thread shape gives.
  EXPECT_FALSE(model->getThreadShape(56 * 113, *blockShape, fetchShape));
}

TEST_F(ShapeCostsTest, BlockShapeCost) {
  TuningTask alpha = extract(getConvSource(1, 256, 28, 28, 128, 1, 1));
  SearchSpace space = getSpace(alpha);
  EtoOptions options;
  llvm::Expected<ShapeCostModel> model = ShapeCostModel::get(space, options);
  ASSERT_TRUE(static_cast<bool>(model));
  // Block [1,32,2,28]: the kernel is 32 contiguous rows of 256 floats (64
  // lines), the input 256 runs of 2 x 28 floats (2 lines each); 56 blocks.
  EXPECT_EQ(model->getBlockShapeCost({1, 32, 2, 28}), 56 * (256 + 512));
  options.cacheLineBytes = 32;
  llvm::Expected<ShapeCostModel> small = ShapeCostModel::get(space, options);
  ASSERT_TRUE(static_cast<bool>(small));
  EXPECT_EQ(small->getBlockShapeCost({1, 32, 2, 28}), 56 * (1024 + 256 * 7));
  options.cacheLineBytes = 0;
  llvm::Expected<ShapeCostModel> bad = ShapeCostModel::get(space, options);
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "cache-line-bytes must be positive, not 0");
}

TEST_F(ShapeCostsTest, FetchShapes) {
  TuningTask task = extract(getConvSource(1, 16, 10, 10, 8, 3, 3));
  SearchSpace space = getSpace(task);
  llvm::Expected<ShapeCostModel> model =
      ShapeCostModel::get(space, EtoOptions());
  ASSERT_TRUE(static_cast<bool>(model));
  // One dimension above 1 at most: rc (16) has 4 divisors above 1, ry and rx
  // (3) one each.
  SmallVector<SmallVector<int64_t>> shapes = model->getFetchShapes();
  ASSERT_EQ(shapes.size(), 7u);
  EXPECT_EQ(shapes[0], (SmallVector<int64_t>{1, 1, 1}));
  EXPECT_EQ(shapes[1], (SmallVector<int64_t>{2, 1, 1}));
  EXPECT_EQ(shapes[6], (SmallVector<int64_t>{1, 1, 3}));
  for (const SmallVector<int64_t> &shape : shapes)
    EXPECT_LE(llvm::count_if(shape, [](int64_t x) { return x > 1; }), 1);
  EXPECT_EQ(model->getLargestReductionLoop(), 0u);
}

} // namespace
