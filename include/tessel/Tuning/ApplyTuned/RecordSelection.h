//===- RecordSelection.h - The tuned schedule an op gets --------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// `--tessel-apply-tuned`, `tessel.apply` and the exported tuning spec give an
// op the fastest record of its workload that this version can compile:
// records of older versions may hold schedules that today's rules (shared
// memory with fused accumulators, loops after unrolling) reject, and a
// schedule that does not compile must never reach the compiler from a
// tuning database.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_APPLYTUNED_RECORDSELECTION_H
#define TESSEL_TUNING_APPLYTUNED_RECORDSELECTION_H

#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"
#include "tessel/Tuning/Records/RecordsDatabase.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir {
namespace tessel {

/// A record chosen for an op, with its parsed schedule and the lookup key
/// it was found under.
struct SelectedRecord {
  std::string key;
  BestRecord record;
  SketchAttr sketch;
  ConfigAttr config;
};

/// Records of a workload that selectCompilableRecord looks at, best first.
constexpr int64_t kMaxRecordsToTry = 64;

/// Why `sketch` + `config` cannot be compiled for `op`, or "" when it can:
/// the schedule must verify and, when `target` names a known device
/// (`sim:<device>[:analytic]`, `cuda:<driver's name>`), stay within what
/// the compiler accepts on it (SearchSpace::checkCompilerLimits: shared
/// memory, loops after unrolling). Default schedules, which the search
/// space's own limits need not admit, pass.
std::string whyNotCompilable(linalg::LinalgOp op, SketchAttr sketch,
                             ConfigAttr config, llvm::StringRef target);

/// The fastest `ok` record of `op` under the first of `keys` that has
/// records (preferring `preferredTarget` as getBestRecordAnyTarget does)
/// whose schedule compiles (whyNotCompilable); std::nullopt when none of
/// the first kMaxRecordsToTry does. Each record passed over is reported to
/// `skipped` with the reason.
llvm::Expected<std::optional<SelectedRecord>> selectCompilableRecord(
    RecordsDatabase &db, linalg::LinalgOp op, llvm::ArrayRef<llvm::StringRef> keys,
    llvm::StringRef preferredTarget,
    llvm::function_ref<void(const BestRecord &, llvm::StringRef)> skipped);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_APPLYTUNED_RECORDSELECTION_H
