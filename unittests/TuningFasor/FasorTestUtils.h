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

#include "gtest/gtest.h"

namespace mlir {
namespace tessel {
namespace fasor {

/// A simulated dataset of random operators: `count` of them drawn with
/// `seed` (makeRandomTaskModule), `schedulesPerTask` schedules each, timed
/// on `device`. Fails the test when any step fails (then `schedules` is
/// empty).
class RandomDataset {
public:
  RandomDataset(int64_t count, uint64_t seed, llvm::StringRef device,
                int64_t schedulesPerTask) {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(makeRandomTaskModule(count, seed),
                                         &context);
    EXPECT_TRUE(module);
    if (!module)
      return;
    auto extracted = extractTasks(*module, &context);
    EXPECT_TRUE(static_cast<bool>(extracted))
        << llvm::toString(extracted.takeError());
    if (!extracted)
      return;
    tasks = std::move(*extracted);
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

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<TuningTask> tasks;
  std::vector<LabeledSchedule> schedules;
};

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_UNITTESTS_TUNINGFASOR_FASORTESTUTILS_H
