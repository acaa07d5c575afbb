//===- PipelineStaging.cpp - Software-pipelined shared-memory staging -----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/PipelineStaging.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tessel;

/// Marks the synchronization ops a pipelined staging loop adds.
static constexpr StringLiteral kPipelineMark =
    TesselDialect::kPipelineSyncAttrName;
/// Each slot of a multi-buffered shared buffer starts at a multiple of this
/// many bytes (the widest cp.async).
static constexpr int64_t kSlotAlignment = 16;

static bool isShared(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  auto space =
      memref ? dyn_cast_if_present<gpu::AddressSpaceAttr>(memref.getMemorySpace())
             : nullptr;
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

namespace {
/// What the ops nested in one op of the loop body do to memory.
struct MemoryAccess {
  bool readsShared = false;
  bool writesShared = false;
  bool touchesOther = false;

  /// A cooperative load: it fills shared memory from elsewhere.
  bool isLoad() const { return writesShared && !readsShared && !touchesOther; }
};
} // namespace

static MemoryAccess getMemoryAccess(Operation *root) {
  MemoryAccess access;
  root->walk([&](Operation *op) {
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface) {
      if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
          !op->hasTrait<OpTrait::IsTerminator>())
        access.touchesOther = true;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(effect.getEffect()))
        continue;
      Value value = effect.getValue();
      bool write = isa<MemoryEffects::Write>(effect.getEffect());
      if (!value || !isShared(value.getType())) {
        // Reads of global memory are what a load does; anything else
        // (writes elsewhere, unknown targets) is the math's.
        if (write || !value)
          access.touchesOther = true;
        continue;
      }
      (write ? access.writesShared : access.readsShared) = true;
    }
  });
  return access;
}

/// Whether the shared buffer `alloca` is a byte array seen only through
/// `memref.view`s in the body of `loop` (as promotion makes them).
static bool isViewedByteArray(memref::AllocaOp alloca, scf::ForOp loop) {
  MemRefType type = alloca.getType();
  return type.getRank() == 1 && type.getElementType().isInteger(8) &&
         llvm::all_of(alloca->getUsers(), [&](Operation *user) {
           return isa<memref::ViewOp>(user) &&
                  user->getBlock() == loop.getBody();
         });
}

/// Gives every shared buffer that the `loads` of `loop` fill `stages` slots:
/// step i uses slot ((i - lb) / step) mod stages. The buffers are workgroup
/// `memref.alloca`s outside the loop, used only inside it: byte arrays seen
/// through views (promoted operands), whose views move by the slot, or typed
/// buffers (inlined producers' tiles), which become a view of a byte array
/// at the slot.
static LogicalResult
multiBufferSharedBuffers(RewriterBase &rewriter, scf::ForOp loop,
                         ArrayRef<Operation *> loads, int64_t lb, int64_t step,
                         int64_t stages, std::string &why) {
  // The buffers the loads fill (other shared buffers, such as a fused
  // accumulator, hold one value across all steps).
  llvm::SetVector<memref::AllocaOp> buffers;
  for (Operation *load : loads)
    load->walk([&](Operation *op) {
      for (Value operand : op->getOperands()) {
        if (!isShared(operand.getType()))
          continue;
        while (auto viewLike = operand.getDefiningOp<ViewLikeOpInterface>())
          operand = viewLike.getViewSource();
        auto alloca = operand.getDefiningOp<memref::AllocaOp>();
        if (alloca && !loop->isAncestor(alloca))
          buffers.insert(alloca);
      }
    });
  for (memref::AllocaOp alloca : buffers) {
    MemRefType type = alloca.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat())
      return why = "a shared buffer has no static shape", failure();
    for (Operation *user : alloca->getUsers())
      if (!loop->isAncestor(user))
        return why = "a shared buffer is used outside the staging loop",
               failure();
  }

  Location loc = loop.getLoc();
  rewriter.setInsertionPointToStart(loop.getBody());
  AffineExpr iv = rewriter.getAffineDimExpr(0);
  Value slot = affine::AffineApplyOp::create(
      rewriter, loc, ((iv - lb).floorDiv(step)) % stages,
      ValueRange{loop.getInductionVar()});
  Type byte = rewriter.getI8Type();
  for (memref::AllocaOp alloca : buffers) {
    MemRefType type = alloca.getType();
    int64_t bytes =
        type.getNumElements() * type.getElementTypeBitWidth() / 8;
    int64_t slotBytes = llvm::alignTo(bytes, kSlotAlignment);
    rewriter.setInsertionPoint(alloca);
    auto multiType = MemRefType::get({slotBytes * stages}, byte,
                                     MemRefLayoutAttrInterface(),
                                     type.getMemorySpace());
    auto multi = memref::AllocaOp::create(rewriter, alloca.getLoc(), multiType,
                                          alloca.getAlignmentAttr());
    AffineExpr shift = rewriter.getAffineDimExpr(0);
    AffineExpr index = rewriter.getAffineDimExpr(1);
    AffineMap atSlot = AffineMap::get(2, 0, shift + index * slotBytes);
    if (isViewedByteArray(alloca, loop)) {
      for (Operation *user : llvm::to_vector(alloca->getUsers())) {
        auto view = cast<memref::ViewOp>(user);
        rewriter.setInsertionPoint(view);
        Value shifted = affine::AffineApplyOp::create(
            rewriter, view.getLoc(), atSlot,
            ValueRange{view.getByteShift(), slot});
        rewriter.modifyOpInPlace(view, [&] {
          view.getSourceMutable().assign(multi);
          view.getByteShiftMutable().assign(shifted);
        });
      }
    } else {
      rewriter.setInsertionPointAfter(slot.getDefiningOp());
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value shifted = affine::AffineApplyOp::create(rewriter, loc, atSlot,
                                                    ValueRange{zero, slot});
      Value view = memref::ViewOp::create(rewriter, loc, type, multi, shifted,
                                          ValueRange());
      rewriter.replaceAllUsesWith(alloca, view);
    }
    rewriter.eraseOp(alloca);
  }
  return success();
}

/// Backward slices within `body`, the op itself and the values its regions
/// use included.
static BackwardSliceOptions getBodySliceOptions(Block *body) {
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitUsesFromAbove = false;
  options.filter = [body](Operation *op) { return op->getBlock() == body; };
  return options;
}

/// The first op of `body` that is not one of the loads' ops (`early`), or
/// null.
static Operation *getFirstLateOp(Block *body,
                                 const llvm::SetVector<Operation *> &early) {
  for (Operation &op : body->without_terminator())
    if (!early.contains(&op))
      return &op;
  return nullptr;
}

/// Gives the ops of `late` their own copies of the side-effect-free ops they
/// share with the loads (`early`), so that no value crosses stages.
static void separateSharedValues(RewriterBase &rewriter, Block *body,
                                 const llvm::SetVector<Operation *> &early) {
  BackwardSliceOptions options = getBodySliceOptions(body);
  llvm::SetVector<Operation *> lateSlice;
  for (Operation &op : body->without_terminator())
    if (!early.contains(&op))
      (void)getBackwardSlice(&op, &lateSlice, options);

  Operation *firstLate = getFirstLateOp(body, early);
  if (!firstLate)
    return;
  IRMapping mapping;
  rewriter.setInsertionPoint(firstLate);
  for (Operation &op : body->without_terminator()) {
    if (!early.contains(&op) || !lateSlice.contains(&op))
      continue;
    Operation *clone = rewriter.clone(op, mapping);
    for (auto [from, to] : llvm::zip(op.getResults(), clone->getResults()))
      rewriter.replaceUsesWithIf(from, to, [&](OpOperand &use) {
        Operation *owner = body->findAncestorOpInBlock(*use.getOwner());
        return owner && !early.contains(owner);
      });
  }
}

FailureOr<scf::ForOp> tessel::pipelineStagingLoop(RewriterBase &rewriter,
                                                  scf::ForOp loop,
                                                  int64_t stages,
                                                  std::string &why) {
  if (stages < 2)
    return loop;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return why = "the staging loop has dynamic bounds", failure();
  int64_t trips = llvm::divideCeilSigned(*ub - *lb, *step);
  if (trips < stages)
    return why = "the staging loop has " + std::to_string(trips) +
                 " steps, fewer than the " + std::to_string(stages) +
                 " stages",
           failure();
  if (loop.getNumRegionIterArgs() != 0)
    return why = "the staging loop carries values", failure();

  // The loads and everything in the body they depend on are stage 0.
  Block *body = loop.getBody();
  SmallVector<Operation *> loads;
  for (Operation &op : body->without_terminator())
    if (getMemoryAccess(&op).isLoad())
      loads.push_back(&op);
  if (loads.empty())
    return why = "the staging loop loads nothing into shared memory",
           failure();
  bool hasMath = llvm::any_of(body->without_terminator(), [&](Operation &op) {
    return !isMemoryEffectFree(&op) && !llvm::is_contained(loads, &op);
  });
  if (!hasMath)
    return why = "the staging loop computes nothing", failure();

  if (failed(multiBufferSharedBuffers(rewriter, loop, loads, *lb, *step, stages,
                                      why)))
    return failure();

  Location loc = loop.getLoc();
  rewriter.setInsertionPointAfter(loads.back());
  auto commit = NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
  commit->setAttr(kPipelineMark, rewriter.getUnitAttr());

  BackwardSliceOptions options = getBodySliceOptions(body);
  llvm::SetVector<Operation *> early;
  for (Operation *load : loads)
    (void)getBackwardSlice(load, &early, options);
  early.insert(commit);
  separateSharedValues(rewriter, body, early);

  // Each step starts by waiting until its own loads are done (of the
  // groups committed so far, S - 1 by the prologue and one by each earlier
  // step, the S - 2 latest may be pending) and a barrier, after which every
  // thread sees them and every thread has finished the previous step's
  // math. Only then are the loads of step i + S - 1 issued: they fill the
  // slot that math read. One barrier per step orders both.
  Operation *firstLate = getFirstLateOp(body, early);
  rewriter.setInsertionPoint(firstLate);
  auto wait = NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, stages - 2);
  wait->setAttr(kPipelineMark, rewriter.getUnitAttr());
  auto barrier = gpu::BarrierOp::create(rewriter, loc);
  barrier->setAttr(kPipelineMark, rewriter.getUnitAttr());

  std::vector<std::pair<Operation *, unsigned>> schedule;
  schedule.emplace_back(wait, stages - 1);
  schedule.emplace_back(barrier, stages - 1);
  for (Operation &op : body->without_terminator())
    if (early.contains(&op))
      schedule.emplace_back(&op, 0);
  for (Operation &op : body->without_terminator())
    if (!early.contains(&op) && &op != wait && &op != barrier)
      schedule.emplace_back(&op, stages - 1);

  scf::PipeliningOption pipelining;
  pipelining.getScheduleFn =
      [&](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &ops) {
        ops = schedule;
      };
  // No peeled epilogue (it would repeat the math, unrolled, S - 1 times):
  // the loop runs every step of the math, and the loads of the steps past
  // the end are skipped. Their groups are still committed, empty, so that
  // every step waits for the same count.
  pipelining.peelEpilogue = false;
  pipelining.predicateFn = [](RewriterBase &rewriter, Operation *op,
                              Value predicate) -> Operation * {
    if (isMemoryEffectFree(op) || op->hasAttr(kPipelineMark))
      return op;
    if (op->getNumResults() != 0)
      return nullptr;
    rewriter.setInsertionPoint(op);
    auto guard = scf::IfOp::create(rewriter, op->getLoc(), predicate,
                                   /*withElseRegion=*/false);
    rewriter.moveOpBefore(op, guard.thenBlock()->getTerminator());
    return guard;
  };
  bool modified = false;
  // The prologue goes before the loop.
  rewriter.setInsertionPoint(loop);
  FailureOr<scf::ForOp> pipelined =
      scf::pipelineForLoop(rewriter, loop, pipelining, &modified);
  if (failed(pipelined)) {
    why = "the loop pipeliner rejected the staging loop";
    return failure();
  }
  return pipelined;
}

void tessel::makeStagingCopiesAsync(RewriterBase &rewriter, Operation *root) {
  SmallVector<gpu::LaunchOp> kernels;
  root->walk([&](gpu::LaunchOp launch) {
    bool pipelined = false;
    launch->walk([&](NVVM::CpAsyncCommitGroupOp commit) {
      pipelined |= commit->hasAttr(kPipelineMark);
    });
    if (pipelined)
      kernels.push_back(launch);
  });
  for (gpu::LaunchOp launch : kernels) {
    nvgpu::createAsyncGroups(rewriter, launch, /*bypassL1=*/true);
    // One group per step, committed and awaited where the pipeline's marks
    // are, instead of a group and a wait per run of copies.
    SmallVector<Operation *> perCopyGroups;
    launch->walk([&](Operation *op) {
      if (isa<nvgpu::DeviceAsyncWaitOp, nvgpu::DeviceAsyncCreateGroupOp>(op))
        perCopyGroups.push_back(op);
    });
    // Waits use the groups' tokens: erase them first.
    llvm::stable_sort(perCopyGroups, [](Operation *a, Operation *b) {
      return isa<nvgpu::DeviceAsyncWaitOp>(a) &&
             !isa<nvgpu::DeviceAsyncWaitOp>(b);
    });
    for (Operation *op : perCopyGroups)
      rewriter.eraseOp(op);
  }
}

void tessel::eraseStagingSynchronization(Operation *root) {
  SmallVector<Operation *> marks;
  root->walk([&](Operation *op) {
    if (op->hasAttr(kPipelineMark))
      marks.push_back(op);
  });
  for (Operation *op : marks)
    op->erase();
}
