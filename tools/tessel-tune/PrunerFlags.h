//===- PrunerFlags.h - tessel-tune's options of strategy psa ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The command-line options of strategy `psa` (docs/Pruner.md), kept apart
// from tessel-tune.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_TUNE_PRUNERFLAGS_H
#define TESSEL_TOOLS_TESSEL_TUNE_PRUNERFLAGS_H

#include "tessel/Tuning/Tuner/Strategy.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir {
namespace tessel {

/// Fills `options.pruner` from the --psa-* and cost-model file options.
/// For strategy `psa`, `features` (the value of --features) is used when
/// `featuresGiven`, else "pruner"; `perRound` becomes 10 unless given.
/// Fails on invalid values, naming the option.
llvm::Error applyPrunerFlags(StrategyOptions &options,
                             llvm::StringRef strategy,
                             llvm::StringRef features, bool featuresGiven,
                             int &perRound, bool perRoundGiven);

/// The category of the --psa-* options (shown by --help).
llvm::cl::OptionCategory &getPrunerCategory();

/// The psa options as a JSON object (for the run's records and report).
std::string getPrunerOptionsJson(const StrategyOptions &options);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TOOLS_TESSEL_TUNE_PRUNERFLAGS_H
