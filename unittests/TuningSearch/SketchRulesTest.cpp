//===- SketchRulesTest.cpp - Ansor's GPU sketch rules per op kind ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Dialect/Tessel/IR/TensorCore.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Tuning/Search/SketchRules.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

class SketchRulesTest : public SearchTest {
protected:
  /// The sketches of the first linalg op of @f that is not a fill.
  std::vector<SketchAttr> sketchesOf(StringRef source, bool crossThread) {
    module = parse(source);
    EXPECT_TRUE(module);
    linalg::LinalgOp found;
    module->walk([&](linalg::LinalgOp op) {
      if (!found && !isa<linalg::FillOp>(op))
        found = op;
    });
    EXPECT_TRUE(found);
    SketchOptions options;
    options.includeCrossThreadReduction = crossThread;
    return generateSketches(found, /*fusedConsumers=*/0, options);
  }

  static std::string str(ArrayRef<SketchAttr> sketches) {
    std::string text;
    llvm::raw_string_ostream os(text);
    for (SketchAttr sketch : sketches)
      os << sketch << "\n";
    return text;
  }
};

TEST_F(SketchRulesTest, Matmul) {
  std::vector<SketchAttr> sketches = sketchesOf(kMatmul1024, true);
  EXPECT_EQ(str(sketches),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", shared = [0, 1], "
            "register_accumulator>\n");
}

// f16 contractions also get tensor cores; f32 ones (TF32 only when
// allowed), fused ones and ops off the instruction shape do not.
TEST_F(SketchRulesTest, HalfMatmulAlsoTriesTensorCores) {
  constexpr const char *half = R"mlir(
func.func @f(%a: tensor<128x64xf16>, %b: tensor<64x32xf16>, %c: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x32xf16>) outs(%c : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %0 : tensor<128x32xf32>
})mlir";
  EXPECT_EQ(str(sketchesOf(half, true)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", shared = [0, 1], "
            "register_accumulator>\n"
            "#tessel.sketch<tensor_core, \"SSRRSSR\", shared = [0, 1]>\n");
  SketchOptions noTensorCores;
  noTensorCores.includeTensorCore = false;
  module = parse(half);
  linalg::LinalgOp op;
  module->walk([&](linalg::MatmulOp m) { op = m; });
  EXPECT_EQ(generateSketches(op, 0, noTensorCores).size(), 1u);
  // With a fused consumer, the epilogue would read other lanes' fragments.
  EXPECT_EQ(generateSketches(op, 1).size(), 1u);

  constexpr const char *offShape = R"mlir(
func.func @f(%a: tensor<100x64xf16>, %b: tensor<64x32xf16>, %c: tensor<100x32xf32>) -> tensor<100x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x32xf16>) outs(%c : tensor<100x32xf32>) -> tensor<100x32xf32>
  return %0 : tensor<100x32xf32>
})mlir";
  EXPECT_EQ(sketchesOf(offShape, true).size(), 1u);
}

// f32 contractions get a (TF32) tensor_core sketch only when the user
// allows TF32; its K must be a multiple of 8, not 16.
TEST_F(SketchRulesTest, SingleMatmulTriesTf32OnlyWhenAllowed) {
  constexpr const char *single = R"mlir(
func.func @f(%a: tensor<128x24xf32>, %b: tensor<24x32xf32>, %c: tensor<128x32xf32>) -> tensor<128x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x24xf32>, tensor<24x32xf32>) outs(%c : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %0 : tensor<128x32xf32>
})mlir";
  module = parse(single);
  linalg::LinalgOp op;
  module->walk([&](linalg::MatmulOp m) { op = m; });
  ASSERT_TRUE(op);
  std::vector<SketchAttr> strict = generateSketches(op, 0);
  ASSERT_EQ(strict.size(), 1u);
  EXPECT_EQ(strict[0].getKind(), SketchKind::MultiLevelTiling);
  SketchOptions tf32;
  tf32.includeTf32 = true;
  std::vector<SketchAttr> allowed = generateSketches(op, 0, tf32);
  ASSERT_EQ(allowed.size(), 2u);
  EXPECT_EQ(allowed[1].getKind(), SketchKind::TensorCore);
  EXPECT_EQ(getMmaLevelExtents(op), (SmallVector<int64_t>{16, 8, 8}));
  // Allowing TF32 does not bring back what the tensor-core switch removed.
  tf32.includeTensorCore = false;
  EXPECT_EQ(generateSketches(op, 0, tf32).size(), 1u);
}

// bf16 matmuls accumulating in f32 get the tensor_core sketch (16x8x16
// instructions); into bf16 they do not (the instruction accumulates in f32).
TEST_F(SketchRulesTest, Bf16MatmulTriesTensorCoresIntoF32Only) {
  constexpr const char *source = R"mlir(
func.func @f(%a: tensor<128x32xbf16>, %b: tensor<32x64xbf16>, %c: tensor<128x64xf32>, %d: tensor<128x64xbf16>) -> (tensor<128x64xf32>, tensor<128x64xbf16>) {
  %0 = linalg.matmul ins(%a, %b : tensor<128x32xbf16>, tensor<32x64xbf16>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<128x32xbf16>, tensor<32x64xbf16>) outs(%d : tensor<128x64xbf16>) -> tensor<128x64xbf16>
  return %0, %1 : tensor<128x64xf32>, tensor<128x64xbf16>
})mlir";
  module = parse(source);
  SmallVector<linalg::LinalgOp> ops;
  module->walk([&](linalg::MatmulOp m) { ops.push_back(m); });
  ASSERT_EQ(ops.size(), 2u);
  std::vector<SketchAttr> intoF32 = generateSketches(ops[0], 0);
  ASSERT_EQ(intoF32.size(), 2u);
  EXPECT_EQ(intoF32[1].getKind(), SketchKind::TensorCore);
  EXPECT_EQ(getMmaLevelExtents(ops[0]), (SmallVector<int64_t>{16, 8, 16}));
  std::vector<SketchAttr> intoBf16 = generateSketches(ops[1], 0);
  ASSERT_EQ(intoBf16.size(), 1u);
  EXPECT_EQ(intoBf16[0].getKind(), SketchKind::MultiLevelTiling);
  EXPECT_EQ(getTensorCoreBlocker(ops[1]),
            "tensor_core accumulates bf16 products in f32");
}

TEST_F(SketchRulesTest, SkinnyMatmulAlsoTriesWithoutStaging) {
  constexpr const char *fc = R"mlir(
func.func @f(%a: tensor<1x2048xf32>, %b: tensor<2048x1000xf32>, %c: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1x2048xf32>, tensor<2048x1000xf32>) outs(%c : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %0 : tensor<1x1000xf32>
})mlir";
  // B is read once per element: stage A only, or nothing. The reduction is
  // longer than the 1000 outputs: cross-thread reduction too.
  EXPECT_EQ(str(sketchesOf(fc, true)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", shared = [0, 1], "
            "register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", shared = [0], "
            "register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", register_accumulator>\n"
            "#tessel.sketch<cross_thread_reduction, \"SRR\">\n");
  EXPECT_EQ(sketchesOf(fc, false).size(), 3u);
}

TEST_F(SketchRulesTest, Conv) {
  EXPECT_EQ(str(sketchesOf(kResNetConv3x3, true)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", shared = [0, 1], "
            "register_accumulator>\n");
}

TEST_F(SketchRulesTest, Depthwise) {
  constexpr const char *depthwise = R"mlir(
func.func @f(%x: tensor<1x32x114x114xf32>, %w: tensor<32x3x3xf32>, %o: tensor<1x32x112x112xf32>) -> tensor<1x32x112x112xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x32x114x114xf32>, tensor<32x3x3xf32>) outs(%o : tensor<1x32x112x112xf32>) -> tensor<1x32x112x112xf32>
  return %0 : tensor<1x32x112x112xf32>
})mlir";
  // Each input element is read about 9 times: also try staging only the
  // filter, and nothing.
  EXPECT_EQ(str(sketchesOf(depthwise, true)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", shared = [0, 1], "
            "register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", shared = [1], "
            "register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", register_accumulator>\n");
}

TEST_F(SketchRulesTest, PoolingHasNoDataReuse) {
  constexpr const char *pool = R"mlir(
func.func @f(%x: tensor<1x64x114x114xf32>, %o: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %win = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
         ins(%x, %win : tensor<1x64x114x114xf32>, tensor<3x3xf32>) outs(%o : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
})mlir";
  // The window operand is never read: no reuse, a 9-long reduction,
  // accumulated in registers or in the output.
  EXPECT_EQ(str(sketchesOf(pool, true)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\">\n");
}

TEST_F(SketchRulesTest, Elementwise) {
  constexpr const char *relu = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<64x32xf32>, %o: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a : tensor<64x32xf32>) outs(%o : tensor<64x32xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %0 : tensor<64x32xf32>
})mlir";
  EXPECT_EQ(str(sketchesOf(relu, true)),
            "#tessel.sketch<two_level_injective, \"SS\">\n");
}

TEST_F(SketchRulesTest, RowReduction) {
  constexpr const char *sum = R"mlir(
func.func @f(%a: tensor<128x768xf32>, %o: tensor<128xf32>) -> tensor<128xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
         ins(%a : tensor<128x768xf32>) outs(%o : tensor<128xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %0 : tensor<128xf32>
})mlir";
  EXPECT_EQ(str(sketchesOf(sum, true)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\">\n"
            "#tessel.sketch<cross_thread_reduction, \"SRR\">\n");
  EXPECT_EQ(str(sketchesOf(sum, false)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\">\n");
}

TEST_F(SketchRulesTest, CrossThreadReductionIsOnByDefault) {
  constexpr const char *rowMax = R"mlir(
func.func @f(%a: tensor<1x12x128x128xf32>, %o: tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(b, h, i, k) -> (b, h, i, k)>, affine_map<(b, h, i, k) -> (b, h, i, 0)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
         ins(%a : tensor<1x12x128x128xf32>) outs(%o : tensor<1x12x128x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x12x128x1xf32>
  return %0 : tensor<1x12x128x1xf32>
})mlir";
  module = parse(rowMax);
  linalg::LinalgOp op;
  module->walk([&](linalg::LinalgOp found) { op = found; });
  ASSERT_TRUE(op);
  EXPECT_EQ(str(generateSketches(op, 0)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\">\n"
            "#tessel.sketch<cross_thread_reduction, \"SRR\">\n");
  // A kept unit dim cannot reach fused consumers (Schedule.h).
  EXPECT_EQ(str(generateSketches(op, 1)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", "
            "register_accumulator, fused_consumers = 1>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", "
            "fused_consumers = 1>\n");
}

TEST_F(SketchRulesTest, NoCrossThreadReductionWithoutASplittableReduction) {
  // Global average pooling reduces two loops: one split is not enough.
  constexpr const char *pool = R"mlir(
func.func @f(%a: tensor<1x64x7x7xf32>, %o: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
         ins(%a : tensor<1x64x7x7xf32>) outs(%o : tensor<1x64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x64xf32>
  return %0 : tensor<1x64xf32>
})mlir";
  EXPECT_EQ(str(sketchesOf(pool, true)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\">\n");
  // The accumulator is combined by subtraction: no neutral element.
  constexpr const char *diff = R"mlir(
func.func @f(%a: tensor<128x768xf32>, %o: tensor<128xf32>) -> tensor<128xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
         ins(%a : tensor<128x768xf32>) outs(%o : tensor<128xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.subf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %0 : tensor<128xf32>
})mlir";
  EXPECT_EQ(str(sketchesOf(diff, true)),
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\", register_accumulator>\n"
            "#tessel.sketch<multi_level_tiling, \"SSSRRSRS\">\n");
  linalg::LinalgOp op;
  module->walk([&](linalg::LinalgOp found) { op = found; });
  ASSERT_TRUE(op);
  EXPECT_NE(getCrossThreadReductionBlocker(op, 0).find("neutral element"),
            std::string::npos);
}

TEST_F(SketchRulesTest, FusedConsumersAndMaterializability) {
  module = parse(kResNetConv3x3);
  linalg::LinalgOp conv;
  module->walk([&](linalg::ConvolutionOpInterface op) {
    conv = cast<linalg::LinalgOp>(op.getOperation());
  });
  ASSERT_TRUE(conv);
  std::vector<SketchAttr> sketches = generateSketches(conv, 1);
  ASSERT_EQ(sketches.size(), 1u);
  EXPECT_EQ(sketches[0].getFusedConsumers(), 1);
  EXPECT_TRUE(isMaterializable(sketches[0]));
  // Cross-thread reductions materialize since the split over threads
  // (ReductionScript.cpp); the rule only offers them where it applies.
  auto ctr = SketchAttr::get(&context, SketchKind::CrossThreadReduction, "SRR",
                             {}, false, 0);
  EXPECT_TRUE(isMaterializable(ctr));
  EXPECT_GT(getInputReuse(conv, 0), 500.0);  // 64 filters x 9 taps
  EXPECT_GT(getInputReuse(conv, 1), 3000.0); // 56 x 56 outputs
}

} // namespace
