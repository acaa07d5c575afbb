//===- FusionAnalysis.cpp - Elementwise consumers a sketch fuses ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/FusionAnalysis.h"
#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tessel;

SmallVector<Operation *> tessel::getFusedConsumers(linalg::LinalgOp op) {
  auto sketch = op->getAttrOfType<SketchAttr>(TesselDialect::kSketchAttrName);
  if (!sketch)
    return {};
  return getFusibleConsumers(op, sketch.getFusedConsumers());
}

Operation *tessel::getKernelInitProducer(linalg::LinalgOp op,
                                         SketchAttr sketch) {
  if (!sketch || op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics())
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  auto producer = init->get().getDefiningOp<linalg::LinalgOp>();
  if (!producer || !init->get().hasOneUse() ||
      producer->hasAttr(TesselDialect::kSketchAttrName) ||
      producer.getNumDpsInits() != 1 ||
      !producer.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>())
    return nullptr;
  // With fused consumers, the kernel computes the init (ScheduledOps checks
  // the rest of the conditions, with a diagnostic).
  if (sketch.getFusedConsumers() != 0)
    return producer;
  if (!isa<linalg::FillOp>(producer) ||
      (sketch.getKind() != SketchKind::MultiLevelTiling &&
       sketch.getKind() != SketchKind::TensorCore &&
       sketch.getKind() != SketchKind::CrossThreadReduction) ||
      op.getNumReductionLoops() == 0 ||
      !op.getMatchingIndexingMap(init).isProjectedPermutation())
    return nullptr;
  return producer;
}
