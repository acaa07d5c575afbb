//===- CheckKernelSize.cpp - Reject kernels too large to compile ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELCHECKKERNELSIZE
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {
struct TesselCheckKernelSizePass
    : public tessel::impl::TesselCheckKernelSizeBase<
          TesselCheckKernelSizePass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxLoops <= 0)
      return;
    bool failed = false;
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      int64_t loops = 0;
      kernel.walk([&](scf::ForOp) { ++loops; });
      if (loops <= maxLoops)
        return;
      // Not kernel.emitError(), which would print the generated kernel.
      mlir::emitError(kernel.getLoc()) << "kernel '" << kernel.getName() << "' has " << loops
                         << " loops after unrolling, more than "
                         << "max-loops=" << maxLoops.getValue()
                         << ": LLVM would take minutes to compile it; "
                            "choose a schedule that unrolls less or keeps a "
                            "smaller tile per thread";
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
