//===- DgdSpaceTest.cpp - DGD's tile-size vectors and hops ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Tuning/Strategies/Dgd/DgdSpace.h"

#include "mlir/AsmParser/AsmParser.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr const char *kMatmul64 = R"mlir(
func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
})mlir";

TEST(DgdHopsTest, InteriorCounts) {
  // The paper's 3-D example (Fig. 8) and its 5-D matmul vector: C(m,n)*2^n.
  EXPECT_EQ(countInteriorHops(3, 1), 6u);
  EXPECT_EQ(countInteriorHops(3, 2), 12u);
  EXPECT_EQ(countInteriorHops(3, 3), 8u);
  EXPECT_EQ(countInteriorHops(5, 1), 10u);
  EXPECT_EQ(countInteriorHops(5, 2), 40u);
  EXPECT_EQ(countInteriorHops(5, 3), 80u); // the paper's text says 160
  EXPECT_EQ(countInteriorHops(10, 3), 960u);
  EXPECT_EQ(countInteriorHops(2, 3), 0u);
}

TEST(DgdHopsTest, EnumerationMatchesCounts) {
  for (unsigned m : {3u, 5u}) {
    SmallVector<unsigned> interior(m, 2), sizes(m, 6);
    for (unsigned n = 1; n <= 3; ++n) {
      std::vector<SmallVector<unsigned>> hops =
          enumerateHops(interior, sizes, n);
      EXPECT_EQ(hops.size(), countInteriorHops(m, n)) << m << "-D, " << n;
      std::set<SmallVector<unsigned>> unique(hops.begin(), hops.end());
      EXPECT_EQ(unique.size(), hops.size());
      for (const SmallVector<unsigned> &h : hops) {
        unsigned changed = 0;
        for (unsigned i = 0; i < m; ++i) {
          int d = static_cast<int>(h[i]) - static_cast<int>(interior[i]);
          EXPECT_LE(std::abs(d), 1);
          changed += d != 0;
        }
        EXPECT_EQ(changed, n);
      }
    }
  }
  // At a corner only the upward moves exist.
  SmallVector<unsigned> corner(3, 0), sizes(3, 6);
  EXPECT_EQ(enumerateHops(corner, sizes, 1).size(), 3u);
  EXPECT_EQ(enumerateHops(corner, sizes, 2).size(), 3u);
  EXPECT_EQ(enumerateHops(corner, sizes, 3).size(), 1u);
  // A coordinate with one value never moves.
  SmallVector<unsigned> one = {0}, single = {1};
  EXPECT_TRUE(enumerateHops(one, single, 1).empty());
}

class DgdSpaceTest : public SearchTest {
protected:
  void SetUp() override {
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    ASSERT_TRUE(static_cast<bool>(found)) << llvm::toString(found.takeError());
    device = *found;
    tasks = extract(kMatmul64);
    ASSERT_EQ(tasks.size(), 1u);
    sketch = cast<SketchAttr>(parseAttribute(
        "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", shared = [0, 1], "
        "register_accumulator>",
        &context));
    FailureOr<SearchSpace> found2 =
        SearchSpace::get(tasks.front().getTargetOp(), sketch, device);
    ASSERT_TRUE(succeeded(found2));
    space.emplace(std::move(*found2));
  }

  ConfigAttr config(StringRef text) {
    return cast<ConfigAttr>(parseAttribute(text, &context));
  }

  DeviceDescription device;
  std::vector<TuningTask> tasks;
  SketchAttr sketch;
  std::optional<SearchSpace> space;
};

TEST_F(DgdSpaceTest, Coordinates) {
  TileVectorSpace vectors(*space);
  // Four inner levels of i and j, two of k; each over the divisors of 64.
  ASSERT_EQ(vectors.getCoordinates().size(), 10u);
  for (const TileVectorSpace::Coordinate &c : vectors.getCoordinates()) {
    EXPECT_GE(c.level, 1u);
    EXPECT_EQ(c.values, (SmallVector<int64_t>{1, 2, 4, 8, 16, 32, 64}));
  }
  EXPECT_EQ(vectors.getCoordinates()[8].loop, 2);
  TileVectorSpace withUnroll(*space, /*hopUnroll=*/true);
  ASSERT_EQ(withUnroll.getCoordinates().size(), 11u);
  EXPECT_EQ(withUnroll.getCoordinates().back().loop, -1);
  EXPECT_EQ(withUnroll.getCoordinates().back().values,
            (SmallVector<int64_t>{0, 16, 64, 512, 1024}));
}

// An interior point: every inner level is 2 (4 threads, 4 virtual threads).
TEST_F(DgdSpaceTest, NeighboursOfAnInteriorPoint) {
  TileVectorSpace vectors(*space);
  ConfigAttr base = config("#tessel.config<tiles = [[4, 2, 2, 2, 2], "
                           "[4, 2, 2, 2, 2], [16, 2, 2]], unroll = 16, "
                           "vector = [1, 1]>");
  ASSERT_TRUE(succeeded(space->check(base)));
  std::optional<SmallVector<unsigned>> indices = vectors.getIndices(base);
  ASSERT_TRUE(indices);
  EXPECT_EQ(*indices, SmallVector<unsigned>(10, 1));
  SmallVector<unsigned> sizes(10, 7);
  for (unsigned n = 1; n <= 3; ++n) {
    EXPECT_EQ(enumerateHops(*indices, sizes, n).size(),
              countInteriorHops(10, n));
    std::vector<ConfigAttr> neighbours = vectors.getNeighbours(base, n);
    EXPECT_FALSE(neighbours.empty());
    EXPECT_LE(neighbours.size(), countInteriorHops(10, n));
    for (ConfigAttr neighbour : neighbours) {
      // Valid, in the space, n coordinates one divisor step away, the
      // outermost level making up the extent, the unroll kept.
      EXPECT_TRUE(succeeded(space->check(neighbour)));
      std::optional<SmallVector<unsigned>> moved =
          vectors.getIndices(neighbour);
      ASSERT_TRUE(moved);
      unsigned changed = 0;
      for (unsigned i = 0; i < 10; ++i) {
        EXPECT_LE(std::abs(int((*moved)[i]) - int((*indices)[i])), 1);
        changed += (*moved)[i] != (*indices)[i];
      }
      EXPECT_EQ(changed, n);
      for (unsigned loop = 0; loop < 3; ++loop) {
        int64_t product = 1;
        for (int64_t t : neighbour.getLoopTiles(loop))
          product *= t;
        EXPECT_EQ(product, 64);
      }
      EXPECT_EQ(neighbour.getUnroll(), 16);
    }
  }
  // Two of the 1-hop moves, by hand: i's register level 2 -> 4 (the block
  // level makes up: 4 -> 2) and j's virtual threads 2 -> 1 (4 -> 8).
  std::vector<ConfigAttr> oneHop = vectors.getNeighbours(base, 1);
  EXPECT_TRUE(llvm::is_contained(
      oneHop, config("#tessel.config<tiles = [[2, 2, 2, 4, 2], "
                     "[4, 2, 2, 2, 2], [16, 2, 2]], unroll = 16, "
                     "vector = [1, 1]>")));
  EXPECT_TRUE(llvm::is_contained(
      oneHop, config("#tessel.config<tiles = [[4, 2, 2, 2, 2], "
                     "[8, 1, 2, 2, 2], [16, 2, 2]], unroll = 16, "
                     "vector = [1, 1]>")));
  // 8 virtual threads is the most (TVM's limit): i's vthread 2 -> 4 with j
  // at 2 is valid, j's too; both at once (16) is not a 2-hop neighbour.
  std::vector<ConfigAttr> twoHop = vectors.getNeighbours(base, 2);
  EXPECT_FALSE(llvm::is_contained(
      twoHop, config("#tessel.config<tiles = [[2, 4, 2, 2, 2], "
                     "[2, 4, 2, 2, 2], [16, 2, 2]], unroll = 16, "
                     "vector = [1, 1]>")));
}

// A hop moves to the next divisor: extent 64, value 8 -> 4 or 16.
TEST_F(DgdSpaceTest, DivisorMoves) {
  TileVectorSpace vectors(*space);
  ConfigAttr base = config("#tessel.config<tiles = [[2, 1, 8, 4, 1], "
                           "[2, 1, 8, 4, 1], [8, 8, 1]], unroll = 0, "
                           "vector = [1, 1]>");
  ASSERT_TRUE(succeeded(space->check(base)));
  std::set<int64_t> threadValues;
  for (ConfigAttr n : vectors.getNeighbours(base, 1))
    if (n.getLoopTiles(1) == base.getLoopTiles(1) &&
        n.getLoopTiles(2) == base.getLoopTiles(2))
      threadValues.insert(n.getLoopTiles(0)[2]);
  // i's thread level 8 -> 4 or 16 (the other i levels moved instead keep 8).
  EXPECT_TRUE(threadValues.count(4));
  EXPECT_TRUE(threadValues.count(16));
  EXPECT_FALSE(threadValues.count(2));
  EXPECT_FALSE(threadValues.count(32));
}

// Vectors whose inner product does not divide the extent, or that break a
// device limit, have no config; vector widths are narrowed to fit.
TEST_F(DgdSpaceTest, InvalidVectorsAndWidthRepair) {
  TileVectorSpace vectors(*space);
  ConfigAttr like = config("#tessel.config<tiles = [[4, 2, 2, 2, 2], "
                           "[4, 2, 2, 2, 2], [16, 2, 2]], unroll = 16, "
                           "vector = [4, 4]>");
  // Divisor indices: 1 -> 0, 2 -> 1, 4 -> 2, 8 -> 3, 16 -> 4, 32 -> 5.
  // i's inner levels 8 x 8 x 2 x 1 = 128 > 64.
  EXPECT_FALSE(vectors.toConfig({3, 3, 1, 0, 1, 1, 1, 1, 1, 1}, like));
  // 16 virtual threads (4 x 4).
  EXPECT_FALSE(vectors.toConfig({2, 1, 1, 1, 2, 1, 1, 1, 1, 1}, like));
  // Valid; the A tile is 16 x 4 over 4 threads: 16 floats each, so width 4
  // stays; B's 4 x 16 too.
  std::optional<ConfigAttr> same =
      vectors.toConfig({1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, like);
  ASSERT_TRUE(same);
  EXPECT_EQ(*same, like);
  // K step 1 (k levels 1 x 1): A's tile 16 x 1 over 4 threads is 4 floats
  // each but its innermost extent is 1: width 1; B's 1 x 16 keeps 4.
  std::optional<ConfigAttr> narrow =
      vectors.toConfig({1, 1, 1, 1, 1, 1, 1, 1, 0, 0}, like);
  ASSERT_TRUE(narrow);
  EXPECT_EQ(narrow->getVector(), (ArrayRef<int64_t>{1, 4}));
  EXPECT_EQ(narrow->getLoopTiles(2), (ArrayRef<int64_t>{64, 1, 1}));
  // "keep" never widens: from width 1 the config stays at 1. "widest" takes
  // the widest width that fits: 4 floats (16 bytes) for both operands.
  ConfigAttr scalar = config("#tessel.config<tiles = [[4, 2, 2, 2, 2], "
                             "[4, 2, 2, 2, 2], [16, 2, 2]], unroll = 16, "
                             "vector = [1, 1]>");
  SmallVector<unsigned> all(10, 1);
  EXPECT_EQ(vectors.toConfig(all, scalar)->getVector(),
            (ArrayRef<int64_t>{1, 1}));
  TileVectorSpace widest(*space, /*hopUnroll=*/false, /*widestVectors=*/true);
  EXPECT_EQ(widest.toConfig(all, scalar)->getVector(),
            (ArrayRef<int64_t>{4, 4}));
}

} // namespace
