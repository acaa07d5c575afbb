//===- EmitTransformScript.cpp - Write schedules as transform scripts -----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Dialect/Tessel/Transforms/ScheduleScript.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Parser/Parser.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELEMITTRANSFORMSCRIPT
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct TesselEmitTransformScriptPass
    : public tessel::impl::TesselEmitTransformScriptBase<
          TesselEmitTransformScriptPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::vector<ScheduledOp>> ops = prepareScheduledOps(module);
    if (failed(ops))
      return signalPassFailure();
    ScheduleScriptOptions options;
    options.allowTf32 = allowTf32;
    std::string script = buildScheduleScript(*ops, options);
    OwningOpRef<ModuleOp> scriptModule =
        parseSourceString<ModuleOp>(script, &getContext());
    if (!scriptModule) {
      module.emitError() << "internal error: Tessel wrote a transform script "
                            "that does not parse:\n"
                         << script;
      return signalPassFailure();
    }
    module.getBody()->push_back(scriptModule.release());
  }
};
} // namespace
