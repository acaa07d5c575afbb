//===- ScheduleTest.cpp - Tests of schedule geometry and verification -----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/BoundaryBlocks.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"
#include "tessel/InitAllDialects.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

class ScheduleTest : public ::testing::Test {
protected:
  ScheduleTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses a module whose single function holds one linalg op.
  linalg::LinalgOp parseOp(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    linalg::LinalgOp found;
    module->walk([&](linalg::LinalgOp op) { found = op; });
    return found;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

constexpr StringLiteral kMatmul = R"mlir(
func.func @mm(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>,
              %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
)mlir";

TEST_F(ScheduleTest, LoopNestOfMatmul) {
  linalg::LinalgOp op = parseOp(kMatmul);
  FailureOr<LoopNest> nest = LoopNest::get(op);
  ASSERT_TRUE(succeeded(nest));
  EXPECT_EQ(nest->extents, (SmallVector<int64_t>{128, 64, 256}));
  EXPECT_EQ(nest->isReduction, (SmallVector<bool>{false, false, true}));
}

TEST_F(ScheduleTest, GeometryOfMultiLevelTiling) {
  linalg::LinalgOp op = parseOp(kMatmul);
  LoopNest nest = *LoopNest::get(op);
  auto sketch = SketchAttr::get(&context, SketchKind::MultiLevelTiling,
                                "SSSRRSRS", {0, 1}, true, 0);
  auto config = ConfigAttr::get(
      &context, {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}}, 64, {1, 1});
  EXPECT_EQ(getThreadsPerBlock(sketch, config, nest), 8 * 16);
  EXPECT_EQ(getNumBlocks(sketch, config, nest), 4 * 4);
  EXPECT_EQ(getBlockTile(sketch, config, nest),
            (SmallVector<int64_t>{32, 16, 8}));
  EXPECT_TRUE(succeeded(
      verifySchedule(op, sketch, config, [&] { return op->emitError(); })));
}

TEST_F(ScheduleTest, FootprintOfStridedConvolutionWindow) {
  // (n, f, oh, ow, c, kh, kw) -> (n, c, oh * 2 + kh, ow * 2 + kw)
  AffineExpr d[7];
  for (unsigned i = 0; i < 7; ++i)
    d[i] = getAffineDimExpr(i, &context);
  AffineMap map = AffineMap::get(
      7, 0, {d[0], d[4], d[2] * 2 + d[5], d[3] * 2 + d[6]}, &context);
  // 4x4 outputs with a 3x3 window at stride 2 read (4-1)*2+3 = 9 rows/cols.
  EXPECT_EQ(getFootprint(map, {1, 8, 4, 4, 2, 3, 3}), 1 * 2 * 9 * 9);
}

TEST_F(ScheduleTest, FootprintFunctionOfLinearAndNonLinearMaps) {
  AffineExpr d[3];
  for (unsigned i = 0; i < 3; ++i)
    d[i] = getAffineDimExpr(i, &context);
  // (d0, d1, d2) -> (d0 * 3 + d1 * -2 + 5, d2 mod 4, d1)
  AffineMap map =
      AffineMap::get(3, 0, {d[0] * 3 + d[1] * -2 + 5, d[2] % 4, d[1]},
                     &context);
  FootprintFunction footprint(map);
  // 3*(4-1) + 2*(2-1) + 1 = 12; the mod is bounded by its tile, 8.
  EXPECT_EQ(footprint.getShape({4, 2, 8}), (SmallVector<int64_t>{12, 8, 2}));
  EXPECT_EQ(footprint.getInnermostExtent({4, 2, 8}), 2);
  EXPECT_EQ(footprint.getElements({4, 2, 8}), 12 * 8 * 2);
  EXPECT_EQ(getFootprintShape(map, {4, 2, 8}), footprint.getShape({4, 2, 8}));
  EXPECT_EQ(FootprintFunction(AffineMap::get(3, 0, {}, &context))
                .getInnermostExtent({4, 2, 8}),
            1);
}

TEST_F(ScheduleTest, PlainTileVectorsGiveTheConfigGeometry) {
  linalg::LinalgOp op = parseOp(kMatmul);
  LoopNest nest = *LoopNest::get(op);
  auto check = [&](SketchAttr sketch,
                   SmallVector<SmallVector<int64_t>> tiles) {
    auto config = ConfigAttr::get(&context, tiles, 0, {});
    EXPECT_EQ(getThreadsPerBlock(sketch, tiles, nest),
              getThreadsPerBlock(sketch, config, nest));
    EXPECT_EQ(getBlockTile(sketch, tiles, nest),
              getBlockTile(sketch, config, nest));
  };
  check(SketchAttr::get(&context, SketchKind::MultiLevelTiling, "SSSRRSRS",
                        {0, 1}, true, 0),
        {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}});
  // A cross-thread reduction block covers the whole reduction loop.
  auto cross = SketchAttr::get(&context, SketchKind::CrossThreadReduction,
                               "SRR", {}, false, 0);
  check(cross, {{128}, {64}, {8, 32}});
  EXPECT_EQ(getBlockTile(cross, {{128}, {64}, {8, 32}}, nest),
            (SmallVector<int64_t>{1, 1, 256}));
  EXPECT_EQ(getThreadsPerBlock(cross, {{128}, {64}, {8, 32}}, nest), 32);
}

using Shape = SmallVector<int64_t>;

TEST(CooperativeLoadTest, ThreadsThatDivideTheTileFillEveryRound) {
  // 32x6x6 over 64 threads, 1 wide: innermost dims first.
  EXPECT_EQ(getCooperativeLoadChunk({32, 6, 6}, 64, 1), (Shape{16, 2, 2}));
  EXPECT_EQ(getCooperativeLoadLaneUse({32, 6, 6}, 64, 1), 1.0);
  // 32x8 over 128 threads, 2 wide: one round of 256 elements.
  EXPECT_EQ(getCooperativeLoadChunk({32, 8}, 128, 2), (Shape{32, 8}));
  // A tile smaller than a round is one round.
  EXPECT_EQ(getCooperativeLoadChunk({1, 3, 3, 3}, 256, 1), (Shape{1, 3, 3, 3}));
  EXPECT_DOUBLE_EQ(getCooperativeLoadLaneUse({1, 3, 3, 3}, 256, 1), 27.0 / 256);
}

TEST(CooperativeLoadTest, OtherThreadCountsGetTheFullestDivisorChunk) {
  // A 3x3 conv's input tile (4 channels, 6 rows, 16 columns, 4 wide) over
  // 56 threads: the innermost-first greedy chunk 1x1x2x16 keeps 8 threads
  // busy; 1x2x6x16 keeps 48 (2 rounds).
  EXPECT_EQ(getCooperativeLoadChunk({1, 4, 6, 16}, 56, 4),
            (Shape{1, 2, 6, 16}));
  EXPECT_DOUBLE_EQ(getCooperativeLoadLaneUse({1, 4, 6, 16}, 56, 4),
                   384.0 / (2 * 56 * 4));
  // Its filter tile 8x4x3x3, 1 wide: 48 of 56 threads in each of 6 rounds,
  // with the whole innermost row.
  EXPECT_EQ(getCooperativeLoadChunk({8, 4, 3, 3}, 56, 1), (Shape{4, 4, 1, 3}));
  // The innermost chunk stays a multiple of the vector width: 3x34x34 over
  // 256 threads, 2 wide.
  Shape chunk = getCooperativeLoadChunk({3, 34, 34}, 256, 2);
  EXPECT_EQ(chunk, (Shape{3, 2, 34}));
  EXPECT_DOUBLE_EQ(getCooperativeLoadLaneUse({3, 34, 34}, 256, 2),
                   3468.0 / (17 * 256 * 2));
}

TEST_F(ScheduleTest, RejectsWrongProductWithMessage) {
  linalg::LinalgOp op = parseOp(kMatmul);
  auto sketch = SketchAttr::get(&context, SketchKind::MultiLevelTiling,
                                "SSSRRSRS", {}, false, 0);
  auto config = ConfigAttr::get(
      &context, {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {16, 2, 4}}, 0, {});
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(
      verifySchedule(op, sketch, config, [&] { return op->emitError(); })));
  EXPECT_EQ(message,
            "tile sizes of loop 2 multiply to 128, not to the loop extent 256");
}

} // namespace

TEST(BoundaryBlocksTest, OnlyAwkwardExtentsGetBoundaryBlocks) {
  SmallVector<int64_t> all = {32, 64, 128, 256, 512, 1024};
  // Primes and products of a small and a large prime.
  EXPECT_EQ(getBoundaryBlockThreads(8191), all);
  EXPECT_EQ(getBoundaryBlockThreads(50257), all); // 29 * 1733
  EXPECT_EQ(getBoundaryBlockThreads(30522), all); // 2 * 3 * 5087
  // A divisor from 32 to 1024 (at most 1024 iterations: the extent
  // itself) is a good tile.
  EXPECT_TRUE(getBoundaryBlockThreads(97).empty());
  EXPECT_TRUE(getBoundaryBlockThreads(1021).empty());
  EXPECT_FALSE(getBoundaryBlockThreads(1031 * 31).empty()); // no tile 32-1024
  EXPECT_TRUE(getBoundaryBlockThreads(768).empty());
  EXPECT_TRUE(getBoundaryBlockThreads(1000).empty()); // 40
  EXPECT_TRUE(getBoundaryBlockThreads(37).empty());
  EXPECT_TRUE(getBoundaryBlockThreads(64).empty());
  EXPECT_FALSE(getBoundaryBlockThreads(2 * 1031).empty()); // 1031 is prime
}
