//===- OutlineKernels.cpp - Outline kernels, keep their facts -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Upstream outlining turns each `gpu.launch` into a `gpu.launch_func` of a
// new `gpu.module`, in walk order, and drops the launch's attributes. This
// pass runs it and maps the facts of each launch, taken in the same order,
// to the module its kernel went to.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELOUTLINEKERNELS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct TesselOutlineKernelsPass
    : public tessel::impl::TesselOutlineKernelsBase<TesselOutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<DictionaryAttr> launchFacts;
    module.walk([&](gpu::LaunchOp launch) {
      launchFacts.push_back(
          launch->getAttrOfType<DictionaryAttr>(kLaunchFactsAttrName));
    });
    // Values computed from constants alone (a splat vector of an inlined
    // constant producer, hoisted out of the loops by canonicalization) are
    // recomputed in the kernel rather than passed to it: kernel arguments
    // of vector type do not lower.
    auto isConstantComputation = [](Operation *op) {
      return isPure(op) && op->getNumRegions() == 0 &&
             (matchPattern(op, m_Constant()) ||
              isa<vector::BroadcastOp, vector::ShapeCastOp>(op));
    };
    WalkResult sunk = module.walk([&](gpu::LaunchOp launch) {
      return failed(sinkOperationsIntoLaunchOp(launch, isConstantComputation))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (sunk.wasInterrupted())
      return signalPassFailure();
    SmallVector<gpu::LaunchFuncOp> before;
    module.walk([&](gpu::LaunchFuncOp op) { before.push_back(op); });

    OpPassManager outline(ModuleOp::getOperationName());
    outline.addPass(createGpuKernelOutliningPass());
    if (failed(runPipeline(outline, module)))
      return signalPassFailure();

    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp op) {
      if (!llvm::is_contained(before, op))
        launches.push_back(op);
    });
    if (launches.size() != launchFacts.size()) {
      module.emitError() << "internal error: outlining made "
                         << launches.size() << " kernels of "
                         << launchFacts.size() << " launches";
      return signalPassFailure();
    }
    NamedAttrList facts;
    if (auto existing =
            module->getAttrOfType<DictionaryAttr>(kKernelFactsAttrName))
      facts.append(existing.getValue());
    for (auto [launch, kernelFacts] : llvm::zip(launches, launchFacts))
      if (kernelFacts)
        facts.set(launch.getKernelModuleName(), kernelFacts);
    if (!facts.empty())
      module->setAttr(kKernelFactsAttrName,
                      facts.getDictionary(&getContext()));
  }
};
} // namespace
