//===- AnsorFeaturesTest.cpp - Tests of the "ansor" feature extractor -----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Features/AnsorFeatures.h"
#include "tessel/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

namespace {

constexpr StringLiteral kMatmul = R"mlir(
func.func @mm(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>,
              %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
)mlir";

constexpr StringLiteral kMatmulRelu = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mm(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>,
              %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<128x64xf32>) outs(%c : tensor<128x64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<128x64xf32>
  return %1 : tensor<128x64xf32>
}
)mlir";

constexpr StringLiteral kDynamic = R"mlir(
func.func @mm(%a: tensor<?x256xf32>, %b: tensor<256x64xf32>,
              %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x64xf32>)
                     outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}
)mlir";

class AnsorFeaturesTest : public ::testing::Test {
protected:
  AnsorFeaturesTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    if (!found)
      ADD_FAILURE() << llvm::toString(found.takeError());
    else
      device = *found;
    names = extractor.featureNames();
  }

  /// Parses a module and returns its linalg ops in order.
  SmallVector<linalg::LinalgOp> parseOps(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    SmallVector<linalg::LinalgOp> ops;
    if (module)
      module->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    return ops;
  }

  SketchAttr sketch(bool registers = true) {
    return SketchAttr::get(&context, SketchKind::MultiLevelTiling, "SSSRRSRS",
                           {0, 1}, registers, 0);
  }

  /// Blocks 4x4, vthreads 2x1, threads 8x16, register tile 2x1, K staged in
  /// steps of 8 (32 steps), R1 = 2, R2 = 4.
  ConfigAttr baseConfig(ArrayRef<int64_t> vector = {1, 1},
                        int64_t unroll = 64) {
    return ConfigAttr::get(&context,
                           {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}},
                           unroll, vector);
  }

  std::vector<float> extract(linalg::LinalgOp op, ConfigAttr config,
                             ArrayRef<linalg::LinalgOp> consumers = {},
                             SketchAttr s = {}) {
    FailureOr<std::vector<float>> features = extractor.extract(
        op, consumers, s ? s : sketch(), config, device);
    EXPECT_TRUE(succeeded(features));
    return succeeded(features) ? *features : std::vector<float>();
  }

  /// The value of the feature called `name`.
  float at(const std::vector<float> &features, StringRef name) {
    auto it = llvm::find(names, name.str());
    EXPECT_NE(it, names.end()) << "no feature " << name.str();
    if (it == names.end() || features.size() != names.size())
      return NAN;
    return features[it - names.begin()];
  }

  static float scaled(double x) { return std::log2(1 + x); }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  DeviceDescription device;
  AnsorFeatureExtractor extractor;
  std::vector<std::string> names;
};

TEST_F(AnsorFeaturesTest, WidthIsFixed) {
  EXPECT_EQ(kAnsorStatementFeatures, 176u);
  EXPECT_EQ(kAnsorFeatureWidth, 3u * 176u + 17u);
  EXPECT_EQ(extractor.width(), kAnsorFeatureWidth);
  EXPECT_EQ(names.size(), kAnsorFeatureWidth);
  EXPECT_EQ(llvm::DenseSet<StringRef>(names.begin(), names.end()).size(),
            names.size())
      << "feature names are not unique";
  linalg::LinalgOp op = parseOps(kMatmul).front();
  EXPECT_EQ(extract(op, baseConfig()).size(), kAnsorFeatureWidth);
}

TEST_F(AnsorFeaturesTest, HandComputedMatmul) {
  linalg::LinalgOp op = parseOps(kMatmul).front();
  std::vector<float> f = extract(op, baseConfig());
  // 128*64*256 iterations, one FMA each, no other arithmetic.
  EXPECT_FLOAT_EQ(at(f, "compute.float_fma"), scaled(128.0 * 64 * 256));
  EXPECT_FLOAT_EQ(at(f, "compute.float_add"), 0);
  EXPECT_FLOAT_EQ(at(f, "compute.float_mul"), 0);
  EXPECT_FLOAT_EQ(at(f, "kernel.flops"), scaled(2.0 * 128 * 64 * 256));
  // One-dimensional grid and block, as materialization launches them.
  EXPECT_FLOAT_EQ(at(f, "compute.blockIdx_x"), scaled(16));
  EXPECT_FLOAT_EQ(at(f, "compute.blockIdx_y"), scaled(1));
  EXPECT_FLOAT_EQ(at(f, "compute.threadIdx_x"), scaled(128));
  EXPECT_FLOAT_EQ(at(f, "compute.vthread"), scaled(2));
  // Shared tiles per step: A 32x8 and B 8x16 floats.
  EXPECT_FLOAT_EQ(at(f, "kernel.shared_bytes_per_block"),
                  scaled((32 * 8 + 8 * 16) * 4));
  // A thread owns 2 (vthread) x 2 (register) x 1 accumulators.
  EXPECT_FLOAT_EQ(at(f, "kernel.register_tile"), scaled(4));
  EXPECT_FLOAT_EQ(at(f, "compute.auto_unroll_max_step"), scaled(64));
  // Unrolled: the vthread loop (2), the register loop (2) and R1 (2 <= 64).
  EXPECT_FLOAT_EQ(at(f, "compute.unroll_num_loops"), scaled(3));
  EXPECT_FLOAT_EQ(at(f, "compute.unroll_product"), scaled(8));
  EXPECT_FLOAT_EQ(at(f, "compute.unroll_pos_mixed"), 1);
  // Vectorized: R2 (4), an inner reduction level.
  EXPECT_FLOAT_EQ(at(f, "compute.vec_innermost_len"), scaled(4));
  EXPECT_FLOAT_EQ(at(f, "compute.vec_pos_inner_reduce"), 1);
  // Parallel: block loops of m and n, thread loops of m and n.
  EXPECT_FLOAT_EQ(at(f, "compute.parallel_num_loops"), scaled(4));
  EXPECT_FLOAT_EQ(at(f, "compute.parallel_product"), scaled(16 * 128));

  // Buffers of the compute statement all have 2^21 accesses of 4 bytes;
  // by unique bytes: A in shared (1024 B), B in shared (512 B), C in
  // registers (4 floats).
  double bytes = 128.0 * 64 * 256 * 4;
  EXPECT_FLOAT_EQ(at(f, "compute.buffer0.bytes"), scaled(bytes));
  EXPECT_FLOAT_EQ(at(f, "compute.buffer0.unique_bytes"), scaled(1024));
  EXPECT_FLOAT_EQ(at(f, "compute.buffer0.scope_shared"), 1);
  EXPECT_FLOAT_EQ(at(f, "compute.buffer0.access_read"), 1);
  EXPECT_FLOAT_EQ(at(f, "compute.buffer1.unique_bytes"), scaled(512));
  EXPECT_FLOAT_EQ(at(f, "compute.buffer2.unique_bytes"), scaled(16));
  EXPECT_FLOAT_EQ(at(f, "compute.buffer2.scope_local"), 1);
  EXPECT_FLOAT_EQ(at(f, "compute.buffer2.access_read_write"), 1);
  EXPECT_FLOAT_EQ(at(f, "compute.buffer3.bytes"), 0);
  // The nest: S0 m(4) n(4), R0 k(32), S1 m(2), S2 m(8) n(16), R1 k(2),
  // S3 m(2), R2 k(4). A (m, k) is reused by the innermost loop that does not
  // index it, the thread loop of n (16), at a distance of the loops inside
  // it: R1, S3 and R2 (2 * 2 * 4 iterations).
  EXPECT_FLOAT_EQ(at(f, "compute.buffer0.reuse_loop_multiple_read"), 1);
  EXPECT_FLOAT_EQ(at(f, "compute.buffer0.reuse_count"), scaled(16));
  EXPECT_FLOAT_EQ(at(f, "compute.buffer0.reuse_dis_iter"), scaled(16));
  // The output is reused by R2, the innermost loop: stride of A there is 1.
  EXPECT_FLOAT_EQ(at(f, "compute.buffer2.reuse_count"), scaled(4));
  EXPECT_FLOAT_EQ(at(f, "compute.buffer0.stride"), scaled(1));

  // The copies of A and B: 16 blocks x 32 steps x 256 (128) elements.
  EXPECT_FLOAT_EQ(at(f, "copy.buffer0.bytes"),
                  scaled(16.0 * 32 * (256 + 128) * 4));
  EXPECT_FLOAT_EQ(at(f, "copy.threadIdx_x"), scaled(2 * 128));
  EXPECT_FLOAT_EQ(at(f, "kernel.num_copy_statements"), scaled(2));
  EXPECT_FLOAT_EQ(at(f, "consumer.float_fma"), 0);
}

TEST_F(AnsorFeaturesTest, BiggerRegisterTileRaisesReuseAndIntensity) {
  linalg::LinalgOp op = parseOps(kMatmul).front();
  // Same block tile (32x16), register tile 2x1 vs 4x4.
  ConfigAttr small = baseConfig();
  ConfigAttr big = ConfigAttr::get(
      &context, {{4, 2, 4, 4, 1}, {4, 1, 4, 4, 1}, {32, 2, 4}}, 64, {1, 1});
  std::vector<float> fs = extract(op, small), fb = extract(op, big);
  EXPECT_GT(at(fb, "kernel.register_tile"), at(fs, "kernel.register_tile"));
  // A is reused across the register loop of n (4) instead of the threads.
  EXPECT_FLOAT_EQ(at(fb, "compute.buffer0.reuse_count"), scaled(4));
  EXPECT_LT(at(fb, "compute.buffer0.reuse_dis_iter"),
            at(fs, "compute.buffer0.reuse_dis_iter"));
  // Per thread, more FMAs per byte: the inner samples of the intensity
  // curve rise.
  double sumSmall = 0, sumBig = 0;
  for (unsigned i = 0; i < kAnsorCurveSamples; ++i) {
    std::string name = "compute.ai_curve_" + std::to_string(i);
    // Same block tile: the outer samples agree; interpolation between
    // levels of different loop nests may dip slightly.
    EXPECT_GE(at(fb, name), 0.99 * at(fs, name)) << name;
    sumSmall += at(fs, name);
    sumBig += at(fb, name);
  }
  EXPECT_GT(sumBig, sumSmall);
  EXPECT_GT(at(fb, "compute.ai_curve_3"), at(fs, "compute.ai_curve_3"));
}

TEST_F(AnsorFeaturesTest, VectorWidthChangesVectorizeFeatures) {
  linalg::LinalgOp op = parseOps(kMatmul).front();
  std::vector<float> scalar = extract(op, baseConfig({1, 1}));
  std::vector<float> vector = extract(op, baseConfig({2, 1}));
  EXPECT_FLOAT_EQ(at(scalar, "copy.vec_num_loops"), 0);
  EXPECT_FLOAT_EQ(at(scalar, "copy.vec_pos_none"), 2);
  EXPECT_FLOAT_EQ(at(vector, "copy.vec_innermost_len"), scaled(2));
  EXPECT_FLOAT_EQ(at(vector, "copy.vec_num_loops"), scaled(1));
  EXPECT_FLOAT_EQ(at(vector, "kernel.vector_width"), scaled(2));
  EXPECT_NE(scalar, vector);
}

// A pipelined staging loop (not in Ansor) allocates one tile per stage:
// the shared-memory features count them, nothing else changes.
TEST_F(AnsorFeaturesTest, StagesMultiplySharedBytes) {
  linalg::LinalgOp op = parseOps(kMatmul).front();
  std::vector<float> synchronous = extract(op, baseConfig());
  std::vector<float> pipelined = extract(op, baseConfig().withStages(2));
  EXPECT_FLOAT_EQ(at(pipelined, "kernel.shared_bytes_per_block"),
                  scaled(2.0 * (32 * 8 + 8 * 16) * 4));
  EXPECT_FLOAT_EQ(at(pipelined, "kernel.shared_fraction_of_block_limit"),
                  2 * at(synchronous, "kernel.shared_fraction_of_block_limit"));
  for (const std::string &name : extractor.featureNames())
    if (name.rfind("kernel.shared_", 0) != 0) {
      EXPECT_FLOAT_EQ(at(pipelined, name), at(synchronous, name)) << name;
    }
}

TEST_F(AnsorFeaturesTest, ConfigsOfTheSameOpDiffer) {
  linalg::LinalgOp op = parseOps(kMatmul).front();
  std::vector<float> a = extract(op, baseConfig());
  std::vector<float> b = extract(op, baseConfig({1, 1}, /*unroll=*/0));
  std::vector<float> c = extract(
      op, ConfigAttr::get(&context,
                          {{8, 1, 16, 1, 1}, {2, 2, 8, 2, 1}, {16, 4, 4}}, 16,
                          {1, 1}));
  EXPECT_NE(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(b, c);
  // Without an unroll budget R1 is not unrolled.
  EXPECT_FLOAT_EQ(at(b, "compute.unroll_num_loops"), scaled(2));
}

TEST_F(AnsorFeaturesTest, FiniteAndDeterministic) {
  SmallVector<linalg::LinalgOp> ops = parseOps(kMatmulRelu);
  ASSERT_EQ(ops.size(), 2u);
  SketchAttr fused = SketchAttr::get(&context, SketchKind::MultiLevelTiling,
                                     "SSSRRSRS", {0, 1}, true, 1);
  for (ConfigAttr config :
       {baseConfig(), baseConfig({4, 4}, 1024),
        ConfigAttr::get(&context,
                        {{128, 1, 1, 1, 1}, {1, 1, 64, 1, 1}, {1, 1, 256}}, 0,
                        {1, 1})}) {
    std::vector<float> first = extract(ops[0], config, {ops[1]}, fused);
    ASSERT_EQ(first.size(), kAnsorFeatureWidth);
    for (auto [i, value] : llvm::enumerate(first))
      EXPECT_TRUE(std::isfinite(value)) << names[i];
    EXPECT_EQ(first, extract(ops[0], config, {ops[1]}, fused));
    // The fused ReLU: one max per output element.
    EXPECT_FLOAT_EQ(at(first, "consumer.float_minmax"), scaled(128 * 64));
    EXPECT_FLOAT_EQ(at(first, "kernel.num_fused_consumers"), scaled(1));
  }
}

TEST_F(AnsorFeaturesTest, OtherSketchKinds) {
  linalg::LinalgOp op = parseOps(kMatmul).front();
  auto cross = SketchAttr::get(&context, SketchKind::CrossThreadReduction,
                               "SRR", {}, false, 0);
  std::vector<float> f = extract(
      op, ConfigAttr::get(&context, {{128}, {64}, {8, 32}}, 0, {}), {},
      cross);
  EXPECT_FLOAT_EQ(at(f, "compute.threadIdx_x"), scaled(32));
  EXPECT_FLOAT_EQ(at(f, "compute.blockIdx_x"), scaled(128 * 64));
  EXPECT_FLOAT_EQ(at(f, "kernel.num_copy_statements"), 0);
  for (float value : f)
    EXPECT_TRUE(std::isfinite(value));
}

TEST_F(AnsorFeaturesTest, RejectsDynamicShapesAndBadConfigs) {
  linalg::LinalgOp dynamic = parseOps(kDynamic).front();
  EXPECT_TRUE(failed(extractor.extract(dynamic, {}, sketch(), baseConfig(),
                                       device)));
  linalg::LinalgOp op = parseOps(kMatmul).front();
  ConfigAttr wrong = ConfigAttr::get(
      &context, {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {16, 2, 4}}, 0, {1, 1});
  EXPECT_TRUE(failed(extractor.extract(op, {}, sketch(), wrong, device)));
}

TEST(FeatureExtractorFactoryTest, CreatesByName) {
  llvm::Expected<std::unique_ptr<FeatureExtractor>> ansor =
      createFeatureExtractor("ansor");
  ASSERT_TRUE(static_cast<bool>(ansor)) << llvm::toString(ansor.takeError());
  EXPECT_EQ((*ansor)->name(), "ansor");
  EXPECT_EQ((*ansor)->width(), kAnsorFeatureWidth);
  EXPECT_TRUE(llvm::is_contained(getFeatureExtractorNames(), "ansor"));

  llvm::Expected<std::unique_ptr<FeatureExtractor>> unknown =
      createFeatureExtractor("tiramisu");
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "unknown feature set 'tiramisu' (known: af, ansor, pruner)");
}

} // namespace
