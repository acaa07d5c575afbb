//===- TesselDialect.cpp - Tessel dialect ---------------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace mlir::tessel;

#include "tessel/Dialect/Tessel/IR/TesselDialect.cpp.inc"

void TesselDialect::initialize() { registerAttributes(); }

LogicalResult TesselDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kAnchorAttrName || name == kUnrollAttrName ||
      name == kUnrollLateAttrName || name == kKernelAttrName ||
      name == kAccumulatorsAttrName) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be an integer";
    return success();
  }
  if (name == kSplitKAttrName) {
    auto parts = dyn_cast<IntegerAttr>(attr.getValue());
    if (!parts || parts.getInt() < 1 || !isa<linalg::LinalgOp>(op))
      return op->emitError() << "'" << name
                             << "' must be a positive integer on a linalg op";
    return success();
  }
  if (name == kTargetAttrName || name == kInlinedPadAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) || !isa<linalg::LinalgOp>(op))
      return op->emitError() << "'" << name
                             << "' must be a unit attribute on a linalg op";
    return success();
  }
  if (name == kPipelineSyncAttrName || name == kTensorCoreAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == kFactsAttrName || name == kKernelFactsAttrName) {
    if (!isa<DictionaryAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a dictionary";
    return success();
  }
  if (name != kSketchAttrName && name != kConfigAttrName)
    return op->emitError() << "unknown tessel attribute '" << name
                           << "'; expected '" << kSketchAttrName << "' or '"
                           << kConfigAttrName << "'";
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return op->emitError() << "'" << name
                           << "' can only annotate a linalg operation";
  auto sketch = op->getAttrOfType<SketchAttr>(kSketchAttrName);
  auto config = op->getAttrOfType<ConfigAttr>(kConfigAttrName);
  auto emitError = [&] { return op->emitError(); };
  if (name == kSketchAttrName) {
    if (!sketch)
      return op->emitError() << "'" << name
                             << "' must be a #tessel.sketch attribute";
    // With a config present, the whole schedule is checked once, below.
    if (op->getAttr(kConfigAttrName))
      return success();
    return verifySchedule(linalgOp, sketch, ConfigAttr(), emitError);
  }
  if (!config)
    return op->emitError() << "'" << name
                           << "' must be a #tessel.config attribute";
  if (!sketch)
    return op->emitError() << "'" << name << "' needs a '" << kSketchAttrName
                           << "' on the same op";
  return verifySchedule(linalgOp, sketch, config, emitError);
}
