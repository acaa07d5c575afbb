//===- FasorTestUtils.h - Shared set-up of the Fasor tests ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_UNITTESTS_TUNINGFASOR_FASORTESTUTILS_H
#define TESSEL_UNITTESTS_TUNINGFASOR_FASORTESTUTILS_H

#include "tessel/InitAllDialects.h"
#include "tessel/Tuning/Strategies/Fasor/Dataset.h"
#include "tessel/Tuning/Strategies/Fasor/RandomTasks.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

namespace mlir {
namespace tessel {
namespace fasor {

/// An m x n x k f32 matmul with its fill: one task.
inline std::string getMatmulModule(int64_t m, int64_t n, int64_t k) {
  return llvm::formatv(R"mlir(
func.func @f(%a: tensor<{0}x{2}xf32>, %b: tensor<{2}x{1}xf32>) -> tensor<{0}x{1}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{0}x{1}xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<{0}x{1}xf32>) -> tensor<{0}x{1}xf32>
  %m = linalg.matmul ins(%a, %b : tensor<{0}x{2}xf32>, tensor<{2}x{1}xf32>) outs(%i : tensor<{0}x{1}xf32>) -> tensor<{0}x{1}xf32>
  return %m : tensor<{0}x{1}xf32>
}
)mlir",
                       m, n, k)
      .str();
}

/// The matmul most tests tune: 256x512x128.
inline std::string getMatmulModule() { return getMatmulModule(256, 512, 128); }

/// The matmul of getMatmulModule() and a 3x3 convolution: two tasks.
constexpr llvm::StringLiteral kTwoTaskModule = R"mlir(
func.func @f(%a: tensor<256x128xf32>, %b: tensor<128x512xf32>, %x: tensor<1x16x34x34xf32>, %w: tensor<32x16x3x3xf32>) -> (tensor<256x512xf32>, tensor<1x32x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x512xf32>) outs(%i : tensor<256x512xf32>) -> tensor<256x512xf32>
  %e2 = tensor.empty() : tensor<1x32x32x32xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x16x34x34xf32>, tensor<32x16x3x3xf32>) outs(%i2 : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  return %m, %c : tensor<256x512xf32>, tensor<1x32x32x32xf32>
}
)mlir";

/// `source` parsed in a context with every dialect, and its tasks. Fails
/// the test when it does not parse or has no tasks.
class TaskModule {
public:
  explicit TaskModule(llvm::StringRef source) {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    if (!module)
      return;
    auto extracted = extractTasks(*module, &context);
    EXPECT_TRUE(static_cast<bool>(extracted))
        << llvm::toString(extracted.takeError());
    if (extracted)
      tasks = std::move(*extracted);
  }

  /// Fresh tasks of the module (a strategy run consumes its tasks).
  std::vector<TuningTask> extract() {
    auto extracted = extractTasks(*module, &context);
    EXPECT_TRUE(static_cast<bool>(extracted))
        << llvm::toString(extracted.takeError());
    return extracted ? std::move(*extracted) : std::vector<TuningTask>();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<TuningTask> tasks;
};

/// A simulated dataset of random operators: `count` of them drawn with
/// `seed` (makeRandomTaskModule), `schedulesPerTask` schedules each, timed
/// on `device`. Fails the test when any step fails (then `schedules` is
/// empty).
class RandomDataset : public TaskModule {
public:
  RandomDataset(int64_t count, uint64_t seed, llvm::StringRef device,
                int64_t schedulesPerTask)
      : TaskModule(makeRandomTaskModule(count, seed)) {
    if (tasks.empty())
      return;
    llvm::Expected<DeviceDescription> found = findDevice(device);
    EXPECT_TRUE(static_cast<bool>(found)) << llvm::toString(found.takeError());
    if (!found)
      return;
    DatasetOptions options;
    options.schedulesPerTask = schedulesPerTask;
    auto built = buildSimulatedDataset(tasks, *found, options);
    EXPECT_TRUE(static_cast<bool>(built)) << llvm::toString(built.takeError());
    if (built)
      schedules = std::move(*built);
  }

  std::vector<LabeledSchedule> schedules;
};

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_UNITTESTS_TUNINGFASOR_FASORTESTUTILS_H
