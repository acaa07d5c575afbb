//===- ShrinkingTest.cpp - Fasor's search-space shrinking -----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Shrinking.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <set>

using namespace mlir::tessel::fasor;

namespace {

/// A hand-made table: staging (compute_at) and splits move MS most, splits
/// and unrolling move CS most; fuse and reorder move nothing.
SensitivityTable getTable() {
  return {
      {Primitive::Split, {0.30, 0.40}},
      {Primitive::Fuse, {0.00, 0.00}},
      {Primitive::Vectorization, {0.20, 0.05}},
      {Primitive::Reorder, {0.00, 0.00}},
      {Primitive::Unrolling, {0.02, 0.35}},
      {Primitive::Parallel, {0.10, 0.20}},
      {Primitive::ComputeAt, {0.40, 0.10}},
      {Primitive::ComputeInline, {0.05, 0.01}},
  };
}

std::vector<std::string> names(const std::vector<Primitive> &primitives) {
  std::vector<std::string> result;
  for (Primitive primitive : primitives)
    result.push_back(getPrimitiveName(primitive).str());
  return result;
}

TEST(ShrinkingTest, Bottleneck) {
  EXPECT_EQ(classifyBottleneck(0.7, 0.2), Bottleneck::Memory);
  EXPECT_EQ(classifyBottleneck(0.2, 0.7), Bottleneck::Compute);
  EXPECT_EQ(classifyBottleneck(0.5, 0.5), Bottleneck::Memory);
}

/// n_p = 5 drops the three primitives least sensitive to the bottleneck:
/// for a memory-bound task unrolling and the two insensitive ones; for a
/// compute-bound task inlining and the two insensitive ones. Results keep
/// Tab. 1's order.
TEST(ShrinkingTest, TopPrimitivesByBottleneck) {
  auto memory = selectPrimitives(getTable(), Bottleneck::Memory, 5);
  ASSERT_TRUE(static_cast<bool>(memory));
  EXPECT_EQ(names(*memory),
            (std::vector<std::string>{"split", "vectorization", "parallel",
                                      "compute_at", "compute_inline"}));
  auto compute = selectPrimitives(getTable(), Bottleneck::Compute, 5);
  ASSERT_TRUE(static_cast<bool>(compute));
  EXPECT_EQ(names(*compute),
            (std::vector<std::string>{"split", "vectorization", "unrolling",
                                      "parallel", "compute_at"}));
  // The default n_p = 7 drops one: of fuse and reorder (both 0 in both
  // columns), Tab. 1's later one.
  auto seven = selectPrimitives(getTable(), Bottleneck::Memory);
  ASSERT_TRUE(static_cast<bool>(seven));
  EXPECT_EQ(seven->size(), 7u);
  EXPECT_EQ(std::count(seven->begin(), seven->end(), Primitive::Reorder), 0);
  EXPECT_EQ(std::count(seven->begin(), seven->end(), Primitive::Fuse), 1);
  // All eight: every primitive.
  auto all = selectPrimitives(getTable(), Bottleneck::Compute, 8);
  ASSERT_TRUE(static_cast<bool>(all));
  EXPECT_EQ(all->size(), 8u);
}

TEST(ShrinkingTest, CountIsFiveToEight) {
  auto four = selectPrimitives(getTable(), Bottleneck::Memory, 4);
  ASSERT_FALSE(static_cast<bool>(four));
  EXPECT_EQ(llvm::toString(four.takeError()),
            "fasor: n_p must be 5 to 8 primitives, not 4");
  std::mt19937 rng(1);
  auto nine = selectRandomPrimitives(9, rng);
  ASSERT_FALSE(static_cast<bool>(nine));
  EXPECT_EQ(llvm::toString(nine.takeError()),
            "fasor: n_p must be 5 to 8 primitives, not 9");
}

/// The random ablation draws n_p distinct primitives, and different draws
/// for different seeds.
TEST(ShrinkingTest, RandomPrimitives) {
  std::set<std::vector<Primitive>> draws;
  for (unsigned seed = 0; seed < 20; ++seed) {
    std::mt19937 rng(seed);
    auto chosen = selectRandomPrimitives(6, rng);
    ASSERT_TRUE(static_cast<bool>(chosen));
    EXPECT_EQ(chosen->size(), 6u);
    EXPECT_TRUE(std::is_sorted(chosen->begin(), chosen->end()));
    EXPECT_EQ(std::adjacent_find(chosen->begin(), chosen->end()),
              chosen->end());
    draws.insert(*chosen);
  }
  EXPECT_GT(draws.size(), 5u);
}

TEST(ShrinkingTest, PowerOfTwoOptions) {
  EXPECT_EQ(getPowerOfTwoSplitFactors(96),
            (llvm::SmallVector<int64_t>{1, 2, 4, 8, 16, 32}));
  EXPECT_EQ(getPowerOfTwoSplitFactors(7), (llvm::SmallVector<int64_t>{1}));
  EXPECT_EQ(getPowerOfTwoSplitFactors(64),
            (llvm::SmallVector<int64_t>{1, 2, 4, 8, 16, 32, 64}));
  EXPECT_EQ(getPowerOfTwoWidths(8), (llvm::SmallVector<int64_t>{1, 2, 4, 8}));
}

} // namespace
