//===- AnalyticCandidate.cpp - A schedule timed without compiling ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/Transforms/BarrierCounts.h"
#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tessel;

StringRef tessel::stringifySimFidelity(SimFidelity fidelity) {
  switch (fidelity) {
  case SimFidelity::Compiled:
    return "compiled";
  case SimFidelity::Analytic:
    return "analytic";
  }
  llvm_unreachable("unknown fidelity");
}

std::optional<SimFidelity> tessel::symbolizeSimFidelity(StringRef text) {
  if (text == "compiled")
    return SimFidelity::Compiled;
  if (text == "analytic")
    return SimFidelity::Analytic;
  return std::nullopt;
}

FailureOr<const SearchSpace *>
tessel::getCandidateSpace(const TaskSearchState &state,
                          const Candidate &candidate,
                          std::optional<SearchSpace> &storage) {
  const SearchSpace &named = state.spaces[candidate.space];
  if (named.getSketch() == candidate.sketch)
    return &named;
  FailureOr<SearchSpace> own = SearchSpace::get(
      named.getOp(), candidate.sketch, named.getDevice(), kMaxPipelineStages);
  if (failed(own))
    return failure();
  storage = std::move(*own);
  return &*storage;
}

FailureOr<MeasureCandidate>
tessel::buildAnalyticCandidate(const TaskSearchState &state,
                               const Candidate &candidate, std::string *why) {
  auto fail = [&](const Twine &message) -> FailureOr<MeasureCandidate> {
    if (why)
      *why = message.str();
    return failure();
  };
  if (candidate.space >= state.spaces.size())
    return fail("the candidate's sketch is not a search space of the task");
  std::optional<SearchSpace> ownSpace;
  FailureOr<const SearchSpace *> spacePtr =
      getCandidateSpace(state, candidate, ownSpace);
  if (failed(spacePtr))
    return fail("the candidate's sketch does not fit the task's op");
  const SearchSpace &space = **spacePtr;
  linalg::LinalgOp op = space.getOp();

  // A config that does not fit the op is rejected as materialization would
  // reject it; the diagnostic goes to `why`.
  std::string message;
  FailureOr<KernelFacts> facts = [&]() -> FailureOr<KernelFacts> {
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &d) {
      if (message.empty())
        message = d.str();
      return success();
    });
    if (failed(verifySchedule(op, candidate.sketch, candidate.config,
                              [&] {
                                // Not op->emitError(), which prints the op.
                                return mlir::emitError(op->getLoc());
                              })))
      return failure();
    return computeKernelFacts(op, state.consumers, candidate.sketch,
                              candidate.config);
  }();
  if (failed(facts))
    return fail(message.empty() ? "cannot compute the kernel facts" : message);
  // Every strategy's proposals (ETO's programs, DGD's neighbours, Fasor's
  // moves, PSA's spaces, default schedules) meet the compiler's limits
  // before they are timed: a schedule that would not build is a failure.
  std::string limit;
  if (failed(space.checkCompilerLimits(candidate.config, &limit)))
    return fail(limit);

  const LoopNest &nest = space.getLoopNest();
  MeasureCandidate m;
  m.key = candidate.getKey();
  m.gridBlocks = getNumBlocks(candidate.sketch, candidate.config, nest);
  m.blockThreads = getThreadsPerBlock(candidate.sketch, candidate.config, nest);
  m.resources.name = "analytic";
  m.resources.registers = space.estimateRegisters(candidate.config).total();
  m.resources.sharedMemoryBytes = space.getSharedMemoryBytes(candidate.config);
  m.facts = *facts;
  // The barriers its kernel will execute, where the schedule alone says
  // (BarrierCounts.h): the simulated GPU charges them as it charges a
  // compiled kernel's counts.
  if (std::optional<KernelBarrierCounts> barriers =
          estimateKernelBarriers(op, candidate.sketch, candidate.config, nest)) {
    m.facts.barriersPerThread = barriers->barriers;
    m.facts.loadBarriersPerThread = barriers->loadBarriers;
  }
  m.planFlops = state.task ? state.task->flops : m.facts.flops;
  return m;
}

std::optional<Candidate>
tessel::pickAnalyticSchedule(TaskSearchState &state, const Candidate *fallback,
                             const DeviceDescription &device, int64_t samples,
                             RandomEngine &rng, uint64_t judgeSeed,
                             double margin, double *predictedUs,
                             double *fallbackUs) {
  if (predictedUs)
    *predictedUs = 0;
  if (fallbackUs)
    *fallbackUs = 0;
  if (state.spaces.empty())
    return std::nullopt;
  SimulatedMeasurer judge(device, judgeSeed, /*noise=*/0);
  auto predict = [&](const Candidate &candidate) -> std::optional<double> {
    FailureOr<MeasureCandidate> built =
        buildAnalyticCandidate(state, candidate);
    if (failed(built))
      return std::nullopt;
    MeasureResult result = judge.measure(*built).front();
    if (!result.isOk() || result.timing.medianUs <= 0)
      return std::nullopt;
    return result.timing.medianUs;
  };
  std::optional<double> defaultUs;
  if (fallback)
    defaultUs = predict(*fallback);
  if (fallbackUs && defaultUs)
    *fallbackUs = *defaultUs;
  std::optional<Candidate> best;
  double bestUs = 0;
  llvm::DenseSet<std::pair<Attribute, Attribute>> tried;
  for (int64_t i = 0; i < samples; ++i) {
    unsigned space = rng.uniform(state.spaces.size());
    FailureOr<ConfigAttr> config = state.spaces[space].sample(rng);
    if (failed(config))
      continue;
    Candidate candidate{space, state.spaces[space].getSketch(), *config};
    if (state.seen.contains(candidate.getId()) ||
        !tried.insert(candidate.getId()).second)
      continue;
    std::optional<double> us = predict(candidate);
    if (us && (!best || *us < bestUs)) {
      best = candidate;
      bestUs = *us;
    }
  }
  if (!best || (defaultUs && bestUs * margin > *defaultUs))
    return std::nullopt;
  if (predictedUs)
    *predictedUs = bestUs;
  return best;
}
