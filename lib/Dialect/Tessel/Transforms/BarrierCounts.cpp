//===- BarrierCounts.cpp - Barriers a kernel's threads wait at ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/BarrierCounts.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"
#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Dialect/Tessel/Transforms/KnownAlignment.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/ADT/TypeSwitch.h"

#include <utility>

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELCOUNTBARRIERS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

/// The buffer `op` loads synchronously, if it is a load.
static Value getLoadedMemRef(Operation *op) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([](memref::LoadOp load) { return load.getMemRef(); })
      .Case([](vector::LoadOp load) { return load.getBase(); })
      .Case([](vector::TransferReadOp read) { return read.getBase(); })
      .Case([](vector::MaskedLoadOp load) { return load.getBase(); })
      .Default([](Operation *) { return Value(); });
}

namespace {

/// Walks a kernel body in program order, carrying whether the thread has
/// loaded global memory since its last barrier.
class BarrierCounter {
public:
  KernelBarrierCounts counts;

  /// Visits `block` executed `times` times in a row as one iteration each
  /// time would (the caller splits first and later iterations), entering
  /// with `loaded`; returns whether a global load is pending at its end.
  bool visitBlock(Block &block, int64_t times, bool loaded) {
    for (Operation &op : block) {
      if (isa<gpu::BarrierOp>(op)) {
        counts.barriers += times;
        if (loaded)
          counts.loadBarriers += times;
        loaded = false;
        continue;
      }
      if (Value memref = getLoadedMemRef(&op)) {
        auto type = dyn_cast<MemRefType>(memref.getType());
        loaded |= type && isGlobalMemRef(type);
        continue;
      }
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        loaded = visitLoop(loop.getBody(), getTripCount(loop), times, loaded);
        continue;
      }
      if (auto branch = dyn_cast<scf::IfOp>(op)) {
        loaded = visitBranches(branch, times, loaded);
        continue;
      }
      // Other ops with regions (scf.while, execute_region, ...): once.
      for (Region &region : op.getRegions()) {
        if (region.empty())
          continue;
        counts.exact = false;
        loaded = visitBlock(region.front(), times, loaded);
      }
    }
    return loaded;
  }

private:
  /// Iterations of `loop`; its constant upper bound's when the bounds are
  /// not constant (inexact), 1 when there is none.
  int64_t getTripCount(scf::ForOp loop) {
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (lower && upper && step && *step > 0)
      return *upper > *lower ? llvm::divideCeil(*upper - *lower, *step) : 0;
    counts.exact = false;
    if (!step || *step <= 0)
      return 1;
    FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, {loop.getUpperBound(), std::nullopt},
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    FailureOr<int64_t> low = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::LB, {loop.getLowerBound(), std::nullopt},
        /*stopCondition=*/nullptr);
    if (failed(bound) || failed(low))
      return 1;
    return *bound > *low ? llvm::divideCeil(*bound - *low, *step) : 0;
  }

  /// A loop body run `trips` times per execution of the loop: the first
  /// iteration enters with `loaded`, the later ones with what the previous
  /// iteration left pending (the same from the second iteration on).
  bool visitLoop(Block *body, int64_t trips, int64_t times, bool loaded) {
    if (trips <= 0)
      return loaded;
    bool pending = visitBlock(*body, times, loaded);
    if (trips > 1)
      pending = visitBlock(*body, times * (trips - 1), pending);
    return pending;
  }

  /// Both branches from the same state; the counts of the branch with more
  /// barriers (a thread takes one of them).
  bool visitBranches(scf::IfOp branch, int64_t times, bool loaded) {
    KernelBarrierCounts before = counts;
    bool thenLoaded = visitBlock(branch.getThenRegion().front(), times, loaded);
    if (branch.getElseRegion().empty())
      return thenLoaded || loaded;
    KernelBarrierCounts afterThen = std::exchange(counts, before);
    counts.exact = afterThen.exact;
    bool elseLoaded = visitBlock(branch.getElseRegion().front(), times, loaded);
    if (std::make_pair(afterThen.barriers, afterThen.loadBarriers) >
        std::make_pair(counts.barriers, counts.loadBarriers)) {
      counts.barriers = afterThen.barriers;
      counts.loadBarriers = afterThen.loadBarriers;
    }
    return thenLoaded || elseLoaded;
  }
};

} // namespace

KernelBarrierCounts tessel::countKernelBarriers(gpu::LaunchOp launch) {
  BarrierCounter counter;
  counter.visitBlock(launch.getBody().front(), /*times=*/1, /*loaded=*/false);
  return counter.counts;
}

std::optional<KernelBarrierCounts>
tessel::estimateKernelBarriers(linalg::LinalgOp op, SketchAttr sketch,
                               ConfigAttr config, const LoopNest &nest) {
  if (!linalg::isaContractionOpInterface(op) ||
      sketch.getKind() != SketchKind::MultiLevelTiling ||
      !sketch.getRegisterAccumulator() || sketch.getFusedConsumers() > 0 ||
      !sketch.getInlined().empty())
    return std::nullopt;
  KernelBarrierCounts counts;
  if (sketch.getShared().empty())
    return counts;
  SmallVector<SmallVector<int64_t>> tiles = getTileVectors(config);
  int64_t steps = 1;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (nest.isReduction[loop])
      steps *= tiles[loop].front();
  bool pipelined = config.getStages() > 1;
  counts.barriers = pipelined ? steps : 2 * steps;
  counts.loadBarriers = pipelined ? 0 : steps;
  return counts;
}

namespace {

struct TesselCountBarriersPass
    : public tessel::impl::TesselCountBarriersBase<TesselCountBarriersPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](gpu::LaunchOp launch) {
      KernelBarrierCounts counts = countKernelBarriers(launch);
      if (remarks)
        launch.emitRemark() << "barriers per thread: " << counts.barriers
                            << ", after global loads: " << counts.loadBarriers
                            << (counts.exact ? "" : " (loop bounds not constant)");
      auto facts = launch->getAttrOfType<DictionaryAttr>(kLaunchFactsAttrName);
      if (!facts)
        return;
      NamedAttrList fields(facts);
      Builder b(launch.getContext());
      fields.set("barriers", b.getI64IntegerAttr(counts.barriers));
      fields.set("load_barriers", b.getI64IntegerAttr(counts.loadBarriers));
      launch->setAttr(kLaunchFactsAttrName,
                      fields.getDictionary(b.getContext()));
    });
  }
};

} // namespace
