//===- RandomStrategy.cpp - Uniform samples of the search space -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Random/RandomStrategy.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {
/// Uniform samples of the search space.
class RandomStrategy : public SearchStrategy {
public:
  std::string name() const override { return "random"; }
  std::vector<Candidate> propose(TaskSearchState &state, int count) override {
    return sampleUnseen(state, count);
  }
};
} // namespace

StrategyInfo tessel::getRandomStrategyInfo() {
  StrategyInfo info;
  info.name = "random";
  info.summary = "uniform samples of the search space (the baseline)";
  info.usesCostModel = false;
  info.create = [](const ComponentOptions &, StrategyEnvironment)
      -> llvm::Expected<std::unique_ptr<SearchStrategy>> {
    return std::make_unique<RandomStrategy>();
  };
  return info;
}
