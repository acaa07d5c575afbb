//===- BridgeTest.cpp - Bridge operators from real task modules -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/Bridge.h"

#include "tessel/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <iostream>
#include <map>

using namespace mlir;
using namespace mlir::tessel;

namespace {

class BridgeTest : public ::testing::Test {
protected:
  BridgeTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// The tasks of `source`, in order; fails the test on errors.
  std::vector<TuningTask> extract(StringRef source) {
    modules.push_back(parseSourceString<ModuleOp>(source, &context));
    EXPECT_TRUE(modules.back());
    if (!modules.back())
      return {};
    llvm::Expected<std::vector<TuningTask>> tasks =
        extractTasks(*modules.back(), &context);
    if (!tasks) {
      ADD_FAILURE() << llvm::toString(tasks.takeError());
      return {};
    }
    return std::move(*tasks);
  }

  /// Whether the task's module verifies (without the target marker, which
  /// the Tessel dialect's verifier does not know).
  static bool verifies(const TuningTask &task) {
    OwningOpRef<ModuleOp> clone(cast<ModuleOp>(task.module.get()->clone()));
    clone->walk([](Operation *op) { op->removeAttr(kTaskTargetAttrName); });
    return succeeded(verify(*clone));
  }

  static std::vector<std::string> operandTypes(const TuningTask &task) {
    std::vector<std::string> types;
    for (Type type : task.getTargetOp()->getOperandTypes()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << type;
      types.push_back(text);
    }
    return types;
  }

  MLIRContext context;
  std::vector<OwningOpRef<ModuleOp>> modules;
};

/// The paper's example: a padded 3x3 convolution with a fused ReLU, loops
/// [1,64,14,14,64,3,3], and a strided 1x1 convolution, loops
/// [1,64,28,28,64,1,1].
constexpr const char *kTwoConvs = R"mlir(
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @f(%x: tensor<1x64x14x14xf32>, %w: tensor<64x64x3x3xf32>,
             %y: tensor<1x64x56x56xf32>, %v: tensor<64x64x1x1xf32>)
    -> (tensor<1x64x14x14xf32>, tensor<1x64x28x28xf32>) {
  %zero = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x64x14x14xf32> to tensor<1x64x16x16xf32>
  %e = tensor.empty() : tensor<1x64x14x14xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%pad, %w : tensor<1x64x16x16xf32>, tensor<64x64x3x3xf32>) outs(%init : tensor<1x64x14x14xf32>) -> tensor<1x64x14x14xf32>
  %e2 = tensor.empty() : tensor<1x64x14x14xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%conv : tensor<1x64x14x14xf32>) outs(%e2 : tensor<1x64x14x14xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x14x14xf32>
  %e3 = tensor.empty() : tensor<1x64x28x28xf32>
  %init3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  %down = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%y, %v : tensor<1x64x56x56xf32>, tensor<64x64x1x1xf32>) outs(%init3 : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  return %relu, %down : tensor<1x64x14x14xf32>, tensor<1x64x28x28xf32>
})mlir";

TEST_F(BridgeTest, PaperExampleConvolutions) {
  std::vector<TuningTask> tasks = extract(kTwoConvs);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(getLoopExtents(tasks[0]),
            (SmallVector<int64_t>{1, 64, 14, 14, 64, 3, 3}));
  EXPECT_EQ(getLoopExtents(tasks[1]),
            (SmallVector<int64_t>{1, 64, 28, 28, 64, 1, 1}));
  EXPECT_EQ(tasks[0].fusedConsumers, 1);
  EXPECT_EQ(tasks[0].inlinedInputs, (SmallVector<int64_t>{0}));
  EXPECT_EQ(compareExtents(getLoopExtents(tasks[0]), getLoopExtents(tasks[1])),
            ExtentOrder::Incomparable);

  llvm::Expected<TuningTask> bridge = buildBridge(tasks[0], tasks[1], &context);
  ASSERT_TRUE(static_cast<bool>(bridge)) << llvm::toString(bridge.takeError());
  EXPECT_EQ(getLoopExtents(*bridge),
            (SmallVector<int64_t>{1, 64, 14, 14, 64, 1, 1}));
  EXPECT_TRUE(verifies(*bridge));
  EXPECT_EQ(bridge->opKind, "conv_2d_nchw_fchw");
  EXPECT_EQ(operandTypes(*bridge),
            (std::vector<std::string>{"tensor<1x64x14x14xf32>",
                                      "tensor<64x64x1x1xf32>",
                                      "tensor<1x64x14x14xf32>"}));
  linalg::LinalgOp op = bridge->getTargetOp();
  EXPECT_EQ(op->getAttrOfType<DenseIntElementsAttr>("strides"),
            DenseIntElementsAttr::get(
                VectorType::get({2}, IntegerType::get(&context, 64)),
                ArrayRef<int64_t>{1, 1}));
  // No fused consumer, no inlined pad; a zero-filled init; weight 0.
  EXPECT_EQ(bridge->fusedConsumers, 0);
  EXPECT_TRUE(bridge->inlinedInputs.empty());
  EXPECT_EQ(bridge->weight, 0);
  EXPECT_TRUE(op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>());
  EXPECT_DOUBLE_EQ(bridge->flops, 2.0 * 64 * 14 * 14 * 64);
  EXPECT_EQ(bridge->describe(),
            "conv_2d_nchw_fchw 1x64x14x14 * 64x64x1x1 s1 f32");
  EXPECT_FALSE(bridge->sketches.empty());
  auto func =
      cast<func::FuncOp>(bridge->module.get().lookupSymbol(kTaskFunctionName));
  EXPECT_EQ(func.getNumArguments(), 2u);
  // Symmetric.
  llvm::Expected<TuningTask> reversed =
      buildBridge(tasks[1], tasks[0], &context);
  ASSERT_TRUE(static_cast<bool>(reversed));
  EXPECT_EQ(reversed->workloadKey, bridge->workloadKey);
}

TEST_F(BridgeTest, PlainTaskKeepsItsKey) {
  // A task without fusion, padding or strides rebuilt from its own extents
  // is the same task: bridges are made the Tessel way.
  std::vector<TuningTask> tasks = extract(kTwoConvs);
  ASSERT_EQ(tasks.size(), 2u);
  llvm::Expected<TuningTask> plain = buildTaskWithExtents(
      tasks[1].getTargetOp(), getLoopExtents(tasks[1]), &context);
  ASSERT_TRUE(static_cast<bool>(plain)) << llvm::toString(plain.takeError());
  // Unit strides: the input shrinks to 28x28.
  EXPECT_EQ(operandTypes(*plain)[0], "tensor<1x64x28x28xf32>");
  EXPECT_NE(plain->workloadKey, tasks[1].workloadKey);

  std::vector<TuningTask> same = extract(R"mlir(
func.func @f(%y: tensor<1x64x28x28xf32>, %v: tensor<64x64x1x1xf32>) -> tensor<1x64x28x28xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x28x28xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%y, %v : tensor<1x64x28x28xf32>, tensor<64x64x1x1xf32>) outs(%init : tensor<1x64x28x28xf32>) -> tensor<1x64x28x28xf32>
  return %0 : tensor<1x64x28x28xf32>
})mlir");
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(plain->workloadKey, same[0].workloadKey);
  EXPECT_EQ(plain->sketches, same[0].sketches);
}

/// BERT-Base's two attention batch matmuls: Q K^T (loops b, m, n, k =
/// [12,128,128,64]) and softmax(.) V ([12,128,64,128]).
constexpr const char *kAttention = R"mlir(
func.func @f(%q: tensor<12x128x64xf32>, %kt: tensor<12x64x128xf32>, %v: tensor<12x128x64xf32>)
    -> (tensor<12x128x128xf32>, tensor<12x128x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%init : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %e2 = tensor.empty() : tensor<12x128x64xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  %o = linalg.batch_matmul ins(%s, %v : tensor<12x128x128xf32>, tensor<12x128x64xf32>) outs(%init2 : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  return %s, %o : tensor<12x128x128xf32>, tensor<12x128x64xf32>
})mlir";

TEST_F(BridgeTest, BatchMatmul) {
  std::vector<TuningTask> tasks = extract(kAttention);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(getLoopExtents(tasks[0]), (SmallVector<int64_t>{12, 128, 128, 64}));
  EXPECT_EQ(getLoopExtents(tasks[1]), (SmallVector<int64_t>{12, 128, 64, 128}));
  llvm::Expected<TuningTask> bridge = buildBridge(tasks[0], tasks[1], &context);
  ASSERT_TRUE(static_cast<bool>(bridge)) << llvm::toString(bridge.takeError());
  EXPECT_TRUE(verifies(*bridge));
  EXPECT_EQ(bridge->opKind, "batch_matmul");
  EXPECT_EQ(getLoopExtents(*bridge), (SmallVector<int64_t>{12, 128, 64, 64}));
  EXPECT_EQ(
      operandTypes(*bridge),
      (std::vector<std::string>{"tensor<12x128x64xf32>", "tensor<12x64x64xf32>",
                                "tensor<12x128x64xf32>"}));
  EXPECT_DOUBLE_EQ(bridge->flops, 2.0 * 12 * 128 * 64 * 64);
  EXPECT_TRUE(haveSameSketchStructure(bridge->sketches, tasks[0].sketches));

  llvm::Expected<std::vector<BridgeTask>> bridges =
      findOneHopBridges(tasks, &context);
  ASSERT_TRUE(static_cast<bool>(bridges))
      << llvm::toString(bridges.takeError());
  ASSERT_EQ(bridges->size(), 1u);
  EXPECT_EQ((*bridges)[0].task.workloadKey, bridge->workloadKey);
  EXPECT_EQ((*bridges)[0].alpha, 0u);
  EXPECT_EQ((*bridges)[0].beta, 1u);
}

/// Matmuls with loops (m, n, k): A [64,32,16], B [32,64,16], C [16,16,64],
/// D [64,64,64] (larger than all), E [32,32,16] (the bridge of A and B).
std::string matmuls(bool withE) {
  std::string text = "func.func @f(";
  std::vector<std::array<int64_t, 3>> shapes = {
      {64, 32, 16}, {32, 64, 16}, {16, 16, 64}, {64, 64, 64}};
  if (withE)
    shapes.push_back({32, 32, 16});
  std::string body, results, resultTypes;
  for (auto [index, shape] : llvm::enumerate(shapes)) {
    auto [m, n, k] = shape;
    std::string i = std::to_string(index);
    std::string a =
        "tensor<" + std::to_string(m) + "x" + std::to_string(k) + "xf32>";
    std::string b =
        "tensor<" + std::to_string(k) + "x" + std::to_string(n) + "xf32>";
    std::string c =
        "tensor<" + std::to_string(m) + "x" + std::to_string(n) + "xf32>";
    text += std::string(index ? ", " : "") + "%a" + i + ": " + a + ", %b" + i +
            ": " + b;
    body += "  %e" + i + " = tensor.empty() : " + c + "\n";
    body += "  %i" + i + " = linalg.fill ins(%zero : f32) outs(%e" + i + " : " +
            c + ") -> " + c + "\n";
    body += "  %r" + i + " = linalg.matmul ins(%a" + i + ", %b" + i + " : " +
            a + ", " + b + ") outs(%i" + i + " : " + c + ") -> " + c + "\n";
    results += std::string(index ? ", " : "") + "%r" + i;
    resultTypes += std::string(index ? ", " : "") + c;
  }
  return text + ") -> (" + resultTypes +
         ") {\n  %zero = arith.constant 0.0 : f32\n" + body + "  return " +
         results + " : " + resultTypes + "\n}\n";
}

TEST_F(BridgeTest, OneHopBridgeSet) {
  std::vector<TuningTask> tasks = extract(matmuls(false));
  ASSERT_EQ(tasks.size(), 4u);
  llvm::Expected<std::vector<BridgeTask>> bridges =
      findOneHopBridges(tasks, &context);
  ASSERT_TRUE(static_cast<bool>(bridges))
      << llvm::toString(bridges.takeError());
  // A-B gives [32,32,16]; A-C and B-C both give [16,16,16] (kept once); D
  // is larger than every other task: a reuse partner already, no bridge.
  ASSERT_EQ(bridges->size(), 2u);
  EXPECT_EQ(getLoopExtents((*bridges)[0].task),
            (SmallVector<int64_t>{32, 32, 16}));
  EXPECT_EQ((*bridges)[0].alpha, 0u);
  EXPECT_EQ((*bridges)[0].beta, 1u);
  EXPECT_EQ(getLoopExtents((*bridges)[1].task),
            (SmallVector<int64_t>{16, 16, 16}));
  EXPECT_EQ((*bridges)[1].alpha, 0u);
  EXPECT_EQ((*bridges)[1].beta, 2u);
  for (const BridgeTask &bridge : *bridges) {
    EXPECT_TRUE(verifies(bridge.task));
    EXPECT_EQ(bridge.task.weight, 0);
  }

  // With E in the model, the A-B bridge is E itself.
  tasks = extract(matmuls(true));
  ASSERT_EQ(tasks.size(), 5u);
  bridges = findOneHopBridges(tasks, &context);
  ASSERT_TRUE(static_cast<bool>(bridges))
      << llvm::toString(bridges.takeError());
  ASSERT_EQ(bridges->size(), 1u);
  EXPECT_EQ(getLoopExtents((*bridges)[0].task),
            (SmallVector<int64_t>{16, 16, 16}));
}

TEST_F(BridgeTest, OtherNamedOps) {
  // Depthwise (NHWC) and channels-last convolutions, 1-D and 3-D ones,
  // grouped and pooling: each rebuilt with smaller extents verifies and has
  // them.
  std::vector<TuningTask> tasks = extract(R"mlir(
func.func @f(%x: tensor<1x30x30x32xf32>, %w: tensor<3x3x32xf32>, %f: tensor<3x3x32x16xf32>,
             %x1: tensor<2x8x66xf32>, %w1: tensor<16x8x3xf32>,
             %x3: tensor<1x4x10x10x10xf32>, %w3: tensor<8x4x3x3x3xf32>,
             %xg: tensor<1x2x8x18x18xf32>, %wg: tensor<2x16x8x3x3xf32>,
             %xp: tensor<1x32x16x16xf32>, %k: tensor<2x2xf32>)
    -> (tensor<1x28x28x32xf32>, tensor<1x28x28x16xf32>, tensor<2x16x64xf32>,
        tensor<1x8x8x8x8xf32>, tensor<1x2x16x16x16xf32>, tensor<1x32x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x28x28x32xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x30x30x32xf32>, tensor<3x3x32xf32>) outs(%i0 : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  %e1 = tensor.empty() : tensor<1x28x28x16xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x28x28x16xf32>) -> tensor<1x28x28x16xf32>
  %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %f : tensor<1x30x30x32xf32>, tensor<3x3x32x16xf32>) outs(%i1 : tensor<1x28x28x16xf32>) -> tensor<1x28x28x16xf32>
  %e2 = tensor.empty() : tensor<2x16x64xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %2 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
         ins(%x1, %w1 : tensor<2x8x66xf32>, tensor<16x8x3xf32>) outs(%i2 : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %e3 = tensor.empty() : tensor<1x8x8x8x8xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x8x8x8x8xf32>) -> tensor<1x8x8x8x8xf32>
  %3 = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
         ins(%x3, %w3 : tensor<1x4x10x10x10xf32>, tensor<8x4x3x3x3xf32>) outs(%i3 : tensor<1x8x8x8x8xf32>) -> tensor<1x8x8x8x8xf32>
  %e4 = tensor.empty() : tensor<1x2x16x16x16xf32>
  %i4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x2x16x16x16xf32>) -> tensor<1x2x16x16x16xf32>
  %4 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%xg, %wg : tensor<1x2x8x18x18xf32>, tensor<2x16x8x3x3xf32>) outs(%i4 : tensor<1x2x16x16x16xf32>) -> tensor<1x2x16x16x16xf32>
  %e5 = tensor.empty() : tensor<1x32x8x8xf32>
  %i5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %5 = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%xp, %k : tensor<1x32x16x16xf32>, tensor<2x2xf32>) outs(%i5 : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x28x28x32xf32>, tensor<1x28x28x16xf32>, tensor<2x16x64xf32>,
      tensor<1x8x8x8x8xf32>, tensor<1x2x16x16x16xf32>, tensor<1x32x8x8xf32>
})mlir");
  ASSERT_EQ(tasks.size(), 6u);
  for (const TuningTask &task : tasks) {
    SmallVector<int64_t> extents = getLoopExtents(task);
    for (int64_t &extent : extents)
      extent = (extent + 1) / 2;
    llvm::Expected<TuningTask> smaller =
        buildTaskWithExtents(task.getTargetOp(), extents, &context);
    ASSERT_TRUE(static_cast<bool>(smaller))
        << task.describe() << ": " << llvm::toString(smaller.takeError());
    EXPECT_TRUE(verifies(*smaller)) << task.describe();
    EXPECT_EQ(getLoopExtents(*smaller), extents) << task.describe();
    EXPECT_EQ(smaller->opKind, task.opKind);
  }
  // The depthwise convolution at half size: 14x14 output, 2x2 window.
  llvm::Expected<TuningTask> depthwise = buildTaskWithExtents(
      tasks[0].getTargetOp(), {1, 14, 14, 32, 2, 2}, &context);
  ASSERT_TRUE(static_cast<bool>(depthwise));
  EXPECT_EQ(
      operandTypes(*depthwise),
      (std::vector<std::string>{"tensor<1x15x15x32xf32>", "tensor<2x2x32xf32>",
                                "tensor<1x14x14x32xf32>"}));
}

TEST_F(BridgeTest, Errors) {
  std::vector<TuningTask> tasks = extract(R"mlir(
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @f(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %x: tensor<4x32x16xf32>, %y: tensor<4x16x32xf32>)
    -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<4x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %0 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
         ins(%a, %b : tensor<32x16xf32>, tensor<16x32xf32>) outs(%i : tensor<32x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  %e1 = tensor.empty() : tensor<32x32xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<32x16xf32>, tensor<16x32xf32>) outs(%i1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e2 = tensor.empty() : tensor<4x32x32xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %2 = linalg.batch_matmul ins(%x, %y : tensor<4x32x16xf32>, tensor<4x16x32xf32>) outs(%i2 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  return %0, %1, %2 : tensor<32x32xf32>, tensor<32x32xf32>, tensor<4x32x32xf32>
})mlir");
  ASSERT_EQ(tasks.size(), 3u);
  ASSERT_EQ(tasks[0].opKind, "generic");

  llvm::Error error = checkBridgeable(tasks[0].getTargetOp());
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_NE(llvm::toString(std::move(error))
                .find("cannot build bridges of 'linalg.generic'"),
            std::string::npos);
  llvm::Expected<TuningTask> generic =
      buildTaskWithExtents(tasks[0].getTargetOp(), {16, 16, 16}, &context);
  ASSERT_FALSE(static_cast<bool>(generic));
  EXPECT_NE(llvm::toString(generic.takeError()).find("linalg.generic"),
            std::string::npos);

  llvm::Expected<TuningTask> mixed = buildBridge(tasks[1], tasks[2], &context);
  ASSERT_FALSE(static_cast<bool>(mixed));
  EXPECT_NE(llvm::toString(mixed.takeError()).find("differ"),
            std::string::npos);

  llvm::Expected<TuningTask> wrongRank =
      buildTaskWithExtents(tasks[1].getTargetOp(), {16, 16}, &context);
  ASSERT_FALSE(static_cast<bool>(wrongRank));
  EXPECT_NE(llvm::toString(wrongRank.takeError()).find("3 loops, 2 extents"),
            std::string::npos);
  llvm::Expected<TuningTask> zero =
      buildTaskWithExtents(tasks[1].getTargetOp(), {16, 0, 16}, &context);
  ASSERT_FALSE(static_cast<bool>(zero));
  llvm::consumeError(zero.takeError());

  // The generic op is skipped, the others are of different kinds: no bridge.
  llvm::Expected<std::vector<BridgeTask>> bridges =
      findOneHopBridges(tasks, &context);
  ASSERT_TRUE(static_cast<bool>(bridges))
      << llvm::toString(bridges.takeError());
  EXPECT_TRUE(bridges->empty());
}

TEST(ExtentOrderTest, Compare) {
  EXPECT_EQ(compareExtents({1, 2, 3}, {1, 2, 3}), ExtentOrder::Equal);
  EXPECT_EQ(compareExtents({1, 2, 3}, {1, 4, 3}), ExtentOrder::Smaller);
  EXPECT_EQ(compareExtents({1, 4, 3}, {1, 2, 3}), ExtentOrder::Larger);
  EXPECT_EQ(compareExtents({1, 4, 1}, {1, 2, 3}), ExtentOrder::Incomparable);
  EXPECT_EQ(compareExtents({1, 4}, {1, 2, 3}), ExtentOrder::Mismatched);
}

} // namespace

namespace {

/// The tasks of every operator file of a benchmark suite's manifest.
std::vector<TuningTask> loadSuite(MLIRContext &context, StringRef suite) {
  std::string dir = std::string(TESSEL_SUITES_DIR) + "/" + suite.str();
  auto manifest = llvm::MemoryBuffer::getFile(dir + "/manifest.csv");
  EXPECT_TRUE(static_cast<bool>(manifest)) << dir;
  if (!manifest)
    return {};
  std::vector<TuningTask> tasks;
  SmallVector<StringRef> lines;
  (*manifest)->getBuffer().split(lines, '\n', -1, false);
  for (StringRef line : llvm::drop_begin(lines)) {
    SmallVector<StringRef> fields;
    line.split(fields, ',');
    if (fields.size() < 2)
      continue;
    std::string path = dir + "/" + fields[1].str();
    OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &context);
    EXPECT_TRUE(module) << path;
    if (!module)
      continue;
    llvm::Expected<std::vector<TuningTask>> found =
        extractTasks(*module, &context);
    if (!found) {
      ADD_FAILURE() << path << ": " << llvm::toString(found.takeError());
      continue;
    }
    for (TuningTask &task : *found)
      tasks.push_back(std::move(task));
  }
  return tasks;
}

class SuiteBridgeTest : public ::testing::TestWithParam<const char *> {};

/// Every 1-hop bridge of the ETO operator sets is the element-wise minimum
/// of an incomparable pair, verifies, and repeats no task nor other bridge.
TEST_P(SuiteBridgeTest, OneHopBridgesOfTheEtoSuites) {
  MLIRContext context;
  DialectRegistry registry;
  registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  std::vector<TuningTask> tasks = loadSuite(context, GetParam());
  ASSERT_GT(tasks.size(), 3u);
  llvm::Expected<std::vector<BridgeTask>> bridges =
      findOneHopBridges(tasks, &context);
  ASSERT_TRUE(static_cast<bool>(bridges))
      << llvm::toString(bridges.takeError());
  EXPECT_FALSE(bridges->empty());
  llvm::StringSet<> keys;
  for (const TuningTask &task : tasks)
    keys.insert(task.workloadKey);
  std::map<std::string, int> perKind;
  for (const BridgeTask &bridge : *bridges) {
    const TuningTask &alpha = tasks[bridge.alpha], &beta = tasks[bridge.beta];
    SmallVector<int64_t> a = getLoopExtents(alpha), b = getLoopExtents(beta);
    EXPECT_EQ(compareExtents(a, b), ExtentOrder::Incomparable);
    SmallVector<int64_t> minimum;
    for (auto [x, y] : llvm::zip_equal(a, b))
      minimum.push_back(std::min(x, y));
    EXPECT_EQ(getLoopExtents(bridge.task), minimum);
    EXPECT_EQ(bridge.task.opKind, alpha.opKind);
    EXPECT_TRUE(haveSameSketchStructure(bridge.task.sketches, alpha.sketches));
    EXPECT_TRUE(keys.insert(bridge.task.workloadKey).second)
        << bridge.task.describe();
    OwningOpRef<ModuleOp> clone(
        cast<ModuleOp>(bridge.task.module.get()->clone()));
    clone->walk([](Operation *op) { op->removeAttr(kTaskTargetAttrName); });
    EXPECT_TRUE(succeeded(verify(*clone))) << bridge.task.describe();
    ++perKind[bridge.task.opKind];
  }
  // Without the sketch condition: a superset.
  BridgeOptions anySketches;
  anySketches.requireSameSketches = false;
  llvm::Expected<std::vector<BridgeTask>> unfiltered =
      findOneHopBridges(tasks, &context, anySketches);
  ASSERT_TRUE(static_cast<bool>(unfiltered))
      << llvm::toString(unfiltered.takeError());
  EXPECT_GE(unfiltered->size(), bridges->size());
  std::string summary = " (" + std::to_string(unfiltered->size()) +
                        " without the sketch condition)";
  for (auto [kind, count] : perKind)
    summary += " " + kind + ":" + std::to_string(count);
  std::cout << GetParam() << ": " << tasks.size() << " tasks, "
            << bridges->size() << " bridges" << summary << "\n";
}

INSTANTIATE_TEST_SUITE_P(Eto, SuiteBridgeTest,
                         ::testing::Values("eto-bert-base", "eto-bertl",
                                           "eto-mobilenetv2", "eto-resnet50",
                                           "eto-resnet50l"));

} // namespace
