//===- CandidateCompiler.cpp - Candidates to launch plans, in parallel ----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Tuner/CandidateCompiler.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Tuning/Measure/CandidateCodec.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"


using namespace mlir;
using namespace mlir::tessel;

CandidateCompiler::CandidateCompiler(const DialectRegistry &registry,
                                     std::string chip, std::string cudaPath,
                                     unsigned processes, JobLimits limits)
    : chip(std::move(chip)), cudaPath(std::move(cudaPath)),
      processes(std::max(processes, 1u)), limits(limits),
      context(std::make_unique<MLIRContext>(
          registry, MLIRContext::Threading::DISABLED)) {
  context->loadAllAvailableDialects();
}

CandidateCompiler::~CandidateCompiler() = default;

/// Compiles one annotated module (text) in `context`.
static CompiledCandidate compileOne(MLIRContext &context, StringRef text,
                                    StringRef pipelineOptions) {
  CompiledCandidate result;
  std::string diagnostics;
  ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error && diagnostics.empty())
      diagnostics = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module) {
    result.error = "cannot parse the candidate: " + diagnostics;
    return result;
  }
  auto func = module->lookupSymbol<func::FuncOp>(kTaskFunctionName);
  if (!func) {
    result.error = "the task module has no @main";
    return result;
  }
  SmallVector<Type> arguments(func.getArgumentTypes());
  SmallVector<Type> results(func.getResultTypes());
  auto options = TesselToCudaOptions::createFromString(pipelineOptions);
  PassManager pm(&context);
  if (!options || failed(buildTesselToCudaPipeline(pm, *options)) ||
      failed(pm.run(*module))) {
    result.error = diagnostics.empty() ? "compilation failed" : diagnostics;
    return result;
  }
  FailureOr<LaunchPlan> plan =
      extractLaunchPlan(*module, kTaskFunctionName, arguments, results);
  if (failed(plan)) {
    result.error = diagnostics;
    return result;
  }
  result.plan = std::make_shared<LaunchPlan>(std::move(*plan));
  return result;
}

std::vector<CompiledCandidate>
CandidateCompiler::compile(TuningTask &task, ArrayRef<Candidate> candidates) {
  std::vector<TaskCandidate> jobs;
  for (const Candidate &candidate : candidates)
    jobs.push_back({&task, &candidate});
  return compile(jobs);
}

std::vector<CompiledCandidate>
CandidateCompiler::compile(ArrayRef<TaskCandidate> jobs) {
  std::vector<CompiledCandidate> results(jobs.size());
  std::vector<std::string> texts(jobs.size());
  std::vector<std::string> keys(jobs.size());
  std::vector<size_t> todo;
  for (auto [index, job] : llvm::enumerate(jobs)) {
    const Candidate &candidate = *job.candidate;
    keys[index] = job.task->workloadKey + "\n" + candidate.getKey();
    auto it = cache.find(keys[index]);
    if (it != cache.end()) {
      results[index] = it->second;
      continue;
    }
    OwningOpRef<ModuleOp> module =
        applySchedule(*job.task, candidate.sketch, candidate.config);
    llvm::raw_string_ostream os(texts[index]);
    module->print(os);
    todo.push_back(index);
  }
  // TF32 candidates exist only when the user allowed them (the sketch
  // rule's includeTf32); the compiler compiles what the search proposes.
  std::string pipeline = "chip=" + chip + " format=bin allow-tf32=true";
  if (!cudaPath.empty())
    pipeline += " cuda-path=" + cudaPath;
  // A child writes "plan\n" and the plan as a candidate's JSON, or
  // "error\n" and the diagnostic.
  std::vector<JobOutcome> outcomes = runIsolatedJobs(
      todo.size(),
      [&](size_t i) -> std::string {
        CompiledCandidate compiled =
            compileOne(*context, texts[todo[i]], pipeline);
        if (!compiled.plan)
          return "error\n" + compiled.error;
        MeasureCandidate carrier;
        carrier.plan = compiled.plan;
        return "plan\n" + encodeCandidate(carrier, context.get());
      },
      processes, limits);
  for (auto [i, outcome] : llvm::enumerate(outcomes)) {
    CompiledCandidate &result = results[todo[i]];
    if (!outcome.finished) {
      result.error = "the compilation " + outcome.failure;
      continue;
    }
    auto [kind, payload] = StringRef(outcome.output).split('\n');
    if (kind == "error") {
      result.error = payload.str();
      continue;
    }
    llvm::Expected<MeasureCandidate> decoded =
        kind == "plan" ? decodeCandidate(payload, context.get())
                       : llvm::Expected<MeasureCandidate>(llvm::createStringError(
                             "no plan in the compiler's output"));
    if (!decoded) {
      result.error = llvm::toString(decoded.takeError());
      continue;
    }
    result.plan = std::move(decoded->plan);
  }
  for (size_t index : todo)
    cache[keys[index]] = results[index];
  compiled += todo.size();
  return results;
}
