//===- TunableOps.cpp - The ops tuning records apply to -------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/ApplyTuned/TunableOps.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Tuning/Search/Task.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tessel;

SmallVector<TunableOp> tessel::getTunableOps(ModuleOp module) {
  SmallVector<TunableOp> tunable;
  llvm::DenseSet<Operation *> fused;
  module.walk([&](linalg::LinalgOp op) {
    if (fused.contains(op) || isa<linalg::FillOp>(op) ||
        op->getParentOfType<gpu::LaunchOp>() ||
        op->getParentOfType<scf::ForallOp>() || !op.hasPureTensorSemantics() ||
        op->hasAttr(TesselDialect::kSketchAttrName))
      return;
    FailureOr<LoopNest> nest = LoopNest::get(op);
    if (failed(nest) || !llvm::is_contained(nest->isReduction, false) ||
        op.getNumReductionLoops() == 0)
      return;
    SmallVector<Operation *> consumers = getTaskConsumers(op);
    fused.insert(consumers.begin(), consumers.end());
    SmallVector<int64_t> inlinedInputs = getTaskInlinedInputs(op);
    tunable.push_back({op, getWorkloadKey(op, consumers, inlinedInputs),
                       getWorkloadKey(op, consumers, inlinedInputs,
                                      TaskEquality::IgnoreFloatConstants)});
  });
  return tunable;
}

SmallVector<StringRef, 2> TunableOp::getLookupKeys() const {
  SmallVector<StringRef, 2> keys = {workloadKey};
  if (keyIgnoringFloatConstants != workloadKey)
    keys.push_back(keyIgnoringFloatConstants);
  return keys;
}
