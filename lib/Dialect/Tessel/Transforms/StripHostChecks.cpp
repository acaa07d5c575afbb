//===- StripHostChecks.cpp - Remove frontend runtime checks ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELSTRIPHOSTCHECKS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {
struct TesselStripHostChecksPass
    : public tessel::impl::TesselStripHostChecksBase<
          TesselStripHostChecksPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failedCheck = false;
    module.walk([&](cf::AssertOp assertOp) {
      APInt value;
      if (!matchPattern(assertOp.getArg(), m_ConstantInt(&value))) {
        // A data-dependent check (such as an embedding index bound): GPU
        // kernels do not check it, like a release build.
        assertOp.emitWarning()
            << "runtime check on data dropped (kernels do not check it): '"
            << assertOp.getMsg() << "'";
        assertOp.erase();
      } else if (value.isZero()) {
        assertOp.emitError() << "runtime check always fails: '"
                             << assertOp.getMsg() << "'";
        failedCheck = true;
      } else {
        assertOp.erase();
      }
    });
    if (failedCheck)
      return signalPassFailure();

    SymbolTableCollection symbols;
    SymbolUserMap users(symbols, module);
    for (auto global :
         llvm::make_early_inc_range(module.getOps<ml_program::GlobalOp>()))
      if (users.getUsers(global).empty())
        global.erase();
  }
};
} // namespace
