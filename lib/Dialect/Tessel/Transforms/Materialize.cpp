//===- Materialize.cpp - Apply the schedules of annotated ops -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Dialect/Tessel/Transforms/ScheduleScript.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Parser/Parser.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELMATERIALIZE
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct TesselMaterializePass
    : public tessel::impl::TesselMaterializeBase<TesselMaterializePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::vector<ScheduledOp>> ops = prepareScheduledOps(module);
    if (failed(ops))
      return signalPassFailure();
    if (ops->empty())
      return;
    ScheduleScriptOptions options;
    options.stopBeforeGpuMapping = stopBeforeGpuMapping;
    std::string script = buildScheduleScript(*ops, options);
    OwningOpRef<ModuleOp> scriptModule =
        parseSourceString<ModuleOp>(script, &getContext());
    if (!scriptModule) {
      module.emitError() << "internal error: Tessel wrote a transform script "
                            "that does not parse:\n"
                         << script;
      return signalPassFailure();
    }
    Operation *entry = scriptModule->lookupSymbol(kScheduleEntryPoint);
    if (failed(transform::applyTransformNamedSequence(
            module, entry, *scriptModule, transform::TransformOptions())))
      return signalPassFailure();
  }
};
} // namespace
