//===- Materialize.cpp - Apply the schedules of annotated ops -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Dialect/Tessel/Transforms/ScheduleScript.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"

#include <mutex>

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELMATERIALIZE
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {
/// While alive, op printing assumes the IR verified (upstream's
/// `--mlir-print-assume-verified`). Upstream's fuse_into_containing_op
/// prints its producer and containing op into a diagnostic before it tries
/// the fusion, and drops it when the fusion succeeds; printing an op builds
/// the printer state of its function, which verifies the whole function
/// first. With one function holding every kernel of a model, each fusion
/// verified the model: BERT-base's materialization took 13 s instead of 5
/// (docs/results/compile-models.md). The interpreter's payload is valid
/// between transforms, and a failing fusion's message prints the same ops.
/// Nested and concurrent scopes share one setting; the last to leave
/// restores the caller's. The lock orders the scopes only: a printer on
/// another thread reads the flag unsynchronised while a scope is open, and
/// at worst skips (or does) that verification. Tessel's own fusion op,
/// which would build no such message, would make this scope unnecessary.
class AssumeVerifiedPrinting {
public:
  AssumeVerifiedPrinting() {
    std::lock_guard<std::mutex> lock(mutex);
    if (depth++ > 0)
      return;
    // Constructs the printer's options if the host did not (a library
    // caller); their defaults change nothing else.
    registerAsmPrinterCLOptions();
    auto &registered = llvm::cl::getRegisteredOptions();
    auto it = registered.find("mlir-print-assume-verified");
    option = it == registered.end()
                 ? nullptr
                 : static_cast<llvm::cl::opt<bool> *>(it->second);
    if (!option)
      return;
    saved = *option;
    *option = true;
  }
  ~AssumeVerifiedPrinting() {
    std::lock_guard<std::mutex> lock(mutex);
    if (--depth == 0 && option)
      *option = saved;
  }

private:
  static inline std::mutex mutex;
  static inline int depth = 0;
  static inline llvm::cl::opt<bool> *option = nullptr;
  static inline bool saved = false;
};

struct TesselMaterializePass
    : public tessel::impl::TesselMaterializeBase<TesselMaterializePass> {
  using Base::Base;

  /// Parses `script` and interprets it on the module.
  LogicalResult apply(StringRef script) {
    ModuleOp module = getOperation();
    if (dumpScripts) {
      llvm::errs() << "// -----// Payload before the next script //----- //\n";
      module.print(llvm::errs());
      llvm::errs() << "// -----// Tessel transform script //----- //\n"
                   << script;
    }
    OwningOpRef<ModuleOp> scriptModule =
        parseSourceString<ModuleOp>(script, &getContext());
    if (!scriptModule)
      return module.emitError() << "internal error: Tessel wrote a transform "
                                   "script that does not parse:\n"
                                << script;
    Operation *entry = scriptModule->lookupSymbol(kScheduleEntryPoint);
    AssumeVerifiedPrinting assumeVerified;
    return transform::applyTransformNamedSequence(
        module, entry, *scriptModule, transform::TransformOptions());
  }

  /// Records the kernel facts of every op of `ops` (found by its anchor)
  /// in `facts`, keyed by anchor.
  void computeFacts(ArrayRef<ScheduledOp> ops,
                   llvm::DenseMap<int64_t, DictionaryAttr> &facts) {
    llvm::DenseMap<int64_t, linalg::LinalgOp> byAnchor;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (auto anchor =
              op->getAttrOfType<IntegerAttr>(TesselDialect::kAnchorAttrName))
        byAnchor[anchor.getInt()] = op;
    });
    for (const ScheduledOp &scheduled : ops) {
      linalg::LinalgOp op = byAnchor.lookup(scheduled.anchor);
      if (!op)
        continue;
      SmallVector<linalg::LinalgOp> consumers;
      for (int64_t anchor : scheduled.consumerAnchors)
        if (linalg::LinalgOp consumer = byAnchor.lookup(anchor))
          consumers.push_back(consumer);
      FailureOr<KernelFacts> kernel = computeKernelFacts(
          op, consumers, scheduled.sketch, scheduled.config);
      if (succeeded(kernel))
        facts[scheduled.anchor] = kernel->toAttribute(&getContext());
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::vector<ScheduledOp>> ops = prepareScheduledOps(module);
    if (failed(ops))
      return signalPassFailure();
    if (ops->empty())
      return;
    llvm::DenseMap<int64_t, DictionaryAttr> facts;
    if (recordFacts)
      computeFacts(*ops, facts);
    ScheduleScriptOptions options;
    options.stopBeforeGpuMapping = stopBeforeGpuMapping;
    options.asyncCopies = asyncCopies;
    options.allowTf32 = allowTf32;
    if (failed(apply(
            buildScheduleScript(*ops, options, ScheduleScriptPart::Tiling))))
      return signalPassFailure();

    // Bufferization may have added ops (copies that resolve conflicts, the
    // fill of a padded buffer): each becomes a kernel of its own.
    int64_t firstAnchor = 0;
    for (const ScheduledOp &op : *ops)
      firstAnchor = std::max(firstAnchor, op.anchor + 1);
    FailureOr<std::vector<ScheduledOp>> leftovers =
        prepareLeftoverOps(module, firstAnchor);
    if (failed(leftovers))
      return signalPassFailure();
    if (!leftovers->empty()) {
      if (recordFacts)
        computeFacts(*leftovers, facts);
      ScheduleScriptOptions onBuffers = options;
      onBuffers.onBuffers = true;
      if (failed(apply(buildScheduleScript(*leftovers, onBuffers,
                                           ScheduleScriptPart::Tiling))))
        return signalPassFailure();
      ops->insert(ops->end(), leftovers->begin(), leftovers->end());
    }
    llvm::SmallSetVector<int64_t, 4> unrollCounts, lateUnrollCounts;
    module.walk([&](Operation *op) {
      if (auto trips =
              op->getAttrOfType<IntegerAttr>(TesselDialect::kUnrollAttrName))
        unrollCounts.insert(trips.getInt());
      if (auto trips = op->getAttrOfType<IntegerAttr>(
              TesselDialect::kUnrollLateAttrName))
        lateUnrollCounts.insert(trips.getInt());
    });
    options.unrollCounts = llvm::to_vector(unrollCounts);
    options.lateUnrollCounts = llvm::to_vector(lateUnrollCounts);
    if (failed(apply(
            buildScheduleScript(*ops, options, ScheduleScriptPart::Mapping))))
      return signalPassFailure();

    // Each kernel carries the facts of its op until it is outlined.
    if (!recordFacts)
      return;
    module.walk([&](gpu::LaunchOp launch) {
      auto anchor =
          launch->getAttrOfType<IntegerAttr>(TesselDialect::kKernelAttrName);
      if (!anchor)
        return;
      if (DictionaryAttr kernel = facts.lookup(anchor.getInt()))
        launch->setAttr(kLaunchFactsAttrName, kernel);
    });
  }
};
} // namespace
