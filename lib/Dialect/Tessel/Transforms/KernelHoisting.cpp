//===- KernelHoisting.cpp - Accumulators hoisted within one kernel --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/KernelHoisting.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::tessel;

void mlir::tessel::hoistKernelAccumulators(gpu::LaunchOp launch) {
  // The buffers the kernel captures from above.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);

  // Upstream's aliasing check looks at every user of a buffer; for the
  // duration of the hoisting, uses outside the launch read a stand-in
  // (an operand-less cast, erased afterwards), so that it sees this
  // kernel's uses alone.
  OpBuilder builder(launch);
  SmallVector<std::pair<Value, Operation *>> standIns;
  for (Value value : captured) {
    if (!isa<MemRefType>(value.getType()))
      continue;
    bool usedOutside = llvm::any_of(value.getUses(), [&](OpOperand &use) {
      return !launch->isAncestor(use.getOwner());
    });
    if (!usedOutside)
      continue;
    auto standIn = UnrealizedConversionCastOp::create(
        builder, launch.getLoc(), TypeRange{value.getType()}, ValueRange{});
    value.replaceUsesWithIf(standIn.getResult(0), [&](OpOperand &use) {
      return use.getOwner() != standIn &&
             !launch->isAncestor(use.getOwner());
    });
    standIns.push_back({value, standIn});
  }

  linalg::hoistRedundantVectorTransfers(launch);

  for (auto [value, standIn] : standIns) {
    standIn->getResult(0).replaceAllUsesWith(value);
    standIn->erase();
  }
}
