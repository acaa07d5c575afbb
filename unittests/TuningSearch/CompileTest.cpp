//===- CompileTest.cpp - Sampled configs through tessel-to-cuda -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Dialect/Tessel/Transforms/BarrierCounts.h"
#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Tuning/Search/SearchSpace.h"
#include "tessel/Tuning/Search/SketchRules.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

#include <set>

using namespace mlir;
using namespace mlir::tessel;

namespace {

class CompileTest : public SearchTest {
protected:
  /// The sketch kinds of the task of the last compileSamples call.
  std::set<SketchKind> sketchKinds;

  /// Configs compiled by the last compileSamples call.
  std::vector<ConfigAttr> compiled;
  /// PTX of the last compileSamples call (with `pipelineOptions`), per
  /// config: whether it has cp.async.
  std::vector<bool> hasAsyncCopies;
  /// The same: whether it has mma.sync.
  std::vector<bool> hasMmaSync;
  /// Per compiled config: the most shared memory ptxas gives one of its
  /// kernels (cubins only; -1 for PTX), and the search space's estimate.
  std::vector<int64_t> ptxasSharedBytes, estimatedSharedBytes;
  /// Per compiled config: the barrier counts (tessel-count-barriers) of its
  /// kernel with the most FLOPs, and their estimate from the schedule
  /// (estimateKernelBarriers; {-1, -1} where it gives none).
  std::vector<std::pair<int64_t, int64_t>> compiledBarriers,
      estimatedBarriers;
  /// Sampled configs of the last compileSamples call that tessel-to-cuda
  /// rejected as too large to compile (tessel-check-kernel-size), with the
  /// loop count of its message; such a config must have more than 1024.
  int rejectedAsTooLarge = 0;

  /// Compiles `count` sampled configs of every materializable sketch of the
  /// single task of `source` to PTX (`pipelineOptions` of tessel-to-cuda),
  /// from spaces with `maxStages`; only sketches of kind `only` when set.
  /// With `padded`, each sampled config of a sketch with promoted tiles
  /// pads their rows by their vector widths (`pad`), drawn again when the
  /// padded config leaves the space (its shared memory).
  void compileSamples(StringRef source, int count,
                      const TaskExtractionOptions &extraction = {},
                      int64_t maxStages = 1,
                      StringRef pipelineOptions = "chip=sm_90 format=isa",
                      std::optional<SketchKind> only = std::nullopt,
                      bool padded = false) {
    // The space of the device the chip is: shared memory per block (the
    // opt-in limit) differs.
    llvm::Expected<DeviceDescription> device = findDevice(
        pipelineOptions.contains("chip=sm_80") ? "a100" : "h100");
    ASSERT_TRUE(static_cast<bool>(device))
        << llvm::toString(device.takeError());
    std::vector<TuningTask> tasks = extract(source, extraction);
    ASSERT_EQ(tasks.size(), 1u);
    TuningTask &task = tasks.front();
    auto options = TesselToCudaOptions::createFromString(pipelineOptions);
    ASSERT_TRUE(options);
    RandomEngine rng(7);
    sketchKinds.clear();
    compiled.clear();
    hasAsyncCopies.clear();
    hasMmaSync.clear();
    ptxasSharedBytes.clear();
    estimatedSharedBytes.clear();
    compiledBarriers.clear();
    estimatedBarriers.clear();
    rejectedAsTooLarge = 0;
    for (SketchAttr sketch : task.sketches) {
      sketchKinds.insert(sketch.getKind());
      if (!isMaterializable(sketch) || (only && sketch.getKind() != *only))
        continue;
      FailureOr<SearchSpace> space =
          SearchSpace::get(task.getTargetOp(), sketch, *device, maxStages);
      ASSERT_TRUE(succeeded(space));
      for (int i = 0; i < count; ++i) {
        FailureOr<ConfigAttr> config = space->sample(rng);
        ASSERT_TRUE(succeeded(config));
        if (padded &&
            (sketch.getKind() == SketchKind::MultiLevelTiling ||
             sketch.getKind() == SketchKind::TensorCore) &&
            !config->getVector().empty()) {
          SmallVector<int64_t> pad;
          for (auto [operand, width] :
               llvm::zip(sketch.getShared(), config->getVector()))
            pad.push_back(
                llvm::is_contained(sketch.getInlined(), operand) ? 0 : width);
          ConfigAttr withPad = config->withPad(pad);
          if (failed(space->check(withPad))) {
            --i;
            continue;
          }
          config = withPad;
        }
        OwningOpRef<ModuleOp> scheduled = applySchedule(task, sketch, *config);
        std::string errors;
        ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
          errors += d.str() + "\n";
          return success();
        });
        PassManager pm(&context);
        ASSERT_TRUE(succeeded(buildTesselToCudaPipeline(pm, *options)));
        LogicalResult result = pm.run(*scheduled);
        // A schedule whose kernel unrolls into too many loops is an error
        // the tuner records; nothing else may fail.
        if (failed(result) &&
            StringRef(errors).contains("more than max-loops=1024: LLVM would "
                                       "take minutes to compile it")) {
          ++rejectedAsTooLarge;
          continue;
        }
        EXPECT_TRUE(succeeded(result)) << task.describe() << "\n"
                                       << str(sketch) << "\n"
                                       << str(*config) << "\n"
                                       << errors;
        int binaries = 0;
        bool async = false, mma = false;
        int64_t shared = -1;
        scheduled->walk([&](gpu::BinaryOp binary) {
          ++binaries;
          auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
          if (DictionaryAttr properties = object.getProperties())
            if (auto kernels =
                    properties.getAs<DictionaryAttr>("tessel.kernels"))
              for (NamedAttribute kernel : kernels)
                if (auto facts = dyn_cast<DictionaryAttr>(kernel.getValue()))
                  if (auto bytes =
                          facts.getAs<IntegerAttr>("shared_memory_bytes"))
                    shared = std::max(shared, bytes.getInt());
          async |= object.getObject().getValue().contains("cp.async");
          mma |= object.getObject().getValue().contains("mma.sync");
        });
        EXPECT_GE(binaries, 1);
        std::pair<int64_t, int64_t> barriers = {-1, -1};
        double mostFlops = -1;
        if (auto kernels = (*scheduled)->getAttrOfType<DictionaryAttr>(
                TesselDialect::kKernelFactsAttrName))
          for (NamedAttribute kernel : kernels)
            if (std::optional<KernelFacts> facts = KernelFacts::fromAttribute(
                    dyn_cast<DictionaryAttr>(kernel.getValue()));
                facts && facts->flops > mostFlops) {
              mostFlops = facts->flops;
              barriers = {facts->barriersPerThread,
                          facts->loadBarriersPerThread};
            }
        compiledBarriers.push_back(barriers);
        std::optional<KernelBarrierCounts> estimate =
            estimateKernelBarriers(task.getTargetOp(), sketch, *config,
                                   space->getLoopNest());
        estimatedBarriers.push_back(
            estimate ? std::make_pair(estimate->barriers, estimate->loadBarriers)
                     : std::make_pair(int64_t(-1), int64_t(-1)));
        compiled.push_back(*config);
        ptxasSharedBytes.push_back(shared);
        estimatedSharedBytes.push_back(space->getSharedMemoryBytes(*config));
        hasAsyncCopies.push_back(async);
        hasMmaSync.push_back(mma);
      }
    }
  }

  /// Compiles 6 sampled tensor_core configs of each of `sources`, from
  /// spaces with `maxStages`: PTX for sm_90 with mma.sync in every kernel
  /// (and cp.async in every pipelined one), and cubins for each chip of
  /// `cubinChips` where ptxas is there, whose shared memory is the space's
  /// estimate; `extraOptions` go to tessel-to-cuda. Every config's
  /// instruction K is `instructionK`. Returns how many compiled configs were
  /// pipelined (stages > 1).
  int compileTensorCoreSamples(ArrayRef<const char *> sources,
                                const TaskExtractionOptions &extraction,
                                StringRef extraOptions,
                                ArrayRef<StringRef> cubinChips,
                                int64_t instructionK = 16,
                                int64_t maxStages = 1) {
    std::vector<std::string> pipelines = {"chip=sm_90 format=isa" +
                                          extraOptions.str()};
#if TESSEL_HAVE_PTXAS
    for (StringRef chip : cubinChips)
      pipelines.push_back("chip=" + chip.str() + " format=bin" +
                          extraOptions.str());
#endif
    int pipelined = 0;
    for (const std::string &pipeline : pipelines) {
      for (const char *source : sources) {
        compileSamples(source, 6, extraction, maxStages, pipeline,
                       SketchKind::TensorCore);
        EXPECT_TRUE(sketchKinds.count(SketchKind::TensorCore));
        EXPECT_EQ(compiled.size(), 6u) << pipeline;
        for (auto [i, config] : llvm::enumerate(compiled)) {
          EXPECT_EQ(config.getLoopTiles(config.getNumLoops() - 1).back(),
                    instructionK)
              << str(config);
          pipelined += config.getStages() > 1;
          if (ptxasSharedBytes[i] >= 0)
            EXPECT_EQ(ptxasSharedBytes[i], estimatedSharedBytes[i])
                << str(config);
        }
        // Cubins hold no PTX text to look at.
        if (!StringRef(pipeline).contains("format=isa"))
          continue;
        for (auto [config, mma, async] :
             llvm::zip(compiled, hasMmaSync, hasAsyncCopies)) {
          EXPECT_TRUE(mma) << str(config);
          if (config.getStages() > 1)
            EXPECT_TRUE(async) << str(config);
        }
      }
    }
    return pipelined;
  }
};

TEST_F(CompileTest, SampledMatmulConfigsCompile) {
  compileSamples(kMatmul1024, 5);
}

// Analytic fidelity charges the barriers it expects the kernel to have: on
// sampled configs of a matmul and a batch matmul (synchronous and pipelined
// staging), the estimate from the schedule equals what
// --tessel-count-barriers counts in the compiled kernel; a convolution
// (whose windows are staged in more rounds) gets no estimate.
TEST_F(CompileTest, BarrierEstimateEqualsCompiledCount) {
  const char *batchMatmul = R"mlir(
func.func @f(%a: tensor<4x128x96xf32>, %b: tensor<4x96x160xf32>) -> tensor<4x128x160xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x160xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x160xf32>) -> tensor<4x128x160xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<4x128x96xf32>, tensor<4x96x160xf32>) outs(%init : tensor<4x128x160xf32>) -> tensor<4x128x160xf32>
  return %0 : tensor<4x128x160xf32>
})mlir";
  const char *conv = R"mlir(
func.func @f(%x: tensor<1x32x18x18xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<1x32x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x32x18x18xf32>, tensor<32x32x3x3xf32>) outs(%init : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  return %0 : tensor<1x32x16x16xf32>
})mlir";
  for (const char *source : {kMatmul1024, batchMatmul}) {
    compileSamples(source, 10, {}, /*maxStages=*/3, "chip=sm_90 format=isa",
                   SketchKind::MultiLevelTiling);
    int estimated = 0, pipelined = 0;
    for (auto [config, compiledCounts, estimate] :
         llvm::zip(compiled, compiledBarriers, estimatedBarriers)) {
      if (estimate.first < 0)
        continue;
      ++estimated;
      pipelined += config.getStages() > 1;
      EXPECT_EQ(estimate, compiledCounts) << source << "\n" << str(config);
    }
    EXPECT_GE(estimated, 8) << source;
    EXPECT_GE(pipelined, 2) << source;
  }
  compileSamples(conv, 2, {}, /*maxStages=*/1, "chip=sm_90 format=isa",
                 SketchKind::MultiLevelTiling);
  ASSERT_FALSE(compiled.empty());
  for (auto [config, estimate] : llvm::zip(compiled, estimatedBarriers))
    EXPECT_EQ(estimate.first, -1) << str(config);
}

TEST_F(CompileTest, SampledConvReluConfigsCompile) {
  compileSamples(kResNetConv3x3, 5);
  // Seed 7 used to draw a schedule that unrolls into 3,590 loops, which the
  // kernel-size check rejected; the space rejects such configs now
  // (SearchSpace::estimateUnrolledLoops), and every draw compiles.
  EXPECT_EQ(rejectedAsTooLarge, 0);
  EXPECT_EQ(compiled.size(), 5u);
}

/// kResNetConv3x3 with torch-mlir's explicit pad, which the sketches that
/// stage the input inline.
constexpr const char *kPaddedResNetConv3x3 = R"mlir(
func.func @f(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%p, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%init : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %e2 = tensor.empty() : tensor<1x64x56x56xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%0 : tensor<1x64x56x56xf32>) outs(%e2 : tensor<1x64x56x56xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x64x56x56xf32>
  return %1 : tensor<1x64x56x56xf32>
})mlir";

TEST_F(CompileTest, SampledPaddedConvConfigsCompile) {
  compileSamples(kPaddedResNetConv3x3, 5);
  EXPECT_GT(compiled.size(), static_cast<size_t>(rejectedAsTooLarge));
}

// Softmax's row max in BERT-base (a kept unit dim) and a layer-norm mean
// with its fused scaling: multi_level_tiling and cross_thread_reduction.
TEST_F(CompileTest, SampledRowReductionConfigsCompile) {
  compileSamples(R"mlir(
func.func @f(%a: tensor<1x12x128x128xf32>) -> tensor<1x12x128x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x12x128x1xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(b, h, i, k) -> (b, h, i, k)>, affine_map<(b, h, i, k) -> (b, h, i, 0)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
         ins(%a : tensor<1x12x128x128xf32>) outs(%init : tensor<1x12x128x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x12x128x1xf32>
  return %0 : tensor<1x12x128x1xf32>
})mlir",
                 5);
  EXPECT_TRUE(sketchKinds.count(SketchKind::CrossThreadReduction));
  compileSamples(R"mlir(
func.func @f(%a: tensor<128x768xf32>) -> tensor<128xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.00130208337 : f32
  %e = tensor.empty() : tensor<128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
         ins(%a : tensor<128x768xf32>) outs(%init : tensor<128xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  %e2 = tensor.empty() : tensor<128xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
         ins(%0 : tensor<128xf32>) outs(%e2 : tensor<128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %scale : f32
    linalg.yield %m : f32
  } -> tensor<128xf32>
  return %1 : tensor<128xf32>
})mlir",
                 5);
  EXPECT_TRUE(sketchKinds.count(SketchKind::CrossThreadReduction));
}

// Awkward extents (docs/SearchSpace.md): an elementwise op over a prime
// extent samples boundary blocks; a matmul with a prime M is padded by
// fusion (its task is the padded op with the pad inlined).
TEST_F(CompileTest, SampledAwkwardExtentConfigsCompile) {
  TaskExtractionOptions simple;
  simple.includeSimpleTasks = true;
  compileSamples(R"mlir(
func.func @f(%x: tensor<4x8191xf32>, %init: tensor<4x8191xf32>) -> tensor<4x8191xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8191xf32>) outs(%init : tensor<4x8191xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<4x8191xf32>
  return %0 : tensor<4x8191xf32>
})mlir",
                 8, simple);
  EXPECT_TRUE(sketchKinds.count(SketchKind::TwoLevelInjective));
  compileSamples(R"mlir(
func.func @f(%a: tensor<1031x64xf32>, %b: tensor<64x256xf32>) -> tensor<1031x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1031x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1031x256xf32>) -> tensor<1031x256xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1031x64xf32>, tensor<64x256xf32>) outs(%init : tensor<1031x256xf32>) -> tensor<1031x256xf32>
  return %0 : tensor<1031x256xf32>
})mlir",
                 5);
  EXPECT_TRUE(sketchKinds.count(SketchKind::MultiLevelTiling));
}

#if TESSEL_HAVE_PTXAS
// Sampled configs of fused tasks (a matmul with its bias, a conv with its
// ReLU) compile to cubins, and ptxas gives each kernel at most the shared
// memory the search space estimated (staged tiles, the fused accumulator,
// 16-byte alignment), so a config the space admits is never refused for
// its shared memory.
TEST_F(CompileTest, SampledFusedConfigsFitTheirSharedMemory) {
  for (const char *source : {kGpt2QkvBias, kResNetConv3x3}) {
    compileSamples(source, 6, {}, /*maxStages=*/1, "chip=sm_90 format=bin",
                   SketchKind::MultiLevelTiling);
    EXPECT_EQ(rejectedAsTooLarge, 0);
    ASSERT_GE(compiled.size(), 6u);
    for (auto [config, ptxas, estimate] :
         llvm::zip(compiled, ptxasSharedBytes, estimatedSharedBytes)) {
      EXPECT_GE(ptxas, 0) << str(config);
      EXPECT_LE(ptxas, estimate) << str(config);
    }
  }
}
#endif

// Software-pipelined staging loops (`stages` up to 4) of a matmul: every
// sampled config compiles for sm_90 (PTX) and sm_80 (cubins with ptxas
// where the toolkit has it), and exactly the pipelined ones load with
// cp.async. (Pipelined convolutions and inlined producers are covered by
// the CPU-equivalence tests; a sampled padded conv with unroll 1024, not
// pipelined, keeps LLVM's IndVarSimplify busy for over ten minutes, a
// known issue of the unroll knob.)
TEST_F(CompileTest, SampledPipelinedConfigsCompile) {
  // PTX for sm_90 (looked at), cubins for sm_80 where ptxas is there.
  std::vector<std::string> pipelines = {"chip=sm_90 format=isa"};
#if TESSEL_HAVE_PTXAS
  pipelines.push_back("chip=sm_80 format=bin");
#else
  pipelines.push_back("chip=sm_80 format=isa");
#endif
  for (const std::string &pipeline : pipelines) {
    int pipelined = 0;
    compileSamples(kMatmul1024, 8, {}, /*maxStages=*/4, pipeline);
    for (auto [config, async] : llvm::zip(compiled, hasAsyncCopies)) {
      pipelined += config.getStages() > 1;
      // Cubins hold no PTX text to look at.
      if (StringRef(pipeline).ends_with("isa")) {
        EXPECT_EQ(async, config.getStages() > 1)
            << pipeline << ": " << str(config);
      }
    }
    EXPECT_GE(pipelined, 4) << pipeline;
  }
}

/// An f16 matmul into f32 with the fill of the init in the kernel.
constexpr const char *kF16Matmul = R"mlir(
func.func @f(%a: tensor<512x256xf16>, %b: tensor<256x384xf16>) -> tensor<512x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<512x384xf32>) -> tensor<512x384xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<512x256xf16>, tensor<256x384xf16>) outs(%c : tensor<512x384xf32>) -> tensor<512x384xf32>
  return %0 : tensor<512x384xf32>
})mlir";

#if TESSEL_HAVE_PTXAS
// Padded shared tiles (`pad`, each promoted tile's rows one vector longer)
// of sampled configs of a matmul (pipelined up to 4 stages) and of fused
// tasks compile to cubins, and ptxas gives each kernel the shared memory
// the search space estimates for the padded tiles (at most that where a
// fused accumulator stays in registers).
TEST_F(CompileTest, SampledPaddedConfigsCompile) {
  compileSamples(kMatmul1024, 8, {}, /*maxStages=*/4, "chip=sm_90 format=bin",
                 SketchKind::MultiLevelTiling, /*padded=*/true);
  ASSERT_EQ(compiled.size(), 8u);
  int padded = 0;
  for (auto [config, ptxas, estimate] :
       llvm::zip(compiled, ptxasSharedBytes, estimatedSharedBytes)) {
    padded += !config.getPad().empty();
    EXPECT_EQ(ptxas, estimate) << str(config);
  }
  EXPECT_GE(padded, 6);
  // Tensor cores: ldmatrix reads the padded rows (pipelined up to 3).
  compileSamples(kF16Matmul, 6, {}, /*maxStages=*/3, "chip=sm_90 format=bin",
                 SketchKind::TensorCore, /*padded=*/true);
  ASSERT_EQ(compiled.size(), 6u);
  for (auto [config, ptxas, estimate] :
       llvm::zip(compiled, ptxasSharedBytes, estimatedSharedBytes)) {
    EXPECT_FALSE(config.getPad().empty()) << str(config);
    EXPECT_EQ(ptxas, estimate) << str(config);
  }
  for (const char *source : {kGpt2QkvBias, kResNetConv3x3}) {
    compileSamples(source, 4, {}, /*maxStages=*/1, "chip=sm_90 format=bin",
                   SketchKind::MultiLevelTiling, /*padded=*/true);
    ASSERT_GE(compiled.size(), 4u);
    for (auto [config, ptxas, estimate] :
         llvm::zip(compiled, ptxasSharedBytes, estimatedSharedBytes)) {
      EXPECT_GE(ptxas, 0) << str(config);
      EXPECT_LE(ptxas, estimate) << str(config);
    }
  }
}
#endif

// Every sampled tensor_core config of f16 matmuls (the fill of the init in
// the kernel) and batch matmuls compiles: PTX for sm_90 with mma.sync and
// ldmatrix in every kernel, cubins for sm_80 where ptxas is there.
TEST_F(CompileTest, SampledTensorCoreConfigsCompile) {
  const char *batchMatmul = R"mlir(
func.func @f(%a: tensor<6x128x64xf16>, %b: tensor<6x64x96xf16>, %c: tensor<6x128x96xf16>) -> tensor<6x128x96xf16> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<6x128x64xf16>, tensor<6x64x96xf16>) outs(%c : tensor<6x128x96xf16>) -> tensor<6x128x96xf16>
  return %0 : tensor<6x128x96xf16>
})mlir";
  compileTensorCoreSamples({kF16Matmul, batchMatmul}, {}, "", {"sm_80"});
}

// Pipelined tensor-core staging (issue 43 item 1): sampled configs of a
// space with the `stages` knob compile (PTX for sm_90, cubins for sm_80 and
// sm_90), the pipelined ones with cp.async, with ptxas's shared memory
// equal to the space's estimate (the stages' slots included).
TEST_F(CompileTest, SampledPipelinedTensorCoreConfigsCompile) {
  EXPECT_GT(compileTensorCoreSamples({kF16Matmul}, {}, "", {"sm_80", "sm_90"},
                                     /*instructionK=*/16, /*maxStages=*/4),
            0);
}

// With TF32 allowed, every sampled tensor_core config of f32 matmuls (one
// reading B transposed) and batch matmuls compiles with allow-tf32: PTX for
// sm_90 with mma.sync m16n8k8 tf32 in every kernel, cubins for sm_80.
TEST_F(CompileTest, SampledTf32ConfigsCompile) {
  const char *matmul = R"mlir(
func.func @f(%a: tensor<256x136xf32>, %b: tensor<384x136xf32>) -> tensor<256x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x384xf32>) -> tensor<256x384xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<256x136xf32>, tensor<384x136xf32>) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
})mlir";
  const char *batchMatmul = R"mlir(
func.func @f(%a: tensor<3x128x40xf32>, %b: tensor<3x40x96xf32>, %c: tensor<3x128x96xf32>) -> tensor<3x128x96xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<3x128x40xf32>, tensor<3x40x96xf32>) outs(%c : tensor<3x128x96xf32>) -> tensor<3x128x96xf32>
  return %0 : tensor<3x128x96xf32>
})mlir";
  TaskExtractionOptions tf32;
  tf32.includeTf32 = true;
  compileTensorCoreSamples({matmul, batchMatmul}, tf32, " allow-tf32=1",
                           {"sm_80"}, /*instructionK=*/8);
}

// Every sampled tensor_core config of bf16 matmuls (the fill of the init in
// the kernel; one reading B transposed) and batch matmuls compiles: PTX for
// sm_90 with mma.sync in every kernel, cubins for sm_80 and sm_90 where
// ptxas is there.
TEST_F(CompileTest, SampledBf16ConfigsCompile) {
  const char *matmul = R"mlir(
func.func @f(%a: tensor<256x192xbf16>, %b: tensor<384x192xbf16>) -> tensor<256x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x384xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x384xf32>) -> tensor<256x384xf32>
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<256x192xbf16>, tensor<384x192xbf16>) outs(%c : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %0 : tensor<256x384xf32>
})mlir";
  const char *batchMatmul = R"mlir(
func.func @f(%a: tensor<4x128x64xbf16>, %b: tensor<4x64x96xbf16>, %c: tensor<4x128x96xf32>) -> tensor<4x128x96xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<4x128x64xbf16>, tensor<4x64x96xbf16>) outs(%c : tensor<4x128x96xf32>) -> tensor<4x128x96xf32>
  return %0 : tensor<4x128x96xf32>
})mlir";
  compileTensorCoreSamples({matmul, batchMatmul}, {}, "", {"sm_80", "sm_90"});
}

// A batch-1 fully connected layer: matvec, also as a cross-thread
// reduction.
TEST_F(CompileTest, SampledMatvecConfigsCompile) {
  compileSamples(R"mlir(
func.func @f(%a: tensor<1x4096xf32>, %b: tensor<4096x1024xf32>, %c: tensor<1x1024xf32>) -> tensor<1x1024xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1x4096xf32>, tensor<4096x1024xf32>) outs(%c : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  return %0 : tensor<1x1024xf32>
})mlir",
                 3);
  EXPECT_TRUE(sketchKinds.count(SketchKind::CrossThreadReduction));
}

} // namespace
