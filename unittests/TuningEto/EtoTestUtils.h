//===- EtoTestUtils.h - Tasks from MLIR text for the ETO tests --*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_UNITTESTS_TUNINGETO_ETOTESTUTILS_H
#define TESSEL_UNITTESTS_TUNINGETO_ETOTESTUTILS_H

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Search/SearchSpace.h"
#include "tessel/Tuning/Search/Task.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// A stride-1 conv_2d_nchw_fchw of input [n, c, h, w] and kernel [f, c, kh,
/// kw] with a zero-filled init.
inline std::string getConvSource(int64_t n, int64_t c, int64_t h, int64_t w,
                                 int64_t f, int64_t kh, int64_t kw) {
  int64_t oh = h - kh + 1, ow = w - kw + 1;
  return llvm::formatv(
      R"mlir(
func.func @f(%x: tensor<{0}x{1}x{2}x{3}xf32>, %w: tensor<{4}x{1}x{5}x{6}xf32>)
    -> tensor<{0}x{4}x{7}x{8}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{0}x{4}x{7}x{8}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<{0}x{4}x{7}x{8}xf32>) -> tensor<{0}x{4}x{7}x{8}xf32>
  %conv = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
         ins(%x, %w : tensor<{0}x{1}x{2}x{3}xf32>, tensor<{4}x{1}x{5}x{6}xf32>) outs(%init : tensor<{0}x{4}x{7}x{8}xf32>) -> tensor<{0}x{4}x{7}x{8}xf32>
  return %conv : tensor<{0}x{4}x{7}x{8}xf32>
})mlir",
      n, c, h, w, f, kh, kw, oh, ow);
}

/// A matmul [m, k] x [k, n] with inputs of `inputType` into a zero-filled
/// f32 init (f16 inputs get a tensor_core sketch).
inline std::string getMatmulSource(int64_t m, int64_t n, int64_t k,
                                   llvm::StringRef inputType = "f32") {
  return llvm::formatv(
      R"mlir(
func.func @f(%a: tensor<{0}x{2}x{3}>, %b: tensor<{2}x{1}x{3}>) -> tensor<{0}x{1}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{0}x{1}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<{0}x{1}xf32>) -> tensor<{0}x{1}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{0}x{2}x{3}>, tensor<{2}x{1}x{3}>) outs(%init : tensor<{0}x{1}xf32>) -> tensor<{0}x{1}xf32>
  return %r : tensor<{0}x{1}xf32>
})mlir",
      m, n, k, inputType);
}

/// An elementwise ReLU on a [m, n] tensor.
inline std::string getReluSource(int64_t m, int64_t n) {
  return llvm::formatv(
      R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<{0}x{1}xf32>) -> tensor<{0}x{1}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{0}x{1}xf32>
  %r = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
       ins(%x : tensor<{0}x{1}xf32>) outs(%e : tensor<{0}x{1}xf32>) {{
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<{0}x{1}xf32>
  return %r : tensor<{0}x{1}xf32>
})mlir",
      m, n);
}

/// A context with Tessel's dialects, the H100 description and tasks parsed
/// from MLIR text.
class EtoTest : public ::testing::Test {
protected:
  EtoTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    llvm::Expected<DeviceDescription> found = findDevice("h100");
    if (!found) {
      ADD_FAILURE() << llvm::toString(found.takeError());
      return;
    }
    device = std::move(*found);
  }

  /// The first task of `source`; fails the test when there is none.
  TuningTask extract(StringRef source,
                     const TaskExtractionOptions &options = {}) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    if (!module)
      return {};
    llvm::Expected<std::vector<TuningTask>> tasks =
        extractTasks(*module, &context, options);
    if (!tasks) {
      ADD_FAILURE() << llvm::toString(tasks.takeError());
      return {};
    }
    EXPECT_FALSE(tasks->empty());
    if (tasks->empty())
      return {};
    return std::move(tasks->front());
  }

  /// The space of `task`'s first multi_level_tiling sketch staging every
  /// input.
  SearchSpace getSpace(const TuningTask &task) {
    for (SketchAttr sketch : task.sketches) {
      if (sketch.getKind() != SketchKind::MultiLevelTiling ||
          sketch.getShared().size() != 2)
        continue;
      FailureOr<SearchSpace> space =
          SearchSpace::get(task.getTargetOp(), sketch, device);
      if (succeeded(space))
        return *space;
    }
    ADD_FAILURE() << "no staging multi_level_tiling space";
    return *SearchSpace::get(task.getTargetOp(), task.sketches.front(), device);
  }

  ConfigAttr getConfig(ArrayRef<SmallVector<int64_t>> tiles, int64_t unroll,
                       ArrayRef<int64_t> vector) {
    return ConfigAttr::get(&context, tiles, unroll, vector);
  }

  MLIRContext context;
  DeviceDescription device;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_UNITTESTS_TUNINGETO_ETOTESTUTILS_H
