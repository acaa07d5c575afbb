//===- ActionsTest.cpp - Fasor's moves in a shrunk search space -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Actions.h"
#include "FasorTestUtils.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::fasor;

namespace {

class ActionsTest : public ::testing::Test {
protected:
  ActionsTest() {
    llvm::Expected<DeviceDescription> v100 = findDevice("v100");
    EXPECT_TRUE(static_cast<bool>(v100)) << llvm::toString(v100.takeError());
    state = TaskSearchState::create(source.tasks.front(), *v100, /*rngSeed=*/1);
  }

  /// The space of the multi-level sketch staging both operands.
  const SearchSpace *getStagedSpace() {
    for (const SearchSpace &space : state.spaces)
      if (space.getSketch().getKind() == SketchKind::MultiLevelTiling &&
          space.getSketch().getShared().size() == 2)
        return &space;
    return nullptr;
  }

  ConfigAttr config(ArrayRef<SmallVector<int64_t>> tiles, int64_t unroll,
                    ArrayRef<int64_t> vector) {
    return ConfigAttr::get(&source.context, tiles, unroll, vector);
  }

  TaskModule source{getMatmulModule()};
  TaskSearchState state;
};

/// "SSSRRSRS" on (m, n, k): Split moves a factor among levels 1-4 of m and
/// n (4 x 3 ordered pairs each) and levels 0-2 of k (3 x 2); Parallel
/// between level 0 and levels 1-4 of m and n (both ways: 8 each); two
/// staged operands' widths and the unroll value up or down; no stages knob,
/// and the sketch-choosing primitives have no action.
TEST_F(ActionsTest, Enumerate) {
  const SearchSpace *space = getStagedSpace();
  ASSERT_NE(space, nullptr);
  auto count = [&](Primitive primitive) {
    return enumerateActions(*space, {primitive}).size();
  };
  EXPECT_EQ(count(Primitive::Split), 12u + 12u + 6u);
  EXPECT_EQ(count(Primitive::Parallel), 8u + 8u);
  EXPECT_EQ(count(Primitive::Vectorization), 4u);
  EXPECT_EQ(count(Primitive::Unrolling), 2u);
  EXPECT_EQ(count(Primitive::ComputeAt), 0u);
  EXPECT_EQ(count(Primitive::Fuse), 0u);
  EXPECT_EQ(count(Primitive::ComputeInline), 0u);
  EXPECT_EQ(count(Primitive::Reorder), 0u);
  std::vector<Action> both =
      enumerateActions(*space, {Primitive::Unrolling, Primitive::Split});
  ASSERT_EQ(both.size(), 32u);
  // In the order asked for.
  EXPECT_EQ(both.front().describe(), "unrolling +1");
  EXPECT_EQ(both[2].describe(), "split loop 0: level 1 -> 2");
}

/// One-hot slots: primitive (Tab. 1 order), loop, levels, operand; the
/// direction last. Distinct actions encode differently.
TEST(ActionEncodingTest, Encode) {
  std::vector<float> split = encodeAction({Primitive::Split, 2, 3, 1, 0, 0});
  ASSERT_EQ(split.size(), static_cast<size_t>(kActionFeatures));
  std::vector<float> expected(kActionFeatures, 0);
  expected[0] = 1;      // split
  expected[8 + 2] = 1;  // loop 2
  expected[16 + 3] = 1; // from level 3
  expected[24 + 1] = 1; // to level 1
  EXPECT_EQ(split, expected);
  std::vector<float> vector =
      encodeAction({Primitive::Vectorization, 0, 0, 0, 1, -1});
  expected.assign(kActionFeatures, 0);
  expected[2] = 1;      // vectorization
  expected[32 + 1] = 1; // operand 1
  expected[36] = -1;
  EXPECT_EQ(vector, expected);
  // Loop 11 shares the last loop slot.
  EXPECT_EQ(encodeAction({Primitive::Parallel, 11, 0, 2, 0, 0})[8 + 7], 1);
  EXPECT_NE(encodeAction({Primitive::Unrolling, 0, 0, 0, 0, 1}),
            encodeAction({Primitive::Unrolling, 0, 0, 0, 0, -1}));
}

/// Each kind of move on a hand-made config, and the moves that leave the
/// space.
TEST_F(ActionsTest, Apply) {
  const SearchSpace *space = getStagedSpace();
  ASSERT_NE(space, nullptr);
  ConfigAttr start =
      config({{4, 1, 8, 4, 2}, {4, 1, 16, 4, 2}, {16, 8, 1}}, 64, {1, 1});
  std::string why;
  ASSERT_TRUE(succeeded(space->check(start, &why))) << why;
  auto apply = [&](Action action) -> std::string {
    std::optional<ConfigAttr> moved = applyAction(*space, start, action);
    if (!moved)
      return "none";
    std::string text;
    llvm::raw_string_ostream os(text);
    os << *moved;
    return text;
  };
  EXPECT_EQ(apply({Primitive::Split, 0, 3, 4, 0, 0}),
            "#tessel.config<tiles = [[4, 1, 8, 2, 4], [4, 1, 16, 4, 2], "
            "[16, 8, 1]], unroll = 64, vector = [1, 1]>");
  EXPECT_EQ(apply({Primitive::Split, 2, 0, 1, 0, 0}),
            "#tessel.config<tiles = [[4, 1, 8, 4, 2], [4, 1, 16, 4, 2], "
            "[8, 16, 1]], unroll = 64, vector = [1, 1]>");
  // A level of 1 has no factor of 2 to give.
  EXPECT_EQ(apply({Primitive::Split, 0, 1, 2, 0, 0}), "none");
  // Fewer blocks along m, twice the threads.
  EXPECT_EQ(apply({Primitive::Parallel, 0, 0, 2, 0, 0}),
            "#tessel.config<tiles = [[2, 1, 16, 4, 2], [4, 1, 16, 4, 2], "
            "[16, 8, 1]], unroll = 64, vector = [1, 1]>");
  EXPECT_EQ(apply({Primitive::Unrolling, 0, 0, 0, 0, 1}),
            "#tessel.config<tiles = [[4, 1, 8, 4, 2], [4, 1, 16, 4, 2], "
            "[16, 8, 1]], unroll = 512, vector = [1, 1]>");
  EXPECT_EQ(apply({Primitive::Unrolling, 0, 0, 0, 0, -1}),
            "#tessel.config<tiles = [[4, 1, 8, 4, 2], [4, 1, 16, 4, 2], "
            "[16, 8, 1]], unroll = 16, vector = [1, 1]>");
  EXPECT_EQ(apply({Primitive::Vectorization, 0, 0, 0, 1, 1}),
            "#tessel.config<tiles = [[4, 1, 8, 4, 2], [4, 1, 16, 4, 2], "
            "[16, 8, 1]], unroll = 64, vector = [1, 2]>");
  // Already the narrowest width; no stages knob; no action of a sketch
  // choice.
  EXPECT_EQ(apply({Primitive::Vectorization, 0, 0, 0, 0, -1}), "none");
  EXPECT_EQ(apply({Primitive::ComputeAt, 0, 0, 0, 0, 1}), "none");
  EXPECT_EQ(apply({Primitive::Reorder, 0, 0, 0, 0, 1}), "none");

  // 1024 threads per block is the most: 32 x 32 threads cannot double.
  ConfigAttr full =
      config({{8, 1, 32, 1, 1}, {16, 1, 32, 1, 1}, {16, 8, 1}}, 0, {1, 1});
  ASSERT_TRUE(succeeded(space->check(full, &why))) << why;
  EXPECT_FALSE(applyAction(*space, full, {Primitive::Parallel, 0, 0, 2, 0, 0}));
  EXPECT_TRUE(applyAction(*space, full, {Primitive::Parallel, 0, 2, 0, 0, 0}));
  // The last unroll value has no next.
  ConfigAttr unrolled =
      config({{4, 1, 8, 4, 2}, {4, 1, 16, 4, 2}, {16, 8, 1}}, 1024, {1, 1});
  EXPECT_FALSE(
      applyAction(*space, unrolled, {Primitive::Unrolling, 0, 0, 0, 0, 1}));
}

/// Wide moves: every prime divisor but 2, and 4 and 8, of a loop's extent,
/// between the levels a factor-2 move could take. The matmul's extents are
/// powers of two: factors 4 and 8 only.
TEST_F(ActionsTest, WideMoves) {
  const SearchSpace *space = getStagedSpace();
  ASSERT_NE(space, nullptr);
  std::vector<Action> wide = enumerateWideActions(
      *space, {Primitive::Split, Primitive::Unrolling, Primitive::Parallel});
  EXPECT_EQ(wide.size(), 2u * (12u + 12u + 6u) + 2u * (8u + 8u));
  for (const Action &action : wide)
    EXPECT_TRUE(action.factor == 4 || action.factor == 8) << action.describe();
  ConfigAttr start =
      config({{4, 1, 8, 4, 2}, {4, 1, 16, 4, 2}, {16, 8, 1}}, 64, {1, 1});
  // Four times fewer blocks along m, four times the threads.
  Action byFour{Primitive::Parallel, 0, 0, 2, 0, 0, 4};
  EXPECT_EQ(byFour.describe(), "parallel loop 0: level 0 -> 2 (x4)");
  std::optional<ConfigAttr> moved = applyAction(*space, start, byFour);
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->getLoopTiles(0), ArrayRef<int64_t>({1, 1, 32, 4, 2}));
  // 4 does not divide the 2 of level 4.
  EXPECT_FALSE(
      applyAction(*space, start, {Primitive::Split, 0, 4, 2, 0, 0, 4}));
  // The factor is the last feature: log2(factor) - 1.
  EXPECT_EQ(encodeAction(byFour)[kActionFeatures - 1], 1);
  EXPECT_EQ(
      encodeAction({Primitive::Parallel, 0, 0, 2, 0, 0})[kActionFeatures - 1],
      0);

  // The convolution's 3x3 window loops move their 3 between levels.
  TaskModule twoTasks{kTwoTaskModule};
  llvm::Expected<DeviceDescription> v100 = findDevice("v100");
  ASSERT_TRUE(static_cast<bool>(v100)) << llvm::toString(v100.takeError());
  TaskSearchState conv =
      TaskSearchState::create(twoTasks.tasks[1], *v100, /*rngSeed=*/1);
  ASSERT_FALSE(conv.spaces.empty());
  int movedThree = 0;
  for (const Candidate &sample : sampleUnseen(conv, 16)) {
    const SearchSpace &convSpace = conv.spaces[sample.space];
    for (const Action &action :
         enumerateWideActions(convSpace, {Primitive::Split})) {
      if (action.factor != 3)
        continue;
      EXPECT_EQ(convSpace.getLoopNest().extents[action.loop], 3);
      if (std::optional<ConfigAttr> result =
              applyAction(convSpace, sample.config, action)) {
        EXPECT_TRUE(succeeded(convSpace.check(*result)));
        ++movedThree;
      }
    }
  }
  EXPECT_GT(movedThree, 0);
}

/// From sampled configs of every sketch, every applicable action gives a
/// config of the space with the loops' extents unchanged.
TEST_F(ActionsTest, MovesStayInTheSpace) {
  const Primitive all[] = {Primitive::Split, Primitive::Vectorization,
                           Primitive::Unrolling, Primitive::Parallel,
                           Primitive::ComputeAt};
  int applied = 0;
  for (const Candidate &start : sampleUnseen(state, 16)) {
    const SearchSpace &space = state.spaces[start.space];
    for (const Action &action : enumerateActions(space, all)) {
      std::optional<ConfigAttr> moved =
          applyAction(space, start.config, action);
      if (!moved)
        continue;
      ++applied;
      EXPECT_TRUE(succeeded(space.check(*moved))) << action.describe();
      EXPECT_NE(*moved, start.config) << action.describe();
      for (unsigned loop = 0; loop < moved->getNumLoops(); ++loop) {
        int64_t product = 1;
        for (int64_t tile : moved->getLoopTiles(loop))
          product *= tile;
        EXPECT_EQ(product, space.getLoopNest().extents[loop]);
      }
    }
  }
  EXPECT_GT(applied, 100);
}

} // namespace
