//===- CandidateBuilder.cpp - Candidates made ready to measure ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/CandidateBuilder.h"
#include "tessel/Tuning/Tuner/AnalyticCandidate.h"
#include "tessel/Tuning/Tuner/CandidateCompiler.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Tuning/Search/Task.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::tessel;

CandidateBuilder::~CandidateBuilder() = default;

/// How far under the kernel-size limit the estimate of a candidate's loops
/// must stay for the analytic builder to trust it without making the
/// kernels.
static constexpr int64_t kLoopCheckMargin = 128;

namespace {
/// Compiles each candidate to a launch plan with cubins.
class CompilingBuilder : public CandidateBuilder {
public:
  CompilingBuilder(const DialectRegistry &registry, std::string chip,
                   std::string cudaPath, unsigned processes, JobLimits limits)
      : compiler(registry, std::move(chip), std::move(cudaPath), processes,
                 limits) {}

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
  void prepare(ArrayRef<TaskCandidate> jobs) override {
    (void)compiler.compile(jobs);
  }
  bool compiles() const override { return true; }
  int64_t getCompiledCount() const override {
    return compiler.getCompiledCount();
  }

private:
  CandidateCompiler compiler;
};

/// Kernel facts of each candidate, without compiling to PTX. A schedule
/// the compiler would reject is rejected here too, never timed: the search
/// space rejects kernels whose unrolled loops (SearchSpace::
/// estimateUnrolledLoops, which counted 0 to 34 loops fewer than the
/// kernel-size check on the frontend models) exceed the limit, and within
/// kLoopCheckMargin of it the kernels are made (materialized, outlined and
/// counted, about 0.1-0.3 s) to decide.
class AnalyticBuilder : public CandidateBuilder {
public:
  explicit AnalyticBuilder(JobLimits limits) : limits(limits) {}

  std::vector<BuiltCandidate>
  build(const TaskSearchState &state, ArrayRef<Candidate> candidates,
        std::shared_ptr<const ReferenceData>) override {
    std::vector<BuiltCandidate> built(candidates.size());
    for (auto [index, candidate] : llvm::enumerate(candidates)) {
      FailureOr<MeasureCandidate> m =
          buildAnalyticCandidate(state, candidate, &built[index].error);
      if (failed(m))
        continue;
      std::optional<SearchSpace> ownSpace;
      const SearchSpace &space =
          **getCandidateSpace(state, candidate, ownSpace);
      if (state.task && space.estimateUnrolledLoops(candidate.config) >
                            kMaxKernelLoops - kLoopCheckMargin) {
        std::string error = checkKernels(*state.task, candidate);
        if (!error.empty()) {
          built[index].error = error;
          continue;
        }
      }
      built[index].candidate = std::move(*m);
    }
    return built;
  }
  bool compiles() const override { return false; }

private:
  /// Why the kernels of `candidate` cannot be made, or "" when they can.
  std::string checkKernels(TuningTask &task, const Candidate &candidate) {
    std::string key = task.workloadKey + "\n" + candidate.getKey();
    auto it = kernelErrors.find(key);
    if (it != kernelErrors.end())
      return it->second;
    OwningOpRef<ModuleOp> module =
        applySchedule(task, candidate.sketch, candidate.config);
    // Made in a child process: a schedule whose kernels cannot be made
    // within the limits is rejected, and the tuner goes on. The child
    // parses the module into a context of its own: the task's context may
    // own a thread pool, whose threads a forked child does not have.
    std::string text;
    {
      llvm::raw_string_ostream os(text);
      module->print(os);
    }
    const DialectRegistry &registry =
        module->getContext()->getDialectRegistry();
    std::vector<JobOutcome> outcomes = runIsolatedJobs(
        1,
        [&](size_t) -> std::string {
          MLIRContext context(registry, MLIRContext::Threading::DISABLED);
          std::string error;
          ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
            if (d.getSeverity() == DiagnosticSeverity::Error && error.empty())
              error = d.str();
            return success();
          });
          OwningOpRef<ModuleOp> parsed =
              parseSourceString<ModuleOp>(text, &context);
          if (!parsed)
            return "cannot parse the candidate: " + error;
          // TF32 candidates exist only when the user allowed them.
          TesselToCudaOptions options;
          options.allowTf32 = true;
          PassManager pm(&context);
          buildTesselToKernelsPipeline(pm, options);
          if (succeeded(pm.run(*parsed)))
            return "";
          return error.empty() ? "the schedule's kernels cannot be made"
                               : error;
        },
        /*parallel=*/1, limits);
    std::string error = outcomes[0].finished
                            ? outcomes[0].output
                            : "making the kernels " + outcomes[0].failure;
    kernelErrors[key] = error;
    return error;
  }

  JobLimits limits;
  llvm::StringMap<std::string> kernelErrors;
};

/// Analytic candidates, each also compiled: the check that the analytic
/// space admits only what the compiler accepts.
class CompileCheckedBuilder : public CandidateBuilder {
public:
  CompileCheckedBuilder(std::unique_ptr<CandidateBuilder> analytic,
                        std::unique_ptr<CandidateBuilder> compiling)
      : analytic(std::move(analytic)), compiling(std::move(compiling)) {}

  std::vector<BuiltCandidate>
  build(const TaskSearchState &state, ArrayRef<Candidate> candidates,
        std::shared_ptr<const ReferenceData> reference) override {
    std::vector<BuiltCandidate> built =
        analytic->build(state, candidates, reference);
    std::vector<Candidate> admitted;
    std::vector<size_t> admittedIndex;
    for (auto [index, b] : llvm::enumerate(built)) {
      if (!b.candidate)
        continue;
      admitted.push_back(candidates[index]);
      admittedIndex.push_back(index);
    }
    if (admitted.empty())
      return built;
    std::vector<BuiltCandidate> compiled =
        compiling->build(state, admitted, /*reference=*/nullptr);
    for (auto [i, c] : llvm::enumerate(compiled)) {
      if (c.candidate)
        continue;
      BuiltCandidate &b = built[admittedIndex[i]];
      b.candidate.reset();
      b.error = (kNotCompiledPrefix + c.error).str();
    }
    return built;
  }
  void prepare(ArrayRef<TaskCandidate> jobs) override {
    compiling->prepare(jobs);
  }
  bool compiles() const override { return false; }
  int64_t getCompiledCount() const override {
    return compiling->getCompiledCount();
  }

private:
  std::unique_ptr<CandidateBuilder> analytic;
  std::unique_ptr<CandidateBuilder> compiling;
};
} // namespace

std::unique_ptr<CandidateBuilder>
mlir::tessel::createCompilingBuilder(const DialectRegistry &registry,
                               std::string chip, std::string cudaPath,
                               unsigned processes, JobLimits limits) {
  return std::make_unique<CompilingBuilder>(
      registry, std::move(chip), std::move(cudaPath), processes, limits);
}

std::unique_ptr<CandidateBuilder>
mlir::tessel::createAnalyticBuilder(JobLimits limits) {
  return std::make_unique<AnalyticBuilder>(limits);
}

std::unique_ptr<CandidateBuilder> mlir::tessel::createCompileCheckedBuilder(
    std::unique_ptr<CandidateBuilder> analytic,
    std::unique_ptr<CandidateBuilder> compiling) {
  return std::make_unique<CompileCheckedBuilder>(std::move(analytic),
                                                 std::move(compiling));
}
