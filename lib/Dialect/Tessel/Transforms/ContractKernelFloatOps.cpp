//===- ContractKernelFloatOps.cpp - FMA contraction in kernels ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// LLVM fuses `fmul` and `fadd` into `fma` only when both carry the
// `contract` flag (or the target is told to fuse everything). The kernels'
// vector contractions already lower to `llvm.intr.fma`; the scalar loop
// nests of kernels that are not vectorized do not, and NVPTX then emits
// `mul.rn.f32` + `add.rn.f32`, which ptxas must not fuse. This pass gives
// the kernels' float arithmetic the flag, as nvcc's default `-fmad=true`
// does for CUDA C++.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELCONTRACTKERNELFLOATOPS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {
struct TesselContractKernelFloatOpsPass
    : public tessel::impl::TesselContractKernelFloatOpsBase<
          TesselContractKernelFloatOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](gpu::GPUFuncOp kernel) {
      kernel.walk([](arith::ArithFastMathInterface op) {
        arith::FastMathFlags flags = op.getFastMathFlagsAttr()
                                         ? op.getFastMathFlagsAttr().getValue()
                                         : arith::FastMathFlags::none;
        if (bitEnumContainsAll(flags, arith::FastMathFlags::contract))
          return;
        op->setAttr(op.getFastMathAttrName(),
                    arith::FastMathFlagsAttr::get(
                        op->getContext(),
                        flags | arith::FastMathFlags::contract));
      });
    });
  }
};
} // namespace
