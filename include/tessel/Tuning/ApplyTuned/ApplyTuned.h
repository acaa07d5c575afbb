//===- ApplyTuned.h - Schedules from the tuning records ---------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// `--tessel-apply-tuned="db=FILE [target=NAME]"` annotates every tunable op
// with the best recorded schedule of its workload (the same key as
// tessel-tune's tasks) and target; an op without a record keeps no schedule
// (--tessel-to-cuda gives it the default one) and gets a remark. The pass is
// declared in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_APPLYTUNED_APPLYTUNED_H
#define TESSEL_TUNING_APPLYTUNED_APPLYTUNED_H

#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>

namespace mlir {
namespace tessel {

#define GEN_PASS_DECL
#include "tessel/Tuning/ApplyTuned/Passes.h.inc"

/// Creates the pass reading `db`; `target` is the measurer whose records are
/// preferred (e.g. "cuda:NVIDIA H100 80GB HBM3" or "sim:h100-sxm"); empty
/// prefers GPU records over simulated ones. The same as
/// `createTesselApplyTuned({db, target})`.
std::unique_ptr<Pass> createTesselApplyTunedPass(std::string db = "",
                                                 std::string target = "");

// registerTesselApplyTunedPasses() registers `--tessel-apply-tuned`.
#define GEN_PASS_REGISTRATION
#include "tessel/Tuning/ApplyTuned/Passes.h.inc"

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_APPLYTUNED_APPLYTUNED_H
