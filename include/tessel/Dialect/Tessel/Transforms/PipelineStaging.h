//===- PipelineStaging.h - Software-pipelined shared-memory staging -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A `stages = S` config (S > 1) pipelines the shared-memory staging loop of a
// multi-level kernel (docs/Materialization.md, "Software pipelining"):
//
//   - before GPU mapping, on buffers, pipelineStagingLoop gives every shared
//     buffer S slots (one per step in flight), issues the cooperative loads of
//     step i + S - 1 before the math of step i, and marks where the loads of a
//     step end (`nvvm.cp.async.commit.group`) and where the math of a step
//     waits for its own (`nvvm.cp.async.wait.group`, then `gpu.barrier`);
//   - after GPU mapping, makeStagingCopiesAsync turns the loads into
//     `nvgpu.device_async_copy` (cp.async) on sm_80 and newer; without it
//     (older chips) eraseStagingSynchronization leaves them synchronous and
//     multi-buffered, which is still correct.
//
// The same IR runs sequentially on the CPU once eraseStagingSynchronization
// drops the marks (the CPU-equivalence tests).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_PIPELINESTAGING_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_PIPELINESTAGING_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir {
namespace tessel {

/// Pipelines the staging loop `loop` (static bounds, no iteration
/// arguments) over `stages` steps. The loads are the ops of the loop body
/// that write shared (workgroup) memory and neither read it nor write
/// anything else; the shared buffers they write are the workgroup
/// `memref.alloca`s outside the loop seen through `memref.view`s in the body.
/// Returns the pipelined loop. On failure `why` says what did not fit; the
/// IR is unchanged unless the upstream pipeliner itself failed.
FailureOr<scf::ForOp> pipelineStagingLoop(RewriterBase &rewriter,
                                          scf::ForOp loop, int64_t stages,
                                          std::string &why);

/// Turns the global-to-shared vector copies of every kernel in `root` that
/// has a pipelined staging loop into asynchronous copies (upstream
/// nvgpu::createAsyncGroups, whose per-copy groups and waits are replaced by
/// the marks pipelineStagingLoop placed). Copies that cp.async cannot do
/// (not 4, 8 or 16 bytes) stay synchronous.
void makeStagingCopiesAsync(RewriterBase &rewriter, Operation *root);

/// Erases the commit, wait and barrier marks of pipelined staging loops in
/// `root`: the loads stay synchronous.
void eraseStagingSynchronization(Operation *root);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_PIPELINESTAGING_H
