//===- KernelHoisting.h - Accumulators hoisted within one kernel -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Hoisting of a kernel's accumulator transfers out of its loops, deciding
// aliasing from the kernel's own accesses only.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_KERNELHOISTING_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_KERNELHOISTING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir {
namespace tessel {

/// Hoists the redundant vector transfers of `launch`'s loops (upstream's
/// `linalg::hoistRedundantVectorTransfers`: a read and a write of the same
/// slice, loop-invariant, no other access to the buffer in the loop that
/// may overlap it), judging each buffer by its uses inside `launch` only.
///
/// Upstream refuses a buffer that any view anywhere reads; the buffer a
/// kernel accumulates into is often read by a later kernel through views
/// (the combining kernel of split-K, a reduction or softmax after a matmul),
/// which kept that kernel's accumulators in global memory: a load and a
/// store per FMA. Kernels run one after another, so uses outside the
/// launch cannot overlap a loop inside it. For launches whose threads own
/// their accumulator elements (`tessel.accumulators = 1`): the transfers
/// of one thread are assumed not to race with other threads, as upstream
/// assumes for any loop.
void hoistKernelAccumulators(gpu::LaunchOp launch);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_KERNELHOISTING_H
