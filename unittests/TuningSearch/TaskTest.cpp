//===- TaskTest.cpp - Extracting tuning tasks from small modules ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Tuning/Search/SketchRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

using TaskTest = SearchTest;

constexpr const char *kTwoMatmuls = R"mlir(
func.func @f(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>, %c: tensor<32x48xf32>) -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %1 = linalg.matmul ins(%c, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0, %1 : tensor<32x64xf32>, tensor<32x64xf32>
}
func.func @g(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %w = arith.constant dense<1.0> : tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<32x64xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %1 = linalg.matmul ins(%0, %w : tensor<32x64xf32>, tensor<64x64xf32>) outs(%init2 : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %1 : tensor<32x64xf32>
})mlir";

TEST_F(TaskTest, IdenticalMatmulsShareOneTask) {
  std::vector<TuningTask> tasks = extract(kTwoMatmuls);
  ASSERT_EQ(tasks.size(), 2u);
  // Three 32x48x64 matmuls, in two functions; one 32x64x64 with a constant
  // weight.
  EXPECT_EQ(tasks[0].weight, 3);
  EXPECT_EQ(tasks[0].opKind, "matmul");
  EXPECT_DOUBLE_EQ(tasks[0].flops, 2.0 * 32 * 48 * 64);
  EXPECT_EQ(tasks[0].describe(), "matmul 32x48 * 48x64 f32");
  EXPECT_EQ(tasks[1].weight, 1);
  EXPECT_EQ(tasks[1].describe(), "matmul 32x64 * 64x64 f32");
  EXPECT_NE(tasks[0].workloadKey, tasks[1].workloadKey);
  EXPECT_NE(tasks[0].workloadKey.find("fill(0.000000e+00 : f32)"),
            std::string::npos)
      << tasks[0].workloadKey;
}

TEST_F(TaskTest, TaskModuleRunsTheOpAlone) {
  std::vector<TuningTask> tasks = extract(kTwoMatmuls);
  ASSERT_EQ(tasks.size(), 2u);
  // The constant weight became an argument.
  TuningTask &task = tasks[1];
  auto func = cast<func::FuncOp>(task.module->lookupSymbol(kTaskFunctionName));
  ASSERT_TRUE(func);
  EXPECT_EQ(func.getNumArguments(), 2u);
  EXPECT_EQ(func.getNumResults(), 1u);
  linalg::LinalgOp target = task.getTargetOp();
  ASSERT_TRUE(target);
  EXPECT_TRUE(isa<linalg::MatmulOp>(target));
  EXPECT_TRUE(target.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>());
  // The model is untouched.
  EXPECT_TRUE(succeeded(verify(*module)));

  ASSERT_FALSE(task.sketches.empty());
  OwningOpRef<ModuleOp> scheduled =
      applySchedule(task, task.sketches.front(), ConfigAttr());
  EXPECT_TRUE(succeeded(verify(*scheduled)));
  int annotated = 0;
  scheduled->walk([&](linalg::LinalgOp op) {
    EXPECT_FALSE(op->hasAttr(kTaskTargetAttrName));
    annotated += op->hasAttr(TesselDialect::kSketchAttrName);
  });
  EXPECT_EQ(annotated, 1);
  // The task keeps its marker.
  EXPECT_TRUE(task.getTargetOp());
}

constexpr const char *kStrides = R"mlir(
func.func @f(%x: tensor<1x8x18x18xf32>, %w: tensor<16x8x3x3xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x16x8x8xf32>, tensor<1x16x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%x, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%init2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %0, %1, %2 : tensor<1x16x16x16xf32>, tensor<1x16x8x8xf32>, tensor<1x16x16x16xf32>
})mlir";

TEST_F(TaskTest, StridesAreInTheKey) {
  std::vector<TuningTask> tasks = extract(kStrides);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0].weight, 2);
  EXPECT_EQ(tasks[1].weight, 1);
  EXPECT_EQ(tasks[0].describe(), "conv_2d_nchw_fchw 1x8x18x18 * 16x8x3x3 s1 f32");
  EXPECT_EQ(tasks[1].describe(), "conv_2d_nchw_fchw 1x8x18x18 * 16x8x3x3 s2 f32");
  EXPECT_NE(tasks[0].workloadKey.find("strides=dense<1>"), std::string::npos);
  EXPECT_NE(tasks[1].workloadKey.find("strides=dense<2>"), std::string::npos);
  EXPECT_DOUBLE_EQ(tasks[0].flops, 2.0 * 16 * 16 * 16 * 8 * 3 * 3);
}

constexpr const char *kBiasRelu = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @f(%a: tensor<64x32xf32>, %b: tensor<32x128xf32>, %bias: tensor<128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x128xf32>) outs(%init : tensor<64x128xf32>) -> tensor<64x128xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
         ins(%0, %bias : tensor<64x128xf32>, tensor<128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%1 : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %2 : tensor<64x128xf32>
})mlir";

TEST_F(TaskTest, FusedBiasReluIsPartOfTheTask) {
  TaskExtractionOptions options;
  options.includeSimpleTasks = true;
  // Without Tessel's fusion, the chain of two consumers as the model has it.
  options.fuse = false;
  std::vector<TuningTask> tasks = extract(kBiasRelu, options);
  // The consumers belong to the matmul's task, even with simple tasks on.
  ASSERT_EQ(tasks.size(), 1u);
  TuningTask &task = tasks[0];
  EXPECT_EQ(task.fusedConsumers, 2);
  EXPECT_EQ(task.describe(), "matmul 64x32 * 32x128 f32 +2 fused");
  EXPECT_NE(task.workloadKey.find("| fused linalg.generic ins(chain:"),
            std::string::npos)
      << task.workloadKey;
  EXPECT_NE(task.workloadKey.find("arith.addf"), std::string::npos);
  EXPECT_NE(task.workloadKey.find("arith.maximumf(%a"), std::string::npos)
      << task.workloadKey;
  EXPECT_DOUBLE_EQ(task.flops, 2.0 * 64 * 32 * 128 + 2.0 * 64 * 128);
  for (SketchAttr sketch : task.sketches)
    EXPECT_EQ(sketch.getFusedConsumers(), 2);
  // Matmul, bias add and ReLU, their inputs as arguments, the ReLU's result
  // returned.
  auto func = cast<func::FuncOp>(task.module->lookupSymbol(kTaskFunctionName));
  EXPECT_EQ(func.getNumArguments(), 3u);
  int linalgOps = 0;
  func.walk([&](linalg::LinalgOp) { ++linalgOps; });
  EXPECT_EQ(linalgOps, 4); // fill, matmul, two generics

  // A different consumer body gives a different key.
  std::string relu6 = kBiasRelu;
  relu6.replace(relu6.find("arith.maximumf"), 14, "arith.minimumf");
  std::vector<TuningTask> other = extract(relu6, options);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_NE(other[0].workloadKey, task.workloadKey);
}

TEST_F(TaskTest, FusionMergesTheEpilogueIntoOneConsumer) {
  TaskExtractionOptions options;
  options.includeSimpleTasks = true;
  std::vector<TuningTask> fused = extract(kBiasRelu, options);
  ASSERT_EQ(fused.size(), 1u);
  // --tessel-fuse merged the bias add into the ReLU: one consumer whose body
  // adds, then takes the max.
  EXPECT_EQ(fused[0].fusedConsumers, 1);
  EXPECT_EQ(fused[0].describe(), "matmul 64x32 * 32x128 f32 +1 fused");
  EXPECT_NE(fused[0].workloadKey.find(
                "%r3=arith.addf(%a0, %a1){fastmath = #arith.fastmath<none>}:f32; "
                "%r4=arith.maximumf(%r3, 0.000000e+00 : f32)"),
            std::string::npos)
      << fused[0].workloadKey;
  EXPECT_DOUBLE_EQ(fused[0].flops, 2.0 * 64 * 32 * 128 + 2.0 * 64 * 128);
  // Fused and unfused records never mix.
  options.fuse = false;
  std::vector<TuningTask> unfused = extract(kBiasRelu, options);
  ASSERT_EQ(unfused.size(), 1u);
  EXPECT_NE(unfused[0].workloadKey, fused[0].workloadKey);
}

constexpr const char *kSoftmax = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @f(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %i1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%i1 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x256xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<64x256xf32>, tensor<64xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x256xf32>) outs(%i2 : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %div = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<64x256xf32>
  return %div : tensor<64x256xf32>
})mlir";

TEST_F(TaskTest, SoftmaxIsTwoTasksWithTheNormalizationAsRowEpilogue) {
  TaskExtractionOptions options;
  options.includeSimpleTasks = true;
  std::vector<TuningTask> tasks = extract(kSoftmax, options);
  ASSERT_EQ(tasks.size(), 2u);
  // The max, then the exp-sum (exp(x - max) recomputed in it) computing the
  // normalization of each row it reduced.
  EXPECT_EQ(tasks[0].fusedConsumers, 0);
  EXPECT_EQ(tasks[1].fusedConsumers, 1);
  EXPECT_EQ(tasks[1].describe(),
            "generic 64x256 * 64 -> 64 [pr] f32 +1 fused");
  EXPECT_NE(tasks[1].workloadKey.find("arith.divf"), std::string::npos)
      << tasks[1].workloadKey;
  // Both reduction sketches can fuse it.
  llvm::SmallVector<SketchKind> kinds;
  for (SketchAttr sketch : tasks[1].sketches) {
    kinds.push_back(sketch.getKind());
    EXPECT_EQ(sketch.getFusedConsumers(), 1);
  }
  EXPECT_TRUE(llvm::is_contained(kinds, SketchKind::CrossThreadReduction));
  EXPECT_TRUE(llvm::is_contained(kinds, SketchKind::MultiLevelTiling));
}

constexpr const char *kElementwise = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @f(%a: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<32x64xf32>) {
  %e = tensor.empty() : tensor<64x32xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  %e2 = tensor.empty() : tensor<32x64xf32>
  %1 = linalg.transpose ins(%a : tensor<64x32xf32>) outs(%e2 : tensor<32x64xf32>) permutation = [1, 0]
  return %0, %1 : tensor<64x32xf32>, tensor<32x64xf32>
})mlir";

TEST_F(TaskTest, SimpleTasksOnlyOnRequest) {
  EXPECT_TRUE(extract(kElementwise).empty());
  TaskExtractionOptions options;
  options.includeSimpleTasks = true;
  std::vector<TuningTask> tasks = extract(kElementwise, options);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0].describe(), "generic 64x32 -> 64x32 [pp] f32");
  EXPECT_DOUBLE_EQ(tasks[0].flops, 64.0 * 32);
  EXPECT_EQ(tasks[1].opKind, "transpose");
  ASSERT_EQ(tasks[0].sketches.size(), 1u);
  EXPECT_EQ(tasks[0].sketches[0].getKind(), SketchKind::TwoLevelInjective);
}

TEST_F(TaskTest, BuffersAreAnError) {
  OwningOpRef<ModuleOp> buffers = parse(R"mlir(
func.func @f(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
})mlir");
  ASSERT_TRUE(buffers);
  llvm::Expected<std::vector<TuningTask>> tasks =
      extractTasks(*buffers, &context);
  ASSERT_FALSE(tasks);
  EXPECT_NE(llvm::toString(tasks.takeError()).find("on tensors"),
            std::string::npos);
}

TEST_F(TaskTest, InitThatIsNotAFillBecomesAnArgument) {
  std::vector<TuningTask> tasks = extract(R"mlir(
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
})mlir");
  ASSERT_EQ(tasks.size(), 1u);
  auto func =
      cast<func::FuncOp>(tasks[0].module->lookupSymbol(kTaskFunctionName));
  EXPECT_EQ(func.getNumArguments(), 3u);
  EXPECT_NE(tasks[0].workloadKey.find("outs(arg:"), std::string::npos);
}

constexpr const char *kPaddedConvs = R"mlir(
func.func @f(%x: tensor<1x8x16x16xf32>, %y: tensor<1x8x16x16xf32>, %w: tensor<16x8x3x3xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x8x18x18xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x16x16x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %px = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%px, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %py = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%py, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %pone = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%pone, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %shared = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%shared, %w : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %0, %1, %2, %3, %shared : tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1x8x18x18xf32>
})mlir";

TEST_F(TaskTest, StrictInlinablePadsArePartOfTheTask) {
  std::vector<TuningTask> tasks = extract(kPaddedConvs);
  // Two convolutions of zero-padded inputs share a task; the pad with
  // another value is another task; a pad with a second use is not inlined.
  ASSERT_EQ(tasks.size(), 3u);
  EXPECT_EQ(tasks[0].weight, 2);
  EXPECT_EQ(tasks[1].weight, 1);
  EXPECT_EQ(tasks[2].weight, 1);
  EXPECT_EQ(tasks[0].describe(),
            "conv_2d_nchw_fchw 1x8x18x18 * 16x8x3x3 s1 f32 +pad inlined");
  EXPECT_EQ(tasks[2].describe(), "conv_2d_nchw_fchw 1x8x18x18 * 16x8x3x3 s1 f32");
  EXPECT_EQ(tasks[0].inlinedInputs, SmallVector<int64_t>({0}));
  EXPECT_TRUE(tasks[2].inlinedInputs.empty());
  EXPECT_NE(tasks[0].workloadKey.find(
                " | inlined 0 tensor.pad tensor<1x8x16x16xf32> -> "
                "tensor<1x8x18x18xf32> low[0, 0, 1, 1] high[0, 0, 1, 1] "
                "value(0.000000e+00 : f32)"),
            std::string::npos)
      << tasks[0].workloadKey;
  EXPECT_NE(tasks[1].workloadKey.find("value(1.000000e+00 : f32)"),
            std::string::npos)
      << tasks[1].workloadKey;
  EXPECT_EQ(tasks[2].workloadKey.find("inlined"), std::string::npos);
  // A pad computes nothing.
  EXPECT_DOUBLE_EQ(tasks[0].flops, 2.0 * 16 * 16 * 16 * 8 * 3 * 3);

  // The task module pads its unpadded source argument.
  TuningTask &task = tasks[0];
  auto func = cast<func::FuncOp>(task.module->lookupSymbol(kTaskFunctionName));
  ASSERT_EQ(func.getNumArguments(), 2u);
  EXPECT_EQ(func.getArgumentTypes()[0],
            RankedTensorType::get({1, 8, 16, 16}, Float32Type::get(&context)));
  linalg::LinalgOp target = task.getTargetOp();
  auto pad = target.getDpsInputOperand(0)->get().getDefiningOp<tensor::PadOp>();
  ASSERT_TRUE(pad);
  EXPECT_EQ(pad.getSource(), func.getArgument(0));
  EXPECT_TRUE(succeeded(verify(*task.module)));

  // Sketches that stage the input inline the pad; the others do not.
  ASSERT_FALSE(task.sketches.empty());
  bool anyInlined = false;
  for (SketchAttr sketch : task.sketches) {
    bool staged = llvm::is_contained(sketch.getShared(), 0);
    EXPECT_EQ(sketch.getInlined(),
              staged ? ArrayRef<int64_t>({0}) : ArrayRef<int64_t>())
        << str(sketch);
    anyInlined |= staged;
  }
  EXPECT_TRUE(anyInlined);
}

constexpr const char *kTwoLayersWithSplatBiases = R"mlir(
#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @f(%x: tensor<32x48xf32>, %w: tensor<48x48xf32>) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %b1 = arith.constant dense<0.5> : tensor<48xf32>
  %b2 = arith.constant dense<0.25> : tensor<48xf32>
  %e = tensor.empty() : tensor<32x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<32x48xf32>, tensor<48x48xf32>) outs(%init : tensor<32x48xf32>) -> tensor<32x48xf32>
  %1 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%0, %b1 : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  %2 = linalg.matmul ins(%1, %w : tensor<32x48xf32>, tensor<48x48xf32>) outs(%init : tensor<32x48xf32>) -> tensor<32x48xf32>
  %3 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%2, %b2 : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  return %3 : tensor<32x48xf32>
})mlir";

TEST_F(TaskTest, IgnoringFloatConstantsMergesLayersThatDifferInThem) {
  // The fusion folds each splat bias into its layer's body: by default the
  // two layers are two tasks, their keys holding the values.
  std::vector<TuningTask> structural = extract(kTwoLayersWithSplatBiases);
  ASSERT_EQ(structural.size(), 2u);
  EXPECT_EQ(countTasksIgnoringFloatConstants(structural), 1);
  EXPECT_EQ(getTaskEqualityHint(structural),
            "2 tasks are 1 when the values of float constants do not count "
            "(--task-equality=ignore-float-constants)");
  EXPECT_NE(structural[0].workloadKey.find("arith.addf(%a0, 5.000000e-01 : "
                                           "f32)"),
            std::string::npos)
      << structural[0].workloadKey;
  EXPECT_NE(structural[1].workloadKey.find("arith.addf(%a0, 2.500000e-01 : "
                                           "f32)"),
            std::string::npos)
      << structural[1].workloadKey;

  TaskExtractionOptions options;
  options.equality = TaskEquality::IgnoreFloatConstants;
  std::vector<TuningTask> tasks = extract(kTwoLayersWithSplatBiases, options);
  ASSERT_EQ(tasks.size(), 1u);
  TuningTask &task = tasks[0];
  EXPECT_EQ(task.weight, 2);
  EXPECT_EQ(task.flops, structural[0].flops);
  EXPECT_EQ(task.keyIgnoringFloatConstants, task.workloadKey);
  EXPECT_EQ(structural[1].keyIgnoringFloatConstants, task.workloadKey);
  EXPECT_EQ(getTaskEqualityHint(tasks), "");
  EXPECT_NE(task.workloadKey.find("outs(fill(cst:f32):tensor<32x48xf32>)"),
            std::string::npos)
      << task.workloadKey;
  EXPECT_NE(task.workloadKey.find("arith.addf(%a0, cst:f32)"),
            std::string::npos)
      << task.workloadKey;
  EXPECT_EQ(task.workloadKey.find("e-01"), std::string::npos)
      << task.workloadKey;
  // The module is the first layer's, with its bias.
  SmallVector<double> values;
  task.module->walk([&](arith::ConstantOp constant) {
    if (auto value = dyn_cast<FloatAttr>(constant.getValue()))
      values.push_back(value.getValueAsDouble());
  });
  EXPECT_TRUE(llvm::is_contained(values, 0.5));
  EXPECT_FALSE(llvm::is_contained(values, 0.25));

  // The model's ops give the same key as the task under the same equality.
  SmallVector<linalg::LinalgOp> matmuls;
  module->walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
  ASSERT_EQ(matmuls.size(), 2u);
  for (linalg::LinalgOp matmul : matmuls)
    EXPECT_EQ(getWorkloadKey(matmul, getTaskConsumers(matmul),
                             getTaskInlinedInputs(matmul),
                             TaskEquality::IgnoreFloatConstants),
              task.workloadKey);
}

TEST_F(TaskTest, KeysWithoutFloatConstantsAreTheSameUnderBothEqualities) {
  OwningOpRef<ModuleOp> model = parse(R"mlir(
func.func @f(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
})mlir");
  ASSERT_TRUE(model);
  linalg::LinalgOp matmul;
  model->walk([&](linalg::MatmulOp op) { matmul = op; });
  ASSERT_TRUE(matmul);
  EXPECT_EQ(getWorkloadKey(matmul, {}, {}, TaskEquality::IgnoreFloatConstants),
            getWorkloadKey(matmul, {}, {}));
  // Where ignoring float constants merges nothing, no hint.
  std::vector<TuningTask> tasks = extract(kTwoMatmuls);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(getTaskEqualityHint(tasks), "");
}

TEST_F(TaskTest, IgnoringFloatConstantsMergesPadsOfOtherValues) {
  TaskExtractionOptions options;
  options.equality = TaskEquality::IgnoreFloatConstants;
  std::vector<TuningTask> tasks = extract(kPaddedConvs, options);
  // The pads of 0 and 1 are one task; the pad with a second use still is
  // not inlined.
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0].weight, 3);
  EXPECT_NE(tasks[0].workloadKey.find("value(cst:f32)"), std::string::npos)
      << tasks[0].workloadKey;
  EXPECT_EQ(tasks[1].weight, 1);
}

TEST(TaskEqualityTest, NamesRoundTrip) {
  for (TaskEquality equality :
       {TaskEquality::Structural, TaskEquality::IgnoreFloatConstants})
    EXPECT_EQ(parseTaskEquality(stringifyTaskEquality(equality)), equality);
  EXPECT_EQ(stringifyTaskEquality(TaskEquality::IgnoreFloatConstants),
            "ignore-float-constants");
  EXPECT_EQ(parseTaskEquality("values"), std::nullopt);
}

constexpr const char *kTransposedWeight = R"mlir(
func.func @f(%a: tensor<32x48xf32>, %bt: tensor<64x48xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<48x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(k, n) -> (n, k)>, affine_map<(k, n) -> (k, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%bt : tensor<64x48xf32>) outs(%te : tensor<48x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<48x64xf32>
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
})mlir";

TEST_F(TaskTest, InlinedTransposeIsNoTaskOfItsOwn) {
  TaskExtractionOptions options;
  options.includeSimpleTasks = true;
  std::vector<TuningTask> tasks = extract(kTransposedWeight, options);
  ASSERT_EQ(tasks.size(), 1u);
  TuningTask &task = tasks[0];
  EXPECT_EQ(task.describe(), "matmul 32x48 * 48x64 f32 +generic inlined");
  EXPECT_EQ(task.inlinedInputs, SmallVector<int64_t>({1}));
  EXPECT_NE(task.workloadKey.find(" | inlined 1 linalg.generic ins(tensor<"
                                  "64x48xf32>) outs(empty:tensor<48x64xf32>)"),
            std::string::npos)
      << task.workloadKey;
  auto func = cast<func::FuncOp>(task.module->lookupSymbol(kTaskFunctionName));
  // The producer's input comes first: producers are built before the op.
  ASSERT_EQ(func.getNumArguments(), 2u);
  EXPECT_EQ(func.getArgumentTypes()[0],
            RankedTensorType::get({64, 48}, Float32Type::get(&context)));
  EXPECT_EQ(func.getArgumentTypes()[1],
            RankedTensorType::get({32, 48}, Float32Type::get(&context)));
  // The key is that of the model's op: apply-tuned finds the record.
  linalg::LinalgOp matmul;
  module->walk([&](linalg::MatmulOp op) { matmul = op; });
  ASSERT_TRUE(matmul);
  EXPECT_EQ(getWorkloadKey(matmul, getTaskConsumers(matmul),
                           getTaskInlinedInputs(matmul)),
            task.workloadKey);
}

} // namespace
