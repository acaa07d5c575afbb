//===- TunableOps.h - The ops tuning records apply to -----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The ops of a model that take a tuned schedule, with their workload keys:
// what `--tessel-apply-tuned` annotates and `tessel-tune --export-spec`
// matches, so that both pick the same ops.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_APPLYTUNED_TUNABLEOPS_H
#define TESSEL_TUNING_APPLYTUNED_TUNABLEOPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir {
namespace tessel {

/// A linalg op that takes a tuned schedule, with the workload key that its
/// tuning records are stored under.
struct TunableOp {
  linalg::LinalgOp op;
  std::string workloadKey;
  /// The key under TaskEquality::IgnoreFloatConstants (equal to workloadKey
  /// when the kernel has no floating-point constant).
  std::string keyIgnoringFloatConstants;

  /// The keys to look the op's records up under, best first: its own, then
  /// the one of a run that tuned it ignoring float constants.
  SmallVector<StringRef, 2> getLookupKeys() const;
};

/// The tunable ops of `module` in walk order: linalg ops on tensors, outside
/// any `scf.forall` and `gpu.launch`, with static shapes, a space loop and a
/// reduction loop and no `tessel.sketch` yet. `linalg.fill` and the
/// elementwise consumers fused into a tunable op are not tunable ops.
SmallVector<TunableOp> getTunableOps(ModuleOp module);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_APPLYTUNED_TUNABLEOPS_H
