//===- PrunerFeaturesTest.cpp - Tests of the "pruner" feature extractor ---===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Features/PrunerFeatures.h"
#include "tessel/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseSet.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

namespace {

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

class PrunerFeaturesTest : public ::testing::Test {
protected:
  PrunerFeaturesTest() {
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
    module = parseSourceString<ModuleOp>(kMatmulRelu, &context);
    EXPECT_TRUE(module);
    if (module)
      module->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  }

  SketchAttr sketch(ArrayRef<int64_t> shared) {
    return SketchAttr::get(&context, SketchKind::MultiLevelTiling, "SSSRRSRS",
                           shared, true, 0);
  }
  ConfigAttr config(ArrayRef<int64_t> vector) {
    return ConfigAttr::get(&context,
                           {{4, 2, 8, 2, 1}, {4, 1, 16, 1, 1}, {32, 2, 4}},
                           64, vector);
  }

  std::vector<float> extract(SketchAttr s, ConfigAttr c, bool fused) {
    SmallVector<linalg::LinalgOp> consumers;
    if (fused)
      consumers.push_back(ops[1]);
    FailureOr<std::vector<float>> f =
        extractor.extract(ops[0], consumers, s, c, device);
    EXPECT_TRUE(succeeded(f));
    return succeeded(f) ? *f : std::vector<float>();
  }

  float at(const std::vector<float> &f, StringRef name) {
    auto it = llvm::find(names, name.str());
    EXPECT_NE(it, names.end()) << "no feature " << name.str();
    if (it == names.end() || f.size() != names.size())
      return NAN;
    return f[it - names.begin()];
  }

  static float scaled(double x) { return std::log2(1 + x); }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  SmallVector<linalg::LinalgOp> ops;
  DeviceDescription device;
  PrunerFeatureExtractor extractor;
  std::vector<std::string> names;
};

TEST_F(PrunerFeaturesTest, WidthAndNames) {
  EXPECT_EQ(kDataFlowWidth, 8u * 23u);
  EXPECT_EQ(extractor.width(), kAnsorFeatureWidth + 184u);
  ASSERT_EQ(names.size(), extractor.width());
  EXPECT_EQ(llvm::DenseSet<StringRef>(names.begin(), names.end()).size(),
            names.size());
  EXPECT_EQ(names[kAnsorFeatureWidth], "dataflow.global0.log_flops");
  EXPECT_EQ(names.back(), "dataflow.output.alloc_bytes");
}

TEST_F(PrunerFeaturesTest, PatternOfAStagedMatmul) {
  std::vector<float> f = extract(sketch({0, 1}), config({1, 1}), true);
  // The statement features are "ansor"'s.
  AnsorFeatureExtractor ansor;
  FailureOr<std::vector<float>> plain = ansor.extract(
      ops[0], {ops[1]}, sketch({0, 1}), config({1, 1}), device);
  ASSERT_TRUE(succeeded(plain));
  EXPECT_EQ(std::vector<float>(f.begin(), f.begin() + kAnsorFeatureWidth),
            *plain);

  // Copy of A: 16 blocks x 32 steps x 256 floats read from the global A
  // (128x256 floats allocated) into a shared 32x8 tile.
  EXPECT_FLOAT_EQ(at(f, "dataflow.global0.log_flops"), 0);
  EXPECT_FLOAT_EQ(at(f, "dataflow.global0.scope_global"), 1);
  EXPECT_FLOAT_EQ(at(f, "dataflow.global0.access_read"), 1);
  EXPECT_FLOAT_EQ(at(f, "dataflow.global0.bytes"), scaled(131072.0 * 4));
  EXPECT_FLOAT_EQ(at(f, "dataflow.global0.alloc_bytes"),
                  scaled(128.0 * 256 * 4));
  EXPECT_FLOAT_EQ(at(f, "dataflow.shared0.scope_shared"), 1);
  EXPECT_FLOAT_EQ(at(f, "dataflow.shared0.access_write"), 1);
  EXPECT_FLOAT_EQ(at(f, "dataflow.shared0.alloc_bytes"), scaled(32 * 8 * 4));
  // Copy of B: 8x16 tiles of the 256x64 B.
  EXPECT_FLOAT_EQ(at(f, "dataflow.global1.bytes"), scaled(65536.0 * 4));
  EXPECT_FLOAT_EQ(at(f, "dataflow.shared1.alloc_bytes"), scaled(8 * 16 * 4));
  // The compute statement (2*128*64*256 flops) reads A and B from shared
  // memory and accumulates a 4x1 register tile.
  EXPECT_FLOAT_EQ(at(f, "dataflow.read0.log_flops"), scaled(4194304));
  EXPECT_FLOAT_EQ(at(f, "dataflow.read0.scope_shared"), 1);
  EXPECT_FLOAT_EQ(at(f, "dataflow.read0.unique_bytes"), scaled(1024));
  EXPECT_FLOAT_EQ(at(f, "dataflow.read1.unique_bytes"), scaled(512));
  EXPECT_FLOAT_EQ(at(f, "dataflow.accumulator.scope_local"), 1);
  EXPECT_FLOAT_EQ(at(f, "dataflow.accumulator.access_read_write"), 1);
  EXPECT_FLOAT_EQ(at(f, "dataflow.accumulator.alloc_bytes"), scaled(16));
  // The ReLU's store of the 128x64 result.
  EXPECT_FLOAT_EQ(at(f, "dataflow.output.scope_global"), 1);
  EXPECT_FLOAT_EQ(at(f, "dataflow.output.access_write"), 1);
  EXPECT_FLOAT_EQ(at(f, "dataflow.output.alloc_bytes"),
                  scaled(128.0 * 64 * 4));
}

TEST_F(PrunerFeaturesTest, MissingSlotsAreZero) {
  // Only B is staged, and nothing is fused: the second operand's slots, the
  // second shared read and the last store stay zero.
  std::vector<float> f = extract(sketch({1}), config({1}), false);
  EXPECT_FLOAT_EQ(at(f, "dataflow.global0.alloc_bytes"),
                  scaled(256.0 * 64 * 4));
  EXPECT_FLOAT_EQ(at(f, "dataflow.read0.alloc_bytes"), scaled(8 * 16 * 4));
  for (StringRef slot : {"global1", "shared1", "read1", "output"})
    for (unsigned i = 0; i < kDataFlowBufferFeatures; ++i) {
      size_t index = kAnsorFeatureWidth +
                     (llvm::StringSwitch<unsigned>(slot)
                          .Case("global1", 2)
                          .Case("shared1", 3)
                          .Case("read1", 5)
                          .Default(7)) *
                         kDataFlowBufferFeatures +
                     i;
      EXPECT_EQ(f[index], 0) << names[index];
    }
}

TEST_F(PrunerFeaturesTest, KnownByName) {
  llvm::Expected<std::unique_ptr<FeatureExtractor>> created =
      createFeatureExtractor("pruner");
  ASSERT_TRUE(static_cast<bool>(created)) << llvm::toString(created.takeError());
  EXPECT_EQ((*created)->width(), kPrunerFeatureWidth);
}

} // namespace
