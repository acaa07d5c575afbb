//===- CompileTest.cpp - Sampled configs through tessel-to-cuda -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "SearchTestUtils.h"

#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Tuning/Search/SearchSpace.h"
#include "tessel/Tuning/Search/SketchRules.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

class CompileTest : public SearchTest {
protected:
  /// Compiles `count` sampled configs of every materializable sketch of the
  /// single task of `source` to PTX.
  void compileSamples(StringRef source, int count) {
    llvm::Expected<DeviceDescription> device = findDevice("h100");
    ASSERT_TRUE(static_cast<bool>(device))
        << llvm::toString(device.takeError());
    std::vector<TuningTask> tasks = extract(source);
    ASSERT_EQ(tasks.size(), 1u);
    TuningTask &task = tasks.front();
    auto options =
        TesselToCudaOptions::createFromString("chip=sm_90 format=isa");
    ASSERT_TRUE(options);
    RandomEngine rng(7);
    for (SketchAttr sketch : task.sketches) {
      if (!isMaterializable(sketch))
        continue;
      FailureOr<SearchSpace> space =
          SearchSpace::get(task.getTargetOp(), sketch, *device);
      ASSERT_TRUE(succeeded(space));
      for (int i = 0; i < count; ++i) {
        FailureOr<ConfigAttr> config = space->sample(rng);
        ASSERT_TRUE(succeeded(config));
        OwningOpRef<ModuleOp> scheduled = applySchedule(task, sketch, *config);
        std::string errors;
        ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
          errors += d.str() + "\n";
          return success();
        });
        PassManager pm(&context);
        ASSERT_TRUE(succeeded(buildTesselToCudaPipeline(pm, *options)));
        EXPECT_TRUE(succeeded(pm.run(*scheduled)))
            << task.describe() << "\n"
            << str(sketch) << "\n"
            << str(*config) << "\n"
            << errors;
        int binaries = 0;
        scheduled->walk([&](gpu::BinaryOp) { ++binaries; });
        EXPECT_GE(binaries, 1);
      }
    }
  }
};

TEST_F(CompileTest, SampledMatmulConfigsCompile) {
  compileSamples(kMatmul1024, 5);
}

TEST_F(CompileTest, SampledConvReluConfigsCompile) {
  compileSamples(kResNetConv3x3, 5);
}

} // namespace
