//===- CandidateBuilder.cpp - Candidates made ready to measure ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/CandidateBuilder.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Tuning/Tuner/CandidateCompiler.h"

using namespace mlir;
using namespace mlir::tessel;

CandidateBuilder::~CandidateBuilder() = default;

namespace {
/// Compiles each candidate to a launch plan with cubins.
class CompilingBuilder : public CandidateBuilder {
public:
  CompilingBuilder(const DialectRegistry &registry, std::string chip,
                   std::string cudaPath, unsigned threads)
      : compiler(registry, std::move(chip), std::move(cudaPath), threads) {}

  std::vector<BuiltCandidate>
  build(const TaskSearchState &state, ArrayRef<Candidate> candidates,
        std::shared_ptr<const ReferenceData> reference) override {
    std::vector<BuiltCandidate> built(candidates.size());
    std::vector<CompiledCandidate> compiled =
        compiler.compile(*state.task, candidates);
    for (auto [index, c] : llvm::enumerate(compiled)) {
      if (!c.plan) {
        built[index].error = c.error;
        continue;
      }
      MeasureCandidate m;
      m.key = candidates[index].getKey();
      m.plan = c.plan;
      m.reference = reference;
      m.planFlops = state.task->flops;
      built[index].candidate = std::move(m);
    }
    return built;
  }
  bool compiles() const override { return true; }
  int64_t getCompiledCount() const override {
    return compiler.getCompiledCount();
  }

private:
  CandidateCompiler compiler;
};

/// Kernel facts of each candidate, without compiling.
class AnalyticBuilder : public CandidateBuilder {
public:
  std::vector<BuiltCandidate>
  build(const TaskSearchState &state, ArrayRef<Candidate> candidates,
        std::shared_ptr<const ReferenceData>) override {
    std::vector<BuiltCandidate> built(candidates.size());
    for (auto [index, candidate] : llvm::enumerate(candidates)) {
      FailureOr<MeasureCandidate> m =
          buildAnalyticCandidate(state, candidate, &built[index].error);
      if (succeeded(m))
        built[index].candidate = std::move(*m);
    }
    return built;
  }
  bool compiles() const override { return false; }
};
} // namespace

std::unique_ptr<CandidateBuilder>
mlir::tessel::createCompilingBuilder(const DialectRegistry &registry,
                               std::string chip, std::string cudaPath,
                               unsigned threads) {
  return std::make_unique<CompilingBuilder>(registry, std::move(chip),
                                            std::move(cudaPath), threads);
}

std::unique_ptr<CandidateBuilder> mlir::tessel::createAnalyticBuilder() {
  return std::make_unique<AnalyticBuilder>();
}
