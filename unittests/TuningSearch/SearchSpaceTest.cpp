//===- SearchSpaceTest.cpp - Sampling and mutating configs ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Tuning/Search/SearchSpace.h"
#include "tessel/Tuning/Search/SketchRules.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

using namespace mlir;
using namespace mlir::tessel;

namespace {

class SearchSpaceTest : public SearchTest {
protected:
  void SetUp() override {
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    ASSERT_TRUE(static_cast<bool>(found)) << llvm::toString(found.takeError());
    device = *found;
  }

  /// The single task of `source`.
  TuningTask &taskOf(StringRef source,
                     const TaskExtractionOptions &options = {}) {
    tasks = extract(source, options);
    EXPECT_EQ(tasks.size(), 1u);
    return tasks.front();
  }

  /// The space of the `multi_level_tiling` sketch "SSSRRSRS" of `task`
  /// with the staged operands `shared`.
  FailureOr<SearchSpace> getMultiLevelSpace(TuningTask &task,
                                            ArrayRef<int64_t> shared,
                                            bool registerAccumulator) {
    SketchAttr sketch =
        SketchAttr::get(&context, SketchKind::MultiLevelTiling, "SSSRRSRS",
                        shared, registerAccumulator, 0);
    return SearchSpace::get(task.getTargetOp(), sketch, device);
  }

  static bool verifies(linalg::LinalgOp op, SketchAttr sketch,
                       ConfigAttr config) {
    std::string message;
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &d) {
      message = d.str();
      return success();
    });
    bool ok = succeeded(
        verifySchedule(op, sketch, config, [&] { return op->emitError(); }));
    EXPECT_TRUE(ok) << message;
    return ok;
  }

  static void expectSameProducts(const SearchSpace &space, ConfigAttr a,
                                 ConfigAttr b) {
    ASSERT_EQ(a.getNumLoops(), b.getNumLoops());
    for (unsigned loop = 0; loop < a.getNumLoops(); ++loop) {
      int64_t pa = 1, pb = 1;
      for (int64_t t : a.getLoopTiles(loop))
        pa *= t;
      for (int64_t t : b.getLoopTiles(loop))
        pb *= t;
      EXPECT_EQ(pa, pb);
      EXPECT_EQ(pa, space.getLoopNest().extents[loop]);
    }
  }

  /// Samples and mutates 1000 configs of every sketch of `task`.
  void sampleAndMutate(TuningTask &task) {
    linalg::LinalgOp op = task.getTargetOp();
    ASSERT_TRUE(op);
    ASSERT_FALSE(task.sketches.empty());
    for (auto [index, sketch] : llvm::enumerate(task.sketches)) {
      FailureOr<SearchSpace> space = SearchSpace::get(op, sketch, device);
      ASSERT_TRUE(succeeded(space));
      RandomEngine rng(index + 1);
      std::set<std::string> distinct;
      ConfigAttr current;
      int tileMutations = 0;
      for (int i = 0; i < 1000; ++i) {
        std::string why;
        FailureOr<ConfigAttr> config = space->sample(rng, &why);
        ASSERT_TRUE(succeeded(config)) << why;
        ASSERT_TRUE(verifies(op, sketch, *config));
        EXPECT_TRUE(succeeded(space->check(*config, &why))) << why;
        std::string text;
        llvm::raw_string_ostream(text) << *config;
        distinct.insert(text);
        if (i == 0)
          current = *config;
      }
      // Uniform sampling of a space of this size rarely repeats itself.
      EXPECT_GT(distinct.size(), 900u) << str(sketch);
      for (int i = 0; i < 1000; ++i) {
        ConfigAttr next;
        if (rng.uniformReal() < 0.9) {
          std::optional<ConfigAttr> mutated =
              space->mutateTileSize(current, rng);
          if (!mutated)
            continue;
          ++tileMutations;
          next = *mutated;
          EXPECT_NE(next, current);
          expectSameProducts(*space, current, next);
          EXPECT_EQ(next.getUnroll(), current.getUnroll());
        } else {
          next = space->mutateUnroll(current, rng);
          // The same config only when no other unroll value keeps the
          // kernel within the kernel-size and unrolled-work limits.
          if (next.getUnroll() == current.getUnroll()) {
            ConfigAttr unrolled16 =
                ConfigAttr::get(&context, getTileVectors(current), 16,
                                current.getVector(), current.getStages());
            EXPECT_TRUE(space->estimateUnrolledLoops(unrolled16) >
                            kMaxKernelLoops ||
                        space->estimateUnrolledWork(unrolled16) >
                            kMaxUnrolledWork)
                << str(current);
          }
          EXPECT_EQ(next.getTiles(), current.getTiles());
        }
        ASSERT_TRUE(verifies(op, sketch, next));
        std::string why;
        EXPECT_TRUE(succeeded(space->check(next, &why))) << why;
        current = next;
      }
      EXPECT_GT(tileMutations, 700) << str(sketch);
    }
  }

  DeviceDescription device;
  std::vector<TuningTask> tasks;
};

TEST_F(SearchSpaceTest, Matmul1024SamplesAndMutationsAreValid) {
  TuningTask &task = taskOf(kMatmul1024);
  sampleAndMutate(task);
}

TEST_F(SearchSpaceTest, ResNetConvSamplesAndMutationsAreValid) {
  TuningTask &task = taskOf(kResNetConv3x3);
  EXPECT_EQ(task.fusedConsumers, 1);
  sampleAndMutate(task);
}

constexpr const char *kHalfMatmul1024 = R"mlir(
func.func @f(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
})mlir";

// Samples and mutations of the tensor_core sketch keep the instruction
// level (16, 8, 16) and verify.
TEST_F(SearchSpaceTest, TensorCoreSamplesAndMutationsAreValid) {
  TuningTask &task = taskOf(kHalfMatmul1024);
  ASSERT_EQ(task.sketches.size(), 2u);
  EXPECT_EQ(task.sketches.back().getKind(), SketchKind::TensorCore);
  sampleAndMutate(task);
}

// The TF32 tensor_core space (f32 inputs, allowed): samples and mutations
// keep the instruction level (16, 8, 8) and verify.
TEST_F(SearchSpaceTest, Tf32SamplesAndMutationsAreValid) {
  TaskExtractionOptions tf32;
  tf32.includeTf32 = true;
  TuningTask &task = taskOf(kMatmul1024, tf32);
  ASSERT_EQ(task.sketches.size(), 2u);
  ASSERT_EQ(task.sketches.back().getKind(), SketchKind::TensorCore);
  FailureOr<SearchSpace> space =
      SearchSpace::get(task.getTargetOp(), task.sketches.back(), device);
  ASSERT_TRUE(succeeded(space));
  RandomEngine rng(5);
  for (int i = 0; i < 200; ++i) {
    FailureOr<ConfigAttr> config = space->sample(rng);
    ASSERT_TRUE(succeeded(config));
    EXPECT_EQ(config->getLoopTiles(2).back(), 8);
  }
  sampleAndMutate(task);
}

// mma.sync m16n8k16 needs sm_80: no tensor_core space on a V100.
TEST_F(SearchSpaceTest, TensorCoreSpaceNeedsAmpere) {
  TuningTask &task = taskOf(kHalfMatmul1024);
  SketchAttr tensorCore = task.sketches.back();
  llvm::Expected<DeviceDescription> v100 = findDevice("v100");
  ASSERT_TRUE(static_cast<bool>(v100)) << llvm::toString(v100.takeError());
  EXPECT_TRUE(failed(SearchSpace::get(task.getTargetOp(), tensorCore, *v100)));
  llvm::Expected<DeviceDescription> a100 = findDevice("a100");
  ASSERT_TRUE(static_cast<bool>(a100)) << llvm::toString(a100.takeError());
  EXPECT_TRUE(
      succeeded(SearchSpace::get(task.getTargetOp(), tensorCore, *a100)));
}

// A small tensor_core space, enumerated: every config is valid, has the
// instruction level, and every sampled or mutated config is among them.
TEST_F(SearchSpaceTest, TensorCoreEnumerationCoversSamples) {
  TuningTask &task = taskOf(R"mlir(
func.func @f(%a: tensor<64x32xf16>, %b: tensor<32x32xf16>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x32xf16>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
})mlir");
  FailureOr<SearchSpace> space =
      SearchSpace::get(task.getTargetOp(), task.sketches.back(), device);
  ASSERT_TRUE(succeeded(space));
  std::string why;
  FailureOr<std::vector<ConfigAttr>> all =
      space->enumerate(space->getSizeEstimate(), &why);
  ASSERT_TRUE(succeeded(all)) << why;
  // M: 64 / 16 = 4 over 3 levels (6 ways), N: 32 / 8 = 4 (6), K: 32 / 16 =
  // 2 over 2 levels (2): 72 tilings, each with 5 unroll values and up to 4 x
  // 4 vector widths.
  EXPECT_EQ(space->getSizeEstimate(), 72u * 5 * 4 * 4);
  ASSERT_FALSE(all->empty());
  llvm::DenseSet<Attribute> distinct;
  for (ConfigAttr config : *all) {
    EXPECT_TRUE(succeeded(space->check(config, &why))) << why;
    EXPECT_EQ(config.getLoopTiles(0).back(), 16);
    EXPECT_EQ(config.getLoopTiles(1).back(), 8);
    EXPECT_EQ(config.getLoopTiles(2).back(), 16);
    distinct.insert(config);
  }
  RandomEngine rng(3);
  for (int i = 0; i < 200; ++i) {
    FailureOr<ConfigAttr> config = space->sample(rng, &why);
    ASSERT_TRUE(succeeded(config)) << why;
    EXPECT_TRUE(distinct.contains(*config));
    if (std::optional<ConfigAttr> m = space->mutateTileSize(*config, rng)) {
      EXPECT_TRUE(distinct.contains(*m));
    }
  }
}

TEST_F(SearchSpaceTest, SameSeedSameConfigs) {
  TuningTask &task = taskOf(kResNetConv3x3);
  FailureOr<SearchSpace> space =
      SearchSpace::get(task.getTargetOp(), task.sketches.front(), device);
  ASSERT_TRUE(succeeded(space));
  auto run = [&](uint64_t seed) {
    RandomEngine rng(seed);
    std::string text;
    llvm::raw_string_ostream os(text);
    for (int i = 0; i < 20; ++i) {
      ConfigAttr config = *space->sample(rng);
      os << config << "\n";
      if (std::optional<ConfigAttr> mutated = space->mutateTileSize(config, rng))
        os << *mutated << "\n";
      os << space->mutateUnroll(config, rng) << "\n";
    }
    return text;
  };
  EXPECT_EQ(run(42), run(42));
  EXPECT_NE(run(42), run(43));
  // splitmix64's published first output for seed 0.
  RandomEngine zero(0);
  EXPECT_EQ(zero.next(), 0xe220a8397b1dcdafULL);
}

TEST_F(SearchSpaceTest, SizeEstimate) {
  TuningTask &task = taskOf(kMatmul1024);
  FailureOr<SearchSpace> space =
      SearchSpace::get(task.getTargetOp(), task.sketches.front(), device);
  ASSERT_TRUE(succeeded(space));
  // 1024 = 2^10 into 5 space levels twice (C(14,4) = 1001) and into 3
  // reduction levels (C(12,2) = 66), 5 unroll values, 3 widths for each of
  // the two staged f32 operands.
  EXPECT_EQ(space->getSizeEstimate(), 1001ull * 1001 * 66 * 5 * 3 * 3);
}

/// An elementwise op over a prime extent (8191): besides its dividing
/// tiles ([8191, 1] only: 8191 threads do not fit a block), the space holds
/// boundary blocks of 32 to 1024 threads, each drawn about as often.
TEST_F(SearchSpaceTest, AwkwardInjectiveLoopsSampleBoundaryBlocks) {
  TaskExtractionOptions options;
  options.includeSimpleTasks = true;
  tasks = extract(R"mlir(
func.func @f(%x: tensor<8x8191xf32>, %init: tensor<8x8191xf32>) -> tensor<8x8191xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8191xf32>) outs(%init : tensor<8x8191xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<8x8191xf32>
  return %0 : tensor<8x8191xf32>
})mlir",
                  options);
  ASSERT_EQ(tasks.size(), 1u);
  linalg::LinalgOp op = tasks.front().getTargetOp();
  SketchAttr sketch = tasks.front().sketches.front();
  ASSERT_EQ(sketch.getKind(), SketchKind::TwoLevelInjective);
  FailureOr<SearchSpace> space = SearchSpace::get(op, sketch, device);
  ASSERT_TRUE(succeeded(space));
  // Loop 0 (8 = 2^3 over 2 levels): 4 tilings; loop 1: [8191, 1], [1, 8191]
  // and 6 boundary thread counts; 5 unroll values.
  EXPECT_EQ(space->getSizeEstimate(), 4ull * 8 * 5);
  RandomEngine rng(1);
  std::map<int64_t, int> threadsOfLoop1;
  for (int i = 0; i < 700; ++i) {
    FailureOr<ConfigAttr> config = space->sample(rng);
    ASSERT_TRUE(succeeded(config));
    ASSERT_TRUE(verifies(op, sketch, *config));
    ArrayRef<int64_t> levels = config->getLoopTiles(1);
    EXPECT_EQ(levels[0], (8191 + levels[1] - 1) / levels[1]);
    ++threadsOfLoop1[levels[1]];
  }
  // 1 (the dividing tiles) and 32, ..., 1024, each drawn with probability
  // 1/7 (minus the draws rejected for more than 1024 threads per block).
  EXPECT_EQ(threadsOfLoop1.size(), 7u);
  EXPECT_GT(threadsOfLoop1[1], 50);
  EXPECT_GT(threadsOfLoop1[32], 50);
  // Mutations keep covering the loop.
  ConfigAttr current = *space->sample(rng);
  for (int i = 0; i < 200; ++i) {
    if (std::optional<ConfigAttr> next = space->mutateTileSize(current, rng))
      current = *next;
    ASSERT_TRUE(verifies(op, sketch, current));
  }
}

TEST_F(SearchSpaceTest, CheckExplainsDeviceLimits) {
  TuningTask &task = taskOf(kMatmul1024);
  SketchAttr sketch = task.sketches.front();
  FailureOr<SearchSpace> space =
      SearchSpace::get(task.getTargetOp(), sketch, device);
  ASSERT_TRUE(succeeded(space));
  auto config = [&](SmallVector<SmallVector<int64_t>> tiles) {
    return ConfigAttr::get(&context, tiles, 16, {1, 1});
  };
  std::string why;
  // 32 x 32 threads, 4x4 registers each, k staged 16 at a time: valid.
  EXPECT_TRUE(succeeded(space->check(
      config({{8, 1, 32, 4, 1}, {8, 1, 32, 4, 1}, {64, 16, 1}}), &why)))
      << why;
  // Per thread 16 x 16 accumulators.
  EXPECT_TRUE(failed(space->check(
      config({{2, 1, 32, 16, 1}, {2, 1, 32, 16, 1}, {128, 8, 1}}), &why)));
  EXPECT_NE(why.find("registers per thread"), std::string::npos) << why;
  // 128 x 64 of A and 64 x 128 of B: 64 KiB of shared memory, dynamic
  // (above the 48 KiB static limit, within the opt-in); 128 x 256 and
  // 256 x 128: 256 KiB, beyond the H100's 227 KiB.
  EXPECT_TRUE(succeeded(space->checkCompilerLimits(
      config({{8, 1, 16, 8, 1}, {8, 1, 16, 8, 1}, {16, 64, 1}}), &why)))
      << why;
  EXPECT_TRUE(failed(space->check(
      config({{8, 1, 16, 8, 1}, {8, 1, 16, 8, 1}, {4, 256, 1}}), &why)));
  EXPECT_EQ(why,
            "262144 bytes of shared memory per block; h100-sxm allows 232448");
  // 16 virtual threads are outside the search (kMaxVirtualThreads), not
  // beyond the compiler: a default schedule may have them.
  ConfigAttr vthreads =
      config({{8, 4, 32, 1, 1}, {8, 4, 32, 1, 1}, {64, 16, 1}});
  EXPECT_TRUE(failed(space->check(vthreads, &why)));
  EXPECT_NE(why.find("virtual threads"), std::string::npos) << why;
  EXPECT_TRUE(succeeded(space->checkCompilerLimits(vthreads, &why))) << why;
  // The verifier's own limits come first.
  EXPECT_TRUE(failed(space->check(
      config({{1, 1, 64, 16, 1}, {1, 1, 64, 16, 1}, {64, 16, 1}}), &why)));
  EXPECT_NE(why.find("threads per block"), std::string::npos) << why;
  RegisterEstimate estimate = space->estimateRegisters(
      config({{8, 1, 32, 4, 1}, {8, 1, 32, 4, 1}, {64, 8, 2}}));
  EXPECT_EQ(estimate.accumulators, 16);
  EXPECT_EQ(estimate.operands, 16); // 4x2 of A, 2x4 of B
  EXPECT_EQ(estimate.stagedLoads, 2);
}

// With fused consumers the block's accumulator is the fused init. When the
// kernel keeps its accumulators in registers the epilogue reads them there
// (--tessel-forward-accumulators) and the space counts only the staged
// tiles: the schedule 300 analytic trials picked for this projection (48 KiB
// of staged tiles + 12 KiB of accumulator, which ptxas refused as static
// shared memory) is 48 KiB. A kernel that keeps its accumulator in shared
// memory (no register_accumulator) counts it.
TEST_F(SearchSpaceTest, FusedAccumulatorCountsOnlyOutsideRegisters) {
  TuningTask &task = taskOf(kGpt2QkvBias);
  ASSERT_EQ(task.fusedConsumers, 1);
  SketchAttr sketch;
  for (SketchAttr s : task.sketches)
    if (s.getKind() == SketchKind::MultiLevelTiling &&
        s.getFusedConsumers() == 1 && s.getShared().size() == 2)
      sketch = s;
  ASSERT_TRUE(sketch);
  ASSERT_TRUE(sketch.getRegisterAccumulator());
  FailureOr<SearchSpace> space =
      SearchSpace::get(task.getTargetOp(), sketch, device);
  ASSERT_TRUE(succeeded(space));
  ConfigAttr picked = ConfigAttr::get(
      &context, {{8, 1, 4, 4, 2}, {24, 6, 16, 1, 1}, {8, 96, 1}}, 16, {1, 1});
  // Block tile 32 x 96, k 96 a stage: A 32x96 and B 96x96 staged (48 KiB).
  EXPECT_EQ(space->getSharedMemoryBytes(picked), (32 * 96 + 96 * 96) * 4);
  std::string why;
  EXPECT_TRUE(succeeded(space->check(picked, &why))) << why;
  // Block tile 128 x 192, k 128 a stage: 64 + 96 KiB staged (with the
  // accumulator, 256 KiB: refused until session 32).
  ConfigAttr large = ConfigAttr::get(
      &context, {{2, 1, 16, 8, 1}, {12, 1, 16, 12, 1}, {6, 128, 1}}, 16,
      {1, 1});
  EXPECT_EQ(space->getSharedMemoryBytes(large), (128 * 128 + 128 * 192) * 4);
  EXPECT_TRUE(succeeded(space->check(large, &why))) << why;
  // k 256 a stage: 320 KiB.
  ConfigAttr larger = ConfigAttr::get(
      &context, {{2, 1, 16, 8, 1}, {12, 1, 16, 12, 1}, {3, 256, 1}}, 16,
      {1, 1});
  EXPECT_TRUE(failed(space->check(larger, &why)));
  EXPECT_EQ(why,
            "327680 bytes of shared memory per block; h100-sxm allows 232448");
  // The compiler refuses it too (what --tessel-apply-tuned checks records
  // against).
  EXPECT_TRUE(failed(space->checkCompilerLimits(larger, &why)));
  EXPECT_EQ(why,
            "327680 bytes of shared memory per block; h100-sxm allows 232448");
  // Each buffer starts at a 16-byte boundary: a block tile of 1 x 3 with k
  // 8 a stage stages 1 x 8 and 8 x 3 floats (32 and 96 bytes).
  ConfigAttr odd = ConfigAttr::get(
      &context, {{256, 1, 1, 1, 1}, {768, 1, 3, 1, 1}, {96, 8, 1}}, 16, {1, 1});
  EXPECT_EQ(space->getSharedMemoryBytes(odd), 32 + 96);

  // Without register accumulators the block's accumulator is a workgroup
  // buffer the epilogue reads: 12 KiB more for the picked tiles, and the
  // 1 x 3 accumulator padded to 16 bytes.
  SketchAttr sharedAccumulator = SketchAttr::get(
      &context, SketchKind::MultiLevelTiling, sketch.getStructure(),
      sketch.getShared(), /*registerAccumulator=*/false,
      sketch.getFusedConsumers());
  FailureOr<SearchSpace> shared =
      SearchSpace::get(task.getTargetOp(), sharedAccumulator, device);
  ASSERT_TRUE(succeeded(shared));
  EXPECT_EQ(shared->getSharedMemoryBytes(picked),
            (32 * 96 + 96 * 96 + 32 * 96) * 4);
  EXPECT_EQ(shared->getSharedMemoryBytes(odd), 32 + 96 + 16);
}

// A convolution that is not vectorized keeps one loop per op loop in every
// unrolled copy of its register-level op; the space rejects configs whose
// copies exceed the kernel-size limit (the schedule the README's AlexNet
// example picked had 3,370 loops). It is not vectorized when the thread's
// innermost tile keeps two loops of one input index (here three output
// columns and five filter columns); with one, it reads window views and is
// vectorized (readsWindowViews).
TEST_F(SearchSpaceTest, UnrolledLoopsOverTheKernelLimitAreRejected) {
  TuningTask &task = taskOf(R"mlir(
func.func @f(%x: tensor<1x64x31x31xf32>, %w: tensor<192x64x5x5xf32>) -> tensor<1x192x27x27xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x192x27x27xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x192x27x27xf32>) -> tensor<1x192x27x27xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x64x31x31xf32>, tensor<192x64x5x5xf32>) outs(%c : tensor<1x192x27x27xf32>) -> tensor<1x192x27x27xf32>
  return %r : tensor<1x192x27x27xf32>
})mlir");
  FailureOr<SearchSpace> space = getMultiLevelSpace(
      task, {0, 1}, /*registerAccumulator=*/true);
  ASSERT_TRUE(succeeded(space));
  SmallVector<SmallVector<int64_t>> windows = {
      {1, 1, 1, 1, 1}, {6, 2, 16, 1, 1}, {9, 1, 3, 1, 1}, {3, 3, 3, 1, 1},
      {4, 16, 1},      {5, 1, 1},        {1, 5, 1}};
  EXPECT_EQ(space->estimateUnrolledLoops(
                ConfigAttr::get(&context, windows, 1024, {1, 1})),
            0);
  SmallVector<SmallVector<int64_t>> tiles = {
      {1, 1, 1, 1, 1}, {6, 2, 16, 1, 1}, {9, 1, 3, 1, 1}, {3, 3, 1, 1, 3},
      {4, 16, 1},      {1, 5, 1},        {1, 1, 5}};
  // 2 x 3 virtual threads x (16 x 5 middle reduction steps, unrolled) x 7.
  ConfigAttr unrolled = ConfigAttr::get(&context, tiles, 1024, {1, 1});
  EXPECT_EQ(space->estimateUnrolledLoops(unrolled), 6 * 80 * 7);
  std::string why;
  EXPECT_TRUE(failed(space->check(unrolled, &why)));
  EXPECT_EQ(why, "at least 3360 loops after unrolling; the kernel-size limit "
                 "is 1024");
  // With the middle level not unrolled: 6 copies.
  ConfigAttr rolled = ConfigAttr::get(&context, tiles, 16, {1, 1});
  EXPECT_EQ(space->estimateUnrolledLoops(rolled), 6 * 7);
  EXPECT_TRUE(succeeded(space->check(rolled, &why))) << why;
}

// torch-mlir's adaptive average pool (AlexNet task 8): a reduction whose
// second output is not a combiner, which upstream's vectorizer refuses, so
// its register-level copies stay scalar loop nests that count against the
// kernel-size limit. The space took it for vectorized (projected
// permutations only) and admitted configs of 1,159 to 4,608 loops.
TEST_F(SearchSpaceTest, UnvectorizedReductionsCountTheirLoops) {
  TuningTask &task = taskOf(R"mlir(
func.func @f(%x: tensor<1x256x7x7xf32>, %k: tensor<2x2xi1>) -> (tensor<1x256x6x6xf32>, tensor<6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %e = tensor.empty() : tensor<1x256x6x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256x6x6xf32>) -> tensor<1x256x6x6xf32>
  %cnt = tensor.empty() : tensor<6x6xf32>
    %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%k : tensor<2x2xi1>) outs(%acc, %cnt : tensor<1x256x6x6xf32>, tensor<6x6xf32>) {
    ^bb0(%in: i1, %out: f32, %out_20: f32):
      %51 = linalg.index 0 : index
      %52 = linalg.index 1 : index
      %53 = linalg.index 2 : index
      %54 = linalg.index 3 : index
      %55 = linalg.index 4 : index
      %56 = linalg.index 5 : index
      %57 = arith.muli %53, %c6 : index
      %58 = arith.floordivsi %57, %c6 : index
      %59 = arith.addi %53, %c1 : index
      %60 = arith.muli %59, %c6 : index
      %61 = arith.subi %60, %c1 : index
      %62 = arith.floordivsi %61, %c6 : index
      %63 = arith.addi %62, %c1 : index
      %64 = arith.muli %54, %c6 : index
      %65 = arith.floordivsi %64, %c6 : index
      %66 = arith.addi %54, %c1 : index
      %67 = arith.muli %66, %c6 : index
      %68 = arith.subi %67, %c1 : index
      %69 = arith.floordivsi %68, %c6 : index
      %70 = arith.addi %69, %c1 : index
      %71 = arith.addi %58, %55 : index
      %72 = arith.addi %65, %56 : index
      %extracted = tensor.extract %x[%51, %52, %71, %72] : tensor<1x256x7x7xf32>
      %73 = arith.cmpi ult, %71, %63 : index
      %74 = arith.select %73, %extracted, %zero : f32
      %75 = arith.cmpi ult, %72, %70 : index
      %76 = arith.select %75, %74, %zero : f32
      %77 = arith.addf %76, %out : f32
      %78 = arith.subi %63, %58 : index
      %79 = arith.subi %70, %65 : index
      %80 = arith.muli %78, %79 : index
      %81 = arith.index_cast %80 : index to i64
      %82 = arith.sitofp %81 : i64 to f32
      linalg.yield %77, %82 : f32, f32
    } -> (tensor<1x256x6x6xf32>, tensor<6x6xf32>)
  return %r#0, %r#1 : tensor<1x256x6x6xf32>, tensor<6x6xf32>
})mlir");
  FailureOr<SearchSpace> space = getMultiLevelSpace(
      task, {}, /*registerAccumulator=*/false);
  ASSERT_TRUE(succeeded(space));
  // Sampled by scripts/sampled-configs-compile; the kernel had 4,608 loops.
  ConfigAttr sampled = ConfigAttr::get(
      &context,
      SmallVector<SmallVector<int64_t>>{{1, 1, 1, 1, 1},
                                        {1, 8, 1, 16, 2},
                                        {1, 1, 1, 6, 1},
                                        {2, 1, 1, 1, 3},
                                        {1, 1, 2},
                                        {1, 1, 2}},
      64, {});
  // 8 virtual threads x 16 x 6 outer register copies x 6 loops.
  EXPECT_EQ(space->estimateUnrolledLoops(sampled), 8 * 16 * 6 * 6);
  std::string why;
  EXPECT_TRUE(failed(space->check(sampled, &why)));
  EXPECT_EQ(why, "at least 4608 loops after unrolling; the kernel-size limit "
                 "is 1024");
}

TEST_F(SearchSpaceTest, UnrolledWorkIsLimited) {
  // BERT-base's layer-norm variance with its normalization fused.
  TuningTask &task = taskOf(R"mlir(
func.func @f(%x: tensor<1x128x768xf32>, %m: tensor<1x128x1xf32>) -> tensor<1x128x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x1xf32>) -> tensor<1x128x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%x, %m : tensor<1x128x768xf32>, tensor<1x128x1xf32>) outs(%acc : tensor<1x128x1xf32>) {
  ^bb0(%in: f32, %mean: f32, %out: f32):
    %d = arith.subf %in, %mean : f32
    %s = arith.mulf %d, %d : f32
    %a = arith.addf %s, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x128x1xf32>
  return %r : tensor<1x128x1xf32>
})mlir");
  FailureOr<SearchSpace> space = getMultiLevelSpace(
      task, {}, /*registerAccumulator=*/false);
  ASSERT_TRUE(succeeded(space));
  auto config = [&](int64_t unroll) {
    return ConfigAttr::get(&context,
                           SmallVector<SmallVector<int64_t>>{{1, 1, 1, 1, 1},
                                                             {1, 1, 2, 4, 16},
                                                             {1, 48, 16},
                                                             {1, 1, 1, 1, 1}},
                           unroll, {});
  };
  // Sampled from BERT-base; it compiled in 35 s to 215,257 lines of PTX:
  // 64 outputs x the middle reduction of 48 (unroll 64 covers it) x 16,
  // each update a subtraction and a multiply-add (cost 2).
  EXPECT_EQ(getUpdateCost(task.getTargetOp()), 2);
  EXPECT_EQ(space->estimateUnrolledWork(config(64)), 64 * 48 * 16 * 2);
  std::string why;
  EXPECT_TRUE(failed(space->check(config(64), &why)));
  EXPECT_EQ(why, "98304 unrolled multiply-adds (or their cost in other ops) "
                 "per thread and staging step; at most 4096 compile in "
                 "reasonable time");
  // Without unrolling the middle level: 64 x 16.
  EXPECT_EQ(space->estimateUnrolledWork(config(16)), 64 * 16 * 2);
  EXPECT_TRUE(succeeded(space->check(config(16), &why))) << why;
  // Mutations of the unroll value keep to the limit.
  RandomEngine rng(1);
  for (int i = 0; i < 20; ++i)
    EXPECT_LE(space->estimateUnrolledWork(space->mutateUnroll(config(16), rng)),
              kMaxUnrolledWork);
}

TEST_F(SearchSpaceTest, UnrolledWorkCountsTranscendentals) {
  // BERT-base's softmax denominator, a sum of exp(x - max): a schedule of
  // 4,096 unrolled updates a thread (64 outputs x 64) compiled to 51,005
  // lines of PTX (16,384 FMAs and 4,096 ex2) and took ptxas 35 s; a
  // matmul's 4,096 updates are 4,096 FMAs.
  TuningTask &task = taskOf(R"mlir(
func.func @f(%x: tensor<12x128x128xf32>, %m: tensor<12x128xf32>) -> tensor<12x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<12x128xf32>) -> tensor<12x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %m : tensor<12x128x128xf32>, tensor<12x128xf32>) outs(%acc : tensor<12x128xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %d = arith.subf %in, %max : f32
    %p = math.exp %d : f32
    %a = arith.addf %p, %out : f32
    linalg.yield %a : f32
  } -> tensor<12x128xf32>
  return %r : tensor<12x128xf32>
})mlir");
  // A subtraction, an exponential (8) and an addition: 10, five FMAs.
  EXPECT_EQ(getUpdateCost(task.getTargetOp()), 5);
  FailureOr<SearchSpace> space = getMultiLevelSpace(
      task, {}, /*registerAccumulator=*/true);
  ASSERT_TRUE(succeeded(space));
  // 8 outputs a thread; the reduction as stage x middle (unrolled) x 8.
  auto config = [&](int64_t middle) {
    return ConfigAttr::get(&context,
                           SmallVector<SmallVector<int64_t>>{
                               {1, 1, 12, 1, 1},
                               {1, 1, 16, 8, 1},
                               {16 / middle, middle, 8}},
                           16, {});
  };
  // 8 x 8 x 8 = 512 updates, 2,560 multiply-adds: admitted; 8 x 16 x 8 =
  // 1,024 updates (a matmul's 1,024 would be admitted), 5,120: rejected.
  EXPECT_EQ(space->estimateUnrolledWork(config(8)), 8 * 8 * 8 * 5);
  std::string why;
  EXPECT_TRUE(succeeded(space->check(config(8), &why))) << why;
  EXPECT_EQ(space->estimateUnrolledWork(config(16)), 8 * 16 * 8 * 5);
  EXPECT_TRUE(failed(space->check(config(16), &why)));
  EXPECT_EQ(why, "5120 unrolled multiply-adds (or their cost in other ops) "
                 "per thread and staging step; at most 4096 compile in "
                 "reasonable time");
}

TEST_F(SearchSpaceTest, PermutedOutputEpilogueOnRegisters) {
  // MobileNetV3's 5x5 depthwise convolution with its fused activation: its
  // loops (n, oh, ow, c, kh, kw) write (n, c, oh, ow). Sampled on
  // MobileNetV3-small, this config was admitted at 167,520 bytes and the
  // kernel needed 261,600 (the fused init was distributed over the threads
  // in the output's dim order, so the 94,080-byte shared accumulator
  // stayed). The init now follows the op's thread mapping and the kernel
  // uses the estimate's 167,520 bytes
  // (test/Pipelines/tessel-to-cuda-permuted-output-epilogue.mlir).
  TuningTask &task = taskOf(R"mlir(
func.func @f(%x: tensor<1x120x18x18xf32>, %w: tensor<120x5x5xf32>) -> tensor<1x120x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x120x14x14xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x120x14x14xf32>) -> tensor<1x120x14x14xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x120x18x18xf32>, tensor<120x5x5xf32>) outs(%acc : tensor<1x120x14x14xf32>) -> tensor<1x120x14x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c : tensor<1x120x14x14xf32>) outs(%e : tensor<1x120x14x14xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x120x14x14xf32>
  return %r : tensor<1x120x14x14xf32>
})mlir");
  SketchAttr sketch =
      SketchAttr::get(&context, SketchKind::MultiLevelTiling, "SSSRRSRS",
                      {0, 1}, /*registerAccumulator=*/true,
                      /*fusedConsumers=*/1);
  FailureOr<SearchSpace> space =
      SearchSpace::get(task.getTargetOp(), sketch, device);
  ASSERT_TRUE(succeeded(space));
  auto config = ConfigAttr::get(
      &context,
      SmallVector<SmallVector<int64_t>>{{1, 1, 1, 1, 1},
                                        {1, 1, 1, 1, 14},
                                        {1, 1, 7, 1, 2},
                                        {1, 1, 40, 1, 3},
                                        {1, 5, 1},
                                        {1, 5, 1}},
      512, {2, 1});
  EXPECT_EQ(space->getSharedMemoryBytes(config), 167520);
}

/// A matmul small enough to enumerate.
constexpr const char *kMatmul8 = R"mlir(
func.func @f(%a: tensor<8x4xf32>, %b: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x8xf32>) outs(%init : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
})mlir";

TEST_F(SearchSpaceTest, EnumerateCoversTheSampledSpace) {
  TuningTask &task = taskOf(kMatmul8);
  for (SketchAttr sketch : task.sketches) {
    FailureOr<SearchSpace> space =
        SearchSpace::get(task.getTargetOp(), sketch, device);
    ASSERT_TRUE(succeeded(space));
    std::string why;
    FailureOr<std::vector<ConfigAttr>> all =
        space->enumerate(space->getSizeEstimate(), &why);
    ASSERT_TRUE(succeeded(all)) << why;
    ASSERT_FALSE(all->empty());
    ASSERT_LE(all->size(), space->getSizeEstimate());
    // Every config is valid and listed once.
    llvm::DenseSet<Attribute> distinct;
    for (ConfigAttr config : *all) {
      EXPECT_TRUE(succeeded(space->check(config, &why))) << why;
      EXPECT_TRUE(distinct.insert(config).second);
    }
    // Every sampled and mutated config is among them.
    RandomEngine rng(7);
    for (int i = 0; i < 300; ++i) {
      FailureOr<ConfigAttr> config = space->sample(rng, &why);
      ASSERT_TRUE(succeeded(config)) << why;
      EXPECT_TRUE(distinct.contains(*config));
      if (std::optional<ConfigAttr> m = space->mutateTileSize(*config, rng)) {
        EXPECT_TRUE(distinct.contains(*m));
      }
      EXPECT_TRUE(distinct.contains(space->mutateUnroll(*config, rng)));
    }
  }
}

TEST_F(SearchSpaceTest, EnumerateRefusesLargeSpaces) {
  TuningTask &task = taskOf(kMatmul1024);
  FailureOr<SearchSpace> space =
      SearchSpace::get(task.getTargetOp(), task.sketches.front(), device);
  ASSERT_TRUE(succeeded(space));
  std::string why;
  EXPECT_TRUE(failed(space->enumerate(1000000, &why)));
  EXPECT_NE(why.find("exceeds the enumeration cap of 1000000"),
            std::string::npos)
      << why;
}

/// A space restricted to a set of configs (the replay benchmark) is exactly
/// that set: samples, checks, enumeration and every mutation stay in it.
TEST_F(SearchSpaceTest, RestrictedSpaceIsItsMembers) {
  TuningTask &task = taskOf(kMatmul1024);
  FailureOr<SearchSpace> full = SearchSpace::get(
      task.getTargetOp(), task.sketches.front(), device, /*maxStages=*/2);
  ASSERT_TRUE(succeeded(full));
  RandomEngine rng(11);
  std::vector<ConfigAttr> members;
  while (members.size() < 40) {
    ConfigAttr config = *full->sample(rng);
    if (!llvm::is_contained(members, config))
      members.push_back(config);
  }
  // A sibling of the first member in its unroll value only, and a config
  // that does not fit the op (dropped), and a duplicate (counted once).
  ConfigAttr first = members.front();
  int64_t otherUnroll = first.getUnroll() == 16 ? 64 : 16;
  ConfigAttr sibling = ConfigAttr::get(&context, getTileVectors(first),
                                       otherUnroll, first.getVector(),
                                       first.getStages());
  members.push_back(sibling);
  ConfigAttr misfit = ConfigAttr::get(
      &context, SmallVector<SmallVector<int64_t>>{{2, 1, 1, 1, 1},
                                                  {1024, 1, 1, 1, 1},
                                                  {1024, 1, 1}},
      0, first.getVector(), 1);
  std::vector<ConfigAttr> offered = members;
  offered.push_back(misfit);
  offered.push_back(first);

  SearchSpace space = *full;
  EXPECT_FALSE(space.isRestricted());
  EXPECT_EQ(space.restrictTo(offered), members.size());
  EXPECT_TRUE(space.isRestricted());
  EXPECT_EQ(space.getSizeEstimate(), members.size());
  std::string why;
  FailureOr<std::vector<ConfigAttr>> listed = space.enumerate(1, &why);
  ASSERT_TRUE(succeeded(listed)) << why;
  EXPECT_EQ(*listed, members);

  llvm::DenseSet<Attribute> memberSet(members.begin(), members.end());
  llvm::DenseSet<Attribute> drawn;
  for (int i = 0; i < 600; ++i) {
    ConfigAttr config = *space.sample(rng);
    ASSERT_TRUE(memberSet.contains(config));
    drawn.insert(config);
    EXPECT_TRUE(succeeded(space.check(config)));
    EXPECT_TRUE(space.fitsTiles(getTileVectors(config)));
    SmallVector<SmallVector<int64_t>> widths =
        space.getValidVectors(getTileVectors(config));
    ASSERT_EQ(widths.size(), config.getVector().size());
    for (auto [valid, width] : llvm::zip(widths, config.getVector()))
      EXPECT_TRUE(llvm::is_contained(valid, width));
    if (std::optional<ConfigAttr> moved = space.mutateTileSize(config, rng)) {
      EXPECT_TRUE(memberSet.contains(*moved));
      EXPECT_NE(getTileVectors(*moved), getTileVectors(config));
    }
    EXPECT_TRUE(memberSet.contains(space.mutateUnroll(config, rng)));
    if (std::optional<ConfigAttr> staged = space.mutateStages(config, rng))
      EXPECT_TRUE(memberSet.contains(*staged));
  }
  EXPECT_EQ(drawn.size(), members.size());
  EXPECT_EQ(space.mutateUnroll(first, rng), sibling);
  EXPECT_EQ(space.mutateUnroll(sibling, rng), first);

  // Anything else is outside the space, with the reason.
  ConfigAttr outsider;
  do
    outsider = *full->sample(rng);
  while (memberSet.contains(outsider));
  EXPECT_TRUE(succeeded(full->check(outsider)));
  EXPECT_TRUE(failed(space.check(outsider, &why)));
  EXPECT_EQ(why, "not among the configs the replayed dataset measured");
  EXPECT_TRUE(failed(space.check(misfit)));

  // A space restricted to nothing samples nothing.
  SearchSpace none = *full;
  EXPECT_EQ(none.restrictTo({}), 0u);
  EXPECT_TRUE(failed(none.sample(rng, &why)));
  EXPECT_EQ(why, "the replayed dataset measured no config of this sketch");
}

} // namespace
