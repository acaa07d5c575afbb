//===- FusionAnalysis.cpp - Elementwise consumers a sketch fuses ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/FusionAnalysis.h"
#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"

using namespace mlir;
using namespace mlir::tessel;

std::optional<AffineMap> tessel::getElementwiseUseMap(linalg::LinalgOp user,
                                                      Value value) {
  if (!user || user.getNumReductionLoops() != 0 || user->getNumResults() != 1)
    return std::nullopt;
  std::optional<AffineMap> found;
  for (OpOperand &operand : user->getOpOperands()) {
    if (operand.get() != value)
      continue;
    if (found)
      return std::nullopt;
    AffineMap map = user.getMatchingIndexingMap(&operand);
    if (!map.isPermutation())
      return std::nullopt;
    found = map;
  }
  return found;
}

SmallVector<Operation *> tessel::getFusedConsumers(linalg::LinalgOp op) {
  auto sketch = op->getAttrOfType<SketchAttr>(TesselDialect::kSketchAttrName);
  if (!sketch)
    return {};
  return getFusibleConsumers(op, sketch.getFusedConsumers());
}

SmallVector<Operation *> tessel::getFusibleConsumers(linalg::LinalgOp op,
                                                     int64_t maxCount) {
  SmallVector<Operation *> chain;
  if (op->getNumResults() != 1)
    return chain;
  Operation *current = op;
  for (int64_t i = 0; i < maxCount; ++i) {
    Value result = current->getResult(0);
    if (!result.hasOneUse())
      break;
    auto user = dyn_cast<linalg::LinalgOp>(*result.getUsers().begin());
    if (!getElementwiseUseMap(user, result))
      break;
    chain.push_back(user);
    current = user;
  }
  return chain;
}
