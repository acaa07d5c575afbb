//===- DefaultSchedules.h - Heuristic schedules for any op ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Tessel's fallback schedules, in the spirit of TVM's fallback configs: a
// sound, reasonably fast schedule for every linalg op with static shapes,
// chosen without measuring anything. See docs/DefaultSchedules.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_DEFAULTSCHEDULES_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_DEFAULTSCHEDULES_H

#include "tessel/Dialect/Tessel/IR/Schedule.h"

namespace mlir {
namespace tessel {

/// A sketch and its config.
struct Schedule {
  SketchAttr sketch;
  ConfigAttr config;
};

/// Whether `op` is a contraction-like op with operand reuse (matmuls,
/// convolutions): a reduction loop and at least two inputs.
bool hasOperandReuse(linalg::LinalgOp op);

/// The default schedule of `op`, or failure when `op` cannot be scheduled
/// (dynamic shapes). The result always passes `verifySchedule`.
FailureOr<Schedule> getDefaultSchedule(linalg::LinalgOp op);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_DEFAULTSCHEDULES_H
