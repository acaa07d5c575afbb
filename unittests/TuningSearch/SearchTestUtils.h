//===- SearchTestUtils.h - Shared helpers of the search tests ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_UNITTESTS_TUNINGSEARCH_SEARCHTESTUTILS_H
#define TESSEL_UNITTESTS_TUNINGSEARCH_SEARCHTESTUTILS_H

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Search/Task.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

namespace mlir {
namespace tessel {

/// A context with every dialect Tessel registers.
class SearchTest : public ::testing::Test {
protected:
  SearchTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(llvm::StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  /// Extracts the tasks of `source`; fails the test on errors.
  std::vector<TuningTask> extract(llvm::StringRef source,
                                  const TaskExtractionOptions &options = {}) {
    module = parse(source);
    EXPECT_TRUE(module);
    if (!module)
      return {};
    llvm::Expected<std::vector<TuningTask>> tasks =
        extractTasks(*module, &context, options);
    if (!tasks) {
      ADD_FAILURE() << llvm::toString(tasks.takeError());
      return {};
    }
    return std::move(*tasks);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// The text of an attribute, for test messages.
inline std::string str(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << attr;
  return text;
}

/// A 1024^3 matmul with a zero-filled init.
constexpr const char *kMatmul1024 = R"mlir(
func.func @f(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
})mlir";

/// A ResNet-50 3x3 convolution (stage 1, padded input) followed by ReLU.
/// GPT-2's QKV projection with its bias: one task, the add fused.
constexpr const char *kGpt2QkvBias = R"mlir(
func.func @f(%a: tensor<256x768xf32>, %b: tensor<768x2304xf32>, %bias: tensor<2304xf32>) -> tensor<256x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x2304xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x2304xf32>) -> tensor<256x2304xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x768xf32>, tensor<768x2304xf32>) outs(%c : tensor<256x2304xf32>) -> tensor<256x2304xf32>
  %o = tensor.empty() : tensor<256x2304xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<256x2304xf32>, tensor<2304xf32>) outs(%o : tensor<256x2304xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256x2304xf32>
  return %r : tensor<256x2304xf32>
})mlir";

constexpr const char *kResNetConv3x3 = R"mlir(
func.func @f(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%init : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
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

} // namespace tessel
} // namespace mlir

#endif // TESSEL_UNITTESTS_TUNINGSEARCH_SEARCHTESTUTILS_H
