//===- ScheduleTokens.h - Fasor's tokens of a schedule ----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The input of Fasor's cost model: a schedule as a sequence of tokens of
// one width (docs/Fasor.md, "Tokens"). The paper's features are AutoTVM's:
// shapes, the serialized schedule knobs and, per buffer, its access type,
// reuse type and accessed bytes. Tessel's tokens are a task token (loop
// extents), a knob token (tiles, unroll, vector widths, stages, sketch) and
// the statement and kernel blocks of Tessel's `ansor` features, whose
// buffer-access slots carry the access type, reuse type and bytes of every
// buffer of every statement.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_SCHEDULETOKENS_H
#define TESSEL_TUNING_STRATEGIES_FASOR_SCHEDULETOKENS_H

#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Strategies/Fasor/TransformerCostModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/Error.h"

namespace mlir {
namespace tessel {
namespace fasor {

/// The width of every token: one `ansor` statement block.
constexpr int64_t kTokenWidth = 176;
/// Tokens per schedule: task, knobs, the compute, copy and consumer
/// statement blocks, and the kernel features.
constexpr int64_t kTokensPerSchedule = 6;
/// The most loops and tile levels per loop the task and knob tokens hold.
constexpr int64_t kMaxLoops = 8;
constexpr int64_t kMaxLevels = 8;
/// The values of the task token that describe the task: (extent, reduces)
/// per loop, then the fused consumers; the rest of the token is zeros.
constexpr int64_t kTaskValues = 2 * kMaxLoops + 1;

/// The tokens of `op` (with its fused elementwise `fusedConsumers`)
/// scheduled by `sketch` and `config` on `device`. Fails on what the
/// `ansor` feature extractor rejects (dynamic shapes, a config that does not
/// fit) and on more than kMaxLoops loops or kMaxLevels levels.
llvm::Expected<Tokens> encodeSchedule(linalg::LinalgOp op,
                                      ArrayRef<linalg::LinalgOp> fusedConsumers,
                                      SketchAttr sketch, ConfigAttr config,
                                      const DeviceDescription &device);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_SCHEDULETOKENS_H
