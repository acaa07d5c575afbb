//===- RecordSelection.cpp - The tuned schedule an op gets ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/ApplyTuned/RecordSelection.h"

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Search/SearchSpace.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tessel;

/// The device a record's target names, if Tessel knows it.
static std::optional<DeviceDescription> findTargetDevice(StringRef target) {
  std::optional<DeviceDescription> found;
  if (target.consume_front("sim:")) {
    StringRef id = target.split(':').first;
    if (auto device = findDevice(id))
      found = *device;
    else
      llvm::consumeError(device.takeError());
  } else if (target.consume_front("cuda:")) {
    llvm::json::Object facts{{"name", target.str()}};
    if (auto device = findDeviceForDriver(facts))
      found = *device;
    else
      llvm::consumeError(device.takeError());
  }
  return found;
}

std::string tessel::whyNotCompilable(linalg::LinalgOp op, SketchAttr sketch,
                                     ConfigAttr config, StringRef target) {
  std::string problem;
  {
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &d) {
      if (problem.empty())
        problem = d.str();
      return success();
    });
    if (failed(verifySchedule(op, sketch, config, [&] {
          // Not op->emitError(), which prints the op.
          return mlir::emitError(op->getLoc());
        })))
      return problem.empty() ? "the schedule does not fit the op" : problem;
  }
  std::optional<DeviceDescription> device = findTargetDevice(target);
  if (!device)
    return "";
  FailureOr<SearchSpace> space =
      SearchSpace::get(op, sketch, *device, kMaxPipelineStages);
  if (failed(space))
    return "no search space of " + device->id + " has the sketch";
  std::string why;
  if (failed(space->checkCompilerLimits(config, &why)))
    return why;
  return "";
}

llvm::Expected<std::optional<SelectedRecord>> tessel::selectCompilableRecord(
    RecordsDatabase &db, linalg::LinalgOp op, ArrayRef<StringRef> keys,
    StringRef preferredTarget,
    function_ref<void(const BestRecord &, StringRef)> skipped) {
  MLIRContext *context = op->getContext();
  for (StringRef key : keys) {
    auto ranked =
        db.getRankedRecordsAnyTarget(key, preferredTarget, kMaxRecordsToTry);
    if (!ranked)
      return ranked.takeError();
    if (ranked->empty())
      continue;
    for (const BestRecord &record : *ranked) {
      auto sketch =
          dyn_cast_or_null<SketchAttr>(parseAttribute(record.sketch, context));
      auto config =
          dyn_cast_or_null<ConfigAttr>(parseAttribute(record.config, context));
      std::string why =
          !sketch || !config
              ? "the record holds no valid schedule: " + record.sketch + " " +
                    record.config
              : whyNotCompilable(op, sketch, config, record.target);
      if (why.empty())
        return SelectedRecord{key.str(), record, sketch, config};
      skipped(record, why);
    }
    return std::nullopt;
  }
  return std::nullopt;
}
