//===- EtoStrategyTest.cpp - Algorithm 1 against a fake measurer ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The strategy is driven as SearchDriver drives it (propose, measure,
// record, observe) with a fake measurer: every candidate runs, at a speed
// that is a function of its config.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/EtoStrategy.h"
#include "tessel/Tuning/Strategies/Eto/TrialEstimator.h"

#include "EtoTestUtils.h"

#include <functional>
#include <set>

using namespace mlir;
using namespace mlir::tessel;

namespace {

using Speed = std::function<double(const Candidate &)>;

class EtoStrategyTest : public EtoTest {
protected:
  /// Runs `strategy` on `state` in batches of `batch` until it proposes
  /// nothing; returns every measured candidate in order.
  std::vector<Candidate> run(EtoStrategy &strategy, TaskSearchState &state,
                             const Speed &speed, int batch = 8) {
    std::vector<Candidate> measured;
    llvm::DenseSet<std::pair<Attribute, Attribute>> ids;
    while (true) {
      std::vector<Candidate> candidates = strategy.propose(state, batch);
      EXPECT_LE(static_cast<int>(candidates.size()), batch);
      if (candidates.empty())
        break;
      std::vector<Trial> trials;
      for (Candidate &candidate : candidates) {
        EXPECT_TRUE(ids.insert(candidate.getId()).second)
            << "measured twice: " << candidate.getKey();
        EXPECT_TRUE(
            succeeded(state.spaces[candidate.space].check(candidate.config)));
        Trial trial;
        trial.candidate = candidate;
        trial.gflops = speed(candidate);
        trials.push_back(trial);
        state.record(trial);
        measured.push_back(candidate);
      }
      llvm::Error error = strategy.observe(state, trials);
      EXPECT_FALSE(static_cast<bool>(error))
          << llvm::toString(std::move(error));
    }
    return measured;
  }

  /// Beta's program of Fig. 2b.
  ReferenceProgram getFig2b(const TuningTask &beta) {
    return {&beta, getSpace(beta).getSketch(),
            getConfig({{1, 1, 1, 1, 1},
                       {4, 1, 8, 2, 2},
                       {14, 1, 1, 1, 2},
                       {1, 1, 28, 1, 1},
                       {4, 64, 2},
                       {1, 1, 1},
                       {1, 1, 1}},
                      1024, {1, 1})};
  }
};

SmallVector<SmallVector<int64_t>> getTiles(const Candidate &candidate) {
  return getTileVectors(candidate.config);
}

TEST_F(EtoStrategyTest, UnrollEffects) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  ReferenceProgram reference = getFig2b(beta);
  SearchSpace space = getSpace(beta);
  SmallVector<SmallVector<int64_t>> tiles = getTileVectors(reference.config);
  // Example 3: only 0 and 16 differ in effect from 1024.
  SmallVector<int64_t> effects;
  for (int64_t unroll : kUnrollValues)
    effects.push_back(getUnrollEffect(space, tiles, unroll));
  EXPECT_EQ(effects, (SmallVector<int64_t>{0, 4, 4, 4, 5}));
  EXPECT_LT(estimateUnrolledRegisters(space, tiles, 0),
            estimateUnrolledRegisters(space, tiles, 1024));
}

TEST_F(EtoStrategyTest, Example3) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask alpha = extract(getConvSource(1, 256, 28, 28, 128, 1, 1));
  ReferenceProgram reference = getFig2b(beta);
  TaskSearchState state = TaskSearchState::create(alpha, device, 1);
  EtoStrategy strategy(EtoOptions(), reference);
  llvm::Error error = strategy.prepare(state);
  ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
  EXPECT_EQ(strategy.getBlockCounts(),
            (SmallVector<int64_t>{28, 32, 49, 56, 64, 98, 112}));

  // Round 1 of B = 56 picks T = 56 x 224 (the fake measurer says so).
  SmallVector<SmallVector<int64_t>> round1 = {
      {1, 1, 1, 1, 1}, {4, 1, 8, 2, 2}, {14, 1, 1, 1, 2}, {1, 1, 28, 1, 1},
      {2, 64, 2},      {1, 1, 1},       {1, 1, 1}};
  EXPECT_EQ(strategy.getDefaultUnroll(round1), 1024);
  std::vector<Candidate> measured =
      run(strategy, state, [&](const Candidate &candidate) {
        return getTiles(candidate) == round1 ? 3303.31 : 1000.0;
      });
  SmallVector<SmallVector<int64_t>> round2 = round1;
  round2[4] = {4, 32, 2};
  auto find = [&](ArrayRef<SmallVector<int64_t>> tiles, int64_t unroll,
                  ArrayRef<int64_t> vector) {
    return llvm::count_if(measured, [&](const Candidate &candidate) {
      return getTiles(candidate) == tiles &&
             candidate.config.getUnroll() == unroll &&
             candidate.config.getVector() == vector;
    });
  };
  // Round 1, round 2 (LShape [4,1,1]), round 3 (unroll 0 and 16), round 4
  // (data input 2 and 4; the kernel's 4096 / 224 loads are not whole).
  EXPECT_EQ(find(round1, 1024, {1, 1}), 1);
  EXPECT_EQ(find(round2, 1024, {1, 1}), 1);
  EXPECT_EQ(find(round1, 0, {1, 1}), 1);
  EXPECT_EQ(find(round1, 16, {1, 1}), 1);
  EXPECT_EQ(find(round1, 64, {1, 1}), 0);
  EXPECT_EQ(find(round1, 1024, {2, 1}), 1);
  EXPECT_EQ(find(round1, 1024, {4, 1}), 1);
  EXPECT_EQ(find(round1, 1024, {1, 2}), 0);

  // Every measured program is in Algorithm 1's block and thread ranges
  // (only round 2 bounds the shared memory; round 1 uses GetLShape).
  const FeatureRanges &ranges = strategy.getRanges();
  for (const Candidate &candidate : measured) {
    ProgramFeatures features =
        getProgramFeatures(state.spaces[candidate.space], candidate.config);
    EXPECT_TRUE(ranges.blocks.contains(features.blocks));
    EXPECT_TRUE(ranges.threads.contains(features.threads));
  }
  // Everything is measured once; nothing is left.
  EXPECT_TRUE(strategy.propose(state, 8).empty());
}

// With the stages knob (--max-stages > 1), round 5 tries every other
// pipeline depth of each lane's best that fits the shared memory; rounds
// 1-4 are those of the run without the knob. (The fake measurer prefers
// small shared tiles, which leave room for a second stage.)
TEST_F(EtoStrategyTest, StagesRoundWithTheKnob) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask alpha = extract(getConvSource(1, 256, 28, 28, 128, 1, 1));
  ReferenceProgram reference = getFig2b(beta);
  auto speedIn = [](TaskSearchState &state) -> Speed {
    return [&state](const Candidate &candidate) {
      return 1e9 / static_cast<double>(
                       state.spaces[candidate.space].getSharedMemoryBytes(
                           candidate.config.withStages(1)));
    };
  };
  TaskSearchState synchronous = TaskSearchState::create(alpha, device, 1);
  EtoStrategy without(EtoOptions(), reference);
  std::vector<Candidate> plain = run(without, synchronous, speedIn(synchronous));
  for (const Candidate &candidate : plain)
    EXPECT_EQ(candidate.config.getStages(), 1);

  TaskSearchState knob =
      TaskSearchState::create(alpha, device, 1, /*maxStages=*/4);
  EtoStrategy with(EtoOptions(), reference);
  std::vector<Candidate> measured = run(with, knob, speedIn(knob));
  int pipelined = 0;
  for (const Candidate &candidate : measured) {
    if (candidate.config.getStages() == 1)
      continue;
    ++pipelined;
    // A deeper pipeline of a synchronous candidate measured before it.
    EXPECT_TRUE(llvm::any_of(measured, [&](const Candidate &earlier) {
      return earlier.config == candidate.config.withStages(1);
    })) << candidate.getKey();
  }
  EXPECT_GT(pipelined, 0);
  EXPECT_EQ(measured.size(), plain.size() + pipelined);
}

TEST_F(EtoStrategyTest, MeasurementsAreCounted) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask alpha = extract(getConvSource(1, 256, 28, 28, 128, 1, 1));
  ReferenceProgram reference = getFig2b(beta);
  llvm::Expected<int64_t> count =
      countEtoTrials(alpha, reference, device, EtoOptions());
  ASSERT_TRUE(static_cast<bool>(count)) << llvm::toString(count.takeError());
  // Every candidate runs at the same speed: exactly the counted trials,
  // whatever the batch size.
  for (int batch : {1, 5, 64}) {
    TaskSearchState state = TaskSearchState::create(alpha, device, 1);
    EtoStrategy strategy(EtoOptions(), reference);
    std::vector<Candidate> measured = run(
        strategy, state, [](const Candidate &) { return 1.0; }, batch);
    EXPECT_EQ(static_cast<int64_t>(measured.size()), *count);
  }
  // Trying every unroll value and vector width measures more.
  EtoOptions all;
  all.pruneUnroll = false;
  all.pruneVectors = false;
  llvm::Expected<int64_t> more = countEtoTrials(alpha, reference, device, all);
  ASSERT_TRUE(static_cast<bool>(more));
  EXPECT_GT(*more, *count);
}

TEST_F(EtoStrategyTest, Options) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask alpha = extract(getConvSource(1, 256, 14, 14, 128, 3, 3));
  ReferenceProgram reference = getFig2b(beta);
  // Reduction ratio and Eq. 1 bounds differ once the space loops do.
  EtoOptions eq1;
  eq1.blockLowerBound = BlockLowerBound::Eq1;
  for (const EtoOptions &options : {EtoOptions(), eq1}) {
    TaskSearchState state = TaskSearchState::create(alpha, device, 1);
    EtoStrategy strategy(options, reference);
    llvm::Error error = strategy.prepare(state);
    ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
    EXPECT_FALSE(strategy.getBlockCounts().empty());
    for (int64_t blocks : strategy.getBlockCounts())
      EXPECT_TRUE(strategy.getRanges().blocks.contains(blocks));
  }
}

/// The default LShape fetches along the largest reduction loop (rc) or, with
/// `fetch-loop=reference`, along the loop beta fetches along (ry here).
TEST_F(EtoStrategyTest, FetchLoopOption) {
  TuningTask beta = extract(getConvSource(1, 128, 30, 30, 128, 3, 3));
  TuningTask alpha = extract(getConvSource(1, 64, 30, 30, 128, 3, 3));
  ReferenceProgram reference{&beta, getSpace(beta).getSketch(),
                             getConfig({{1, 1, 1, 1, 1},
                                        {4, 1, 8, 2, 2},
                                        {14, 1, 1, 1, 2},
                                        {1, 1, 28, 1, 1},
                                        {1, 64, 2},
                                        {3, 1, 1},
                                        {1, 1, 3}},
                                       1024, {1, 1})};
  EtoOptions largest, byReference;
  byReference.fetchLoop = FetchLoop::Reference;
  for (const EtoOptions &options : {largest, byReference}) {
    TaskSearchState state = TaskSearchState::create(alpha, device, 1);
    EtoStrategy strategy(options, reference);
    llvm::Error error = strategy.prepare(state);
    ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
    std::vector<Candidate> first = strategy.propose(state, 1);
    ASSERT_EQ(first.size(), 1u);
    SmallVector<SmallVector<int64_t>> tiles = getTiles(first.front());
    bool alongRy = options.fetchLoop == FetchLoop::Reference;
    EXPECT_EQ(tiles[5][0], alongRy ? 3 : 1);
    if (alongRy) {
      EXPECT_EQ(tiles[4][0], 1);
    }
  }
}

TEST_F(EtoStrategyTest, NoMatchingSketch) {
  TuningTask beta = extract(getConvSource(1, 512, 28, 28, 128, 1, 1));
  TuningTask alpha = extract(getMatmulSource(64, 64, 64));
  ReferenceProgram reference = getFig2b(beta);
  TaskSearchState state = TaskSearchState::create(alpha, device, 1);
  EtoStrategy strategy(EtoOptions(), reference);
  EXPECT_TRUE(strategy.propose(state, 8).empty());
  llvm::Error error = strategy.prepare(state);
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(llvm::toString(std::move(error)),
            "eto: the task's op linalg.matmul differs from the reference's "
            "linalg.conv_2d_nchw_fchw");
  llvm::Expected<int64_t> count =
      countEtoTrials(alpha, reference, device, EtoOptions());
  EXPECT_FALSE(static_cast<bool>(count));
  llvm::consumeError(count.takeError());
}

/// A matmul whose few outputs each reduce 4096 (2048) elements gets a
/// cross_thread_reduction sketch; the simplified variant searches the
/// threads in range and the unroll.
TEST_F(EtoStrategyTest, CrossThreadReduction) {
  TuningTask beta = extract(getMatmulSource(4, 8, 4096));
  TuningTask alpha = extract(getMatmulSource(4, 8, 2048));
  SketchAttr sketch;
  for (SketchAttr candidate : beta.sketches)
    if (candidate.getKind() == SketchKind::CrossThreadReduction)
      sketch = candidate;
  ASSERT_TRUE(sketch);
  ReferenceProgram reference{&beta, sketch,
                             getConfig({{4}, {8}, {16, 256}}, 16, {})};
  TaskSearchState state = TaskSearchState::create(alpha, device, 1);
  EtoStrategy strategy(EtoOptions(), reference);
  std::vector<Candidate> measured =
      run(strategy, state, [](const Candidate &candidate) {
        return 100.0 + candidate.config.getLoopTiles(2)[1];
      });
  ASSERT_FALSE(measured.empty());
  std::set<int64_t> threads;
  for (const Candidate &candidate : measured) {
    EXPECT_EQ(candidate.sketch.getKind(), SketchKind::CrossThreadReduction);
    threads.insert(candidate.config.getLoopTiles(2)[1]);
  }
  // T* = 32 x 256 and |I(L_alpha)| / |I(L_beta)| = 1/2: 128 or 256 threads.
  EXPECT_EQ(threads, (std::set<int64_t>{128, 256}));
  llvm::Expected<int64_t> count =
      countEtoTrials(alpha, reference, device, EtoOptions());
  ASSERT_TRUE(static_cast<bool>(count));
  EXPECT_EQ(*count, static_cast<int64_t>(measured.size()));
}

/// Elementwise tasks (two_level_injective): the block counts in range, the
/// threads of a block from the innermost loop; nothing to unroll.
TEST_F(EtoStrategyTest, TwoLevelInjective) {
  TaskExtractionOptions simple;
  simple.includeSimpleTasks = true;
  TuningTask beta = extract(getReluSource(64, 256), simple);
  TuningTask alpha = extract(getReluSource(32, 256), simple);
  ASSERT_EQ(beta.sketches.size(), 1u);
  ASSERT_EQ(beta.sketches.front().getKind(), SketchKind::TwoLevelInjective);
  // 64 blocks of 256 threads; alpha is half as large: B in [32, 64].
  ReferenceProgram reference{&beta, beta.sketches.front(),
                             getConfig({{64, 1}, {1, 256}}, 0, {})};
  TaskSearchState state = TaskSearchState::create(alpha, device, 1);
  EtoStrategy strategy(EtoOptions(), reference);
  std::vector<Candidate> measured =
      run(strategy, state, [](const Candidate &) { return 1.0; });
  ASSERT_EQ(measured.size(), 2u);
  EXPECT_EQ(getTiles(measured[0]),
            (SmallVector<SmallVector<int64_t>>{{32, 1}, {1, 256}}));
  EXPECT_EQ(getTiles(measured[1]),
            (SmallVector<SmallVector<int64_t>>{{32, 1}, {2, 128}}));
  llvm::Expected<int64_t> count =
      countEtoTrials(alpha, reference, device, EtoOptions());
  ASSERT_TRUE(static_cast<bool>(count));
  EXPECT_EQ(*count, 2);
}

/// tensor_core reference programs: lanes by block count (block shapes in
/// whole instructions), warp grids of fewest fragment loads, then the
/// staging steps, unroll and vector widths of the best.
TEST_F(EtoStrategyTest, TensorCore) {
  TuningTask beta = extract(getMatmulSource(512, 384, 256, "f16"));
  TuningTask alpha = extract(getMatmulSource(1024, 384, 256, "f16"));
  SketchAttr sketch;
  for (SketchAttr candidate : beta.sketches)
    if (candidate.getKind() == SketchKind::TensorCore)
      sketch = candidate;
  ASSERT_TRUE(sketch);
  // 12 blocks of 128x128, 2x2 warps of 64x64, K staged 32 at a time.
  ReferenceProgram reference{
      &beta, sketch,
      getConfig({{4, 2, 4, 16}, {3, 2, 8, 8}, {8, 2, 16}}, 64, {8, 8})};
  TaskSearchState state = TaskSearchState::create(alpha, device, 1);
  EtoStrategy strategy(EtoOptions(), reference);
  // Faster with more mma tiles per warp (fragment reuse), then more warps.
  std::vector<Candidate> measured =
      run(strategy, state, [](const Candidate &candidate) {
        ArrayRef<int64_t> m = candidate.config.getLoopTiles(0);
        ArrayRef<int64_t> n = candidate.config.getLoopTiles(1);
        return 100.0 * m[2] * n[2] + m[1] * n[1];
      });
  ASSERT_FALSE(measured.empty());
  for (const Candidate &candidate : measured) {
    EXPECT_EQ(candidate.sketch.getKind(), SketchKind::TensorCore);
    SmallVector<SmallVector<int64_t>> tiles = getTiles(candidate);
    EXPECT_EQ(tiles[0].back(), 16);
    EXPECT_EQ(tiles[1].back(), 8);
    EXPECT_EQ(tiles[2].back(), 16);
  }
  // Alpha has twice beta's work: lanes of 12, 16 and 24 blocks (GetBShape
  // in whole instructions: 256x128, 128x192, 128x128).
  EXPECT_EQ(strategy.getBlockCounts(), (SmallVector<int64_t>{12, 16, 24}));
  // Round 1 of 12 blocks: 4 warps would hold 64 mma tiles each, more
  // registers than check() allows; of the 8-warp grids, 2x4 (8x4 mma tiles
  // per warp) loads the fewest fragments (8 x (8 + 4)). K is staged 16 at
  // a time: 6144 shared elements per block, the closest to beta's 8192.
  // Beta's unroll, 1-wide loads.
  EXPECT_EQ(measured[0].config,
            getConfig({{4, 2, 8, 16}, {3, 4, 4, 8}, {16, 1, 16}}, 64, {1, 1}));
  // Round 2 of that lane: K staged 32 at a time (12288 elements).
  auto wasMeasured = [&](ConfigAttr config) {
    return llvm::any_of(measured, [&](const Candidate &candidate) {
      return candidate.config == config;
    });
  };
  EXPECT_TRUE(wasMeasured(
      getConfig({{4, 2, 8, 16}, {3, 4, 4, 8}, {8, 2, 16}}, 64, {1, 1})));
  // Rounds 3 and 4 of the lane's best: every other unroll value (no
  // pruning by CUDA-core unroll effects) and every other width of each
  // staged input.
  for (int64_t unroll : {0, 16, 512, 1024})
    EXPECT_TRUE(wasMeasured(getConfig(
        {{4, 2, 8, 16}, {3, 4, 4, 8}, {16, 1, 16}}, unroll, {1, 1})))
        << unroll;
  for (int64_t width : {2, 4, 8}) {
    EXPECT_TRUE(wasMeasured(getConfig(
        {{4, 2, 8, 16}, {3, 4, 4, 8}, {16, 1, 16}}, 64, {width, 1})));
    EXPECT_TRUE(wasMeasured(getConfig(
        {{4, 2, 8, 16}, {3, 4, 4, 8}, {16, 1, 16}}, 64, {1, width})));
  }
  // With every candidate at the same speed, the estimator's count.
  llvm::Expected<int64_t> count =
      countEtoTrials(alpha, reference, device, EtoOptions());
  ASSERT_TRUE(static_cast<bool>(count)) << llvm::toString(count.takeError());
  TaskSearchState flat = TaskSearchState::create(alpha, device, 1);
  EtoStrategy again(EtoOptions(), reference);
  EXPECT_EQ(static_cast<int64_t>(
                run(again, flat, [](const Candidate &) { return 1.0; }).size()),
            *count);
}

} // namespace
