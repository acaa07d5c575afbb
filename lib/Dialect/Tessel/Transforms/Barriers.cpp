//===- Barriers.cpp - Barriers where threads exchange data ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Upstream's barriers cut the kernel into phases: the body of one thread
// forall (one copy round, one virtual thread, one op's threads). The
// iterations of a forall are independent, so accesses of one phase never
// need ordering between threads; only accesses of different phases may.
//
// The analysis walks the body of a launch in program order with the set of
// memory accesses made since the last barrier ("pending"). An access that
// conflicts with a pending access of another phase gets a barrier right
// before it, which empties the set. A conflict is two accesses to one
// buffer, at least one a write; buffers are told apart by their root (the
// allocation or kernel operand under all views), and private (per-thread)
// buffers never conflict. Two writes conflict only as writesConflict says.
// So at most one barrier goes into a phase where upstream put one after it,
// and none where the phases on both sides share no buffer a write touches.
//
// Loops whose bounds are the same for every thread are walked until the set
// at the top of the body stops changing (the back edge: the next step's
// copies overwrite what this step read); what crosses the back edge of a
// loop that contains a barrier belongs to an earlier phase. A loop or branch
// that conflicts with what is pending gets its barrier before it rather than
// in each step. Thread-dependent regions (the `scf.if` of a predicated
// thread forall, loops with thread-dependent bounds) are single steps whose
// accesses are those of everything inside, and keep any barrier inside them.
//
// A pipelined staging loop (PipelineStaging.cpp) orders its multi-buffered
// shared buffers itself: each step waits for its own asynchronous copies,
// then a barrier (marked tessel.pipeline_sync) after which the copies of a
// later step refill the slot the previous step read. The analysis keeps that
// barrier, and leaves out the accesses to the buffers the asynchronous
// copies fill and the marked group operations.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Barriers.h"
#include "tessel/Dialect/Tessel/Transforms/KnownAlignment.h"

#include "tessel/Dialect/Tessel/IR/TesselDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// What a write stores.
enum class Stored {
  /// A value computed or loaded in the kernel.
  Computed,
  /// A constant (a fill), named by `Access::constant`.
  Constant,
  /// Unknown (an op that writes without a plain stored value).
  Unknown,
};

/// One memory access: the buffer's root (null for memory the analysis
/// cannot name, which conflicts with everything), whether it writes, and
/// for a write what it stores.
struct Access {
  Value root;
  bool write = false;
  Stored stored = Stored::Unknown;
  /// The constant a `Stored::Constant` write stores.
  Attribute constant;
  /// The phase of the access (kEarlierPhase: from a previous step of a
  /// loop, a phase of its own).
  int64_t phase = 0;

  auto key() const {
    return std::make_tuple(root.getAsOpaquePointer(), write, stored,
                           constant.getAsOpaquePointer(), phase);
  }
  bool operator<(const Access &other) const { return key() < other.key(); }
  bool operator==(const Access &other) const { return key() == other.key(); }
};
using AccessSet = std::set<Access>;

/// The phase of accesses that crossed the back edge of a loop holding a
/// barrier: earlier than any phase of the current step.
static constexpr int64_t kEarlierPhase = -1;

/// Whether two writes of one buffer by different threads must be ordered.
/// Tiling gives the threads (and the rounds of a copy) of one op disjoint
/// elements, so two stores of computed values write one element only if
/// two ops do, and an op that overwrites another op's result without
/// reading it (which would order them) is a fill followed by a copy: one of
/// the two stores a constant. Two fills of one constant commute.
static bool writesConflict(const Access &a, const Access &b) {
  if (a.stored == Stored::Unknown || b.stored == Stored::Unknown)
    return true;
  if (a.stored == Stored::Computed && b.stored == Stored::Computed)
    return false;
  return !(a.stored == Stored::Constant && b.stored == Stored::Constant &&
           a.constant == b.constant);
}

static bool conflict(const Access &a, const Access &b) {
  if (a.phase == b.phase || (!a.write && !b.write))
    return false;
  if (!a.root || !b.root)
    return true;
  if (a.root != b.root)
    return false;
  return !(a.write && b.write) || writesConflict(a, b);
}

static std::optional<gpu::AddressSpace> getAddressSpace(Value memref) {
  auto type = dyn_cast<BaseMemRefType>(memref.getType());
  auto space = type ? dyn_cast_if_present<gpu::AddressSpaceAttr>(
                          type.getMemorySpace())
                    : nullptr;
  if (!space)
    return std::nullopt;
  return space.getValue();
}

class BarrierPlacer {
public:
  explicit BarrierPlacer(gpu::LaunchOp launch) : launch(launch) {
    launch.getBody().walk([&](nvgpu::DeviceAsyncCopyOp copy) {
      pipelinedBuffers.insert(getBufferRoot(copy.getDst()));
    });
  }

  /// Decides where barriers go; returns their positions (the ops they
  /// precede).
  ArrayRef<Operation *> run() {
    (void)walkBlock(launch.getBody().front(), AccessSet());
    return barrierBefore.getArrayRef();
  }

  /// Numbers the phases (the barriers in pre-order) and returns the
  /// barriers at uniform positions, which run() replaces.
  SmallVector<gpu::BarrierOp> numberPhases() {
    SmallVector<gpu::BarrierOp> uniformBarriers;
    int64_t phase = 0;
    launch.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto barrier = dyn_cast<gpu::BarrierOp>(op)) {
        ++phase;
        // The pipeline's own barrier stays where it is.
        if (isAtUniformPosition(op) &&
            !op->hasAttr(TesselDialect::kPipelineSyncAttrName))
          uniformBarriers.push_back(barrier);
      }
      phaseOf[op] = phase;
      phaseAfter[op] = phase;
      // Ancestors end in the latest phase of what they hold.
      for (Operation *parent = op->getParentOp();
           parent && parent != launch.getOperation();
           parent = parent->getParentOp())
        phaseAfter[parent] = phase;
    });
    return uniformBarriers;
  }

private:
  /// Whether every thread has its own copy of `root`.
  bool isPrivate(Value root) {
    std::optional<gpu::AddressSpace> space = getAddressSpace(root);
    if (space)
      return *space == gpu::AddressSpace::Private;
    // An allocation inside the kernel in the default memory space is the
    // thread's own (a register tile that stayed in memory).
    Operation *def = root.getDefiningOp();
    return def && launch->isProperAncestor(def) &&
           isa<memref::AllocaOp, memref::AllocOp>(def);
  }

  bool isGlobal(Value root) {
    std::optional<gpu::AddressSpace> space = getAddressSpace(root);
    return !isPrivate(root) &&
           (!space || *space == gpu::AddressSpace::Global);
  }

  /// The constant `value` is (a splat or a broadcast scalar), or null.
  static Attribute getConstant(Value value) {
    if (auto broadcast = value.getDefiningOp<vector::BroadcastOp>())
      value = broadcast.getSource();
    Attribute constant;
    if (matchPattern(value, m_Constant(&constant)))
      return constant;
    return {};
  }

  /// What a write of `op` stores: a plain store's value (a constant or a
  /// computed value), a linalg op's results (a fill's constant, otherwise
  /// computed: each output element is written by one iteration), a copy's
  /// source; Unknown for other writers.
  static std::pair<Stored, Attribute> getStored(Operation *op) {
    Value value;
    if (auto write = dyn_cast<vector::TransferWriteOp>(op))
      value = write.getVector();
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      value = store.getValueToStore();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      value = store.getValueToStore();
    else if (auto fill = dyn_cast<linalg::FillOp>(op))
      value = fill.value();
    else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      Block *body = linalgOp.getBlock();
      auto yield = body ? dyn_cast<linalg::YieldOp>(body->getTerminator())
                        : linalg::YieldOp();
      if (yield && yield->getNumOperands() == 1)
        value = yield->getOperand(0);
      else
        return {Stored::Computed, {}};
    } else if (isa<memref::CopyOp>(op)) {
      return {Stored::Computed, {}};
    }
    if (!value)
      return {Stored::Unknown, {}};
    if (Attribute constant = getConstant(value))
      return {Stored::Constant, constant};
    return {Stored::Computed, {}};
  }

  /// Appends the accesses of `op` and everything nested in it.
  void collectAccesses(Operation *op, AccessSet &accesses) {
    if (isa<gpu::BarrierOp>(op) ||
        op->hasAttr(TesselDialect::kPipelineSyncAttrName))
      return;
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (const MemoryEffects::EffectInstance &effect : instances) {
        bool write = isa<MemoryEffects::Write>(effect.getEffect());
        if (!write && !isa<MemoryEffects::Read>(effect.getEffect()))
          continue; // Allocation and free touch no data.
        Value value = effect.getValue();
        if (!value) {
          accesses.insert(
              Access{Value(), write, Stored::Unknown, {}, phaseOf.lookup(op)});
          continue;
        }
        Value root = getBufferRoot(value);
        if (isPrivate(root) || pipelinedBuffers.contains(root))
          continue;
        Access access{root, write, Stored::Unknown, {}, phaseOf.lookup(op)};
        if (write)
          std::tie(access.stored, access.constant) = getStored(op);
        accesses.insert(access);
      }
    } else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
               op->getNumRegions() == 0) {
      // Unknown effects: anything, anywhere.
      accesses.insert(
          Access{Value(), true, Stored::Unknown, {}, phaseOf.lookup(op)});
      return;
    }
    for (Region &region : op->getRegions())
      for (Operation &nested : region.getOps())
        collectAccesses(&nested, accesses);
  }

  /// Whether every thread of the block computes the same `value`.
  bool isUniform(Value value) {
    auto it = uniform.find(value);
    if (it != uniform.end())
      return it->second;
    bool result = computeUniform(value);
    uniform[value] = result;
    return result;
  }

  bool computeUniform(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (owner == launch.getOperation()) {
        gpu::KernelDim3 threads = launch.getThreadIds();
        return value != threads.x && value != threads.y && value != threads.z;
      }
      if (auto loop = dyn_cast<scf::ForOp>(owner))
        return arg == loop.getInductionVar() && isUniformLoop(loop);
      return !launch->isAncestor(owner);
    }
    Operation *def = value.getDefiningOp();
    if (!launch->isProperAncestor(def))
      return true;
    if (isa<gpu::ThreadIdOp, gpu::LaneIdOp>(def) || def->getNumRegions() ||
        !isMemoryEffectFree(def))
      return false;
    return llvm::all_of(def->getOperands(),
                        [&](Value v) { return isUniform(v); });
  }

  /// Whether every thread of the block reaches `op` (or none does).
  bool isAtUniformPosition(Operation *op) {
    for (Operation *parent = op->getParentOp();
         parent != launch.getOperation(); parent = parent->getParentOp()) {
      if (auto loop = dyn_cast<scf::ForOp>(parent); loop && isUniformLoop(loop))
        continue;
      if (auto branch = dyn_cast<scf::IfOp>(parent);
          branch && isUniform(branch.getCondition()))
        continue;
      return false;
    }
    return true;
  }

  bool isUniformLoop(scf::ForOp loop) {
    return isUniform(loop.getLowerBound()) &&
           isUniform(loop.getUpperBound()) && isUniform(loop.getStep());
  }

  static bool conflicts(const AccessSet &pending, const AccessSet &accesses) {
    for (const Access &a : pending)
      for (const Access &b : accesses)
        if (conflict(a, b))
          return true;
    return false;
  }

  /// Walks `block` with `pending` accesses before it; returns the pending
  /// accesses at its end.
  AccessSet walkBlock(Block &block, AccessSet pending) {
    for (Operation &op : block.without_terminator()) {
      if (isa<gpu::BarrierOp>(op)) {
        pending.clear();
        continue;
      }
      if (barrierBefore.contains(&op))
        pending.clear();
      auto uniformLoop = dyn_cast<scf::ForOp>(op);
      if (uniformLoop && !isUniformLoop(uniformLoop))
        uniformLoop = nullptr;
      auto uniformBranch = dyn_cast<scf::IfOp>(op);
      if (uniformBranch && !isUniform(uniformBranch.getCondition()))
        uniformBranch = nullptr;
      if (uniformLoop || uniformBranch) {
        // One barrier before a loop rather than one in each of its steps
        // when what it conflicts with comes from before it.
        AccessSet inside;
        collectAccesses(&op, inside);
        if (conflicts(pending, inside)) {
          barrierBefore.insert(&op);
          pending.clear();
        }
      }
      if (auto loop = uniformLoop) {
        // Iterate to the fixed point of the set at the top of the body
        // (it only grows; barriers are only added).
        // A loop holding a barrier runs each step in phases of its own.
        bool stepsArePhases = phaseAfter.lookup(&op) != phaseOf.lookup(&op);
        AccessSet top = pending, bottom;
        for (unsigned round = 0; round < 8; ++round) {
          bottom = walkBlock(*loop.getBody(), top);
          AccessSet next;
          for (AccessSet *set : {&pending, &bottom})
            for (Access access : *set) {
              if (stepsArePhases)
                access.phase = kEarlierPhase;
              next.insert(access);
            }
          if (next == top)
            break;
          top = std::move(next);
        }
        pending.insert(bottom.begin(), bottom.end());
        continue;
      }
      if (auto branch = uniformBranch) {
        AccessSet after = walkBlock(*branch.thenBlock(), pending);
        if (Block *elseBlock = branch.elseBlock()) {
          AccessSet elseAfter = walkBlock(*elseBlock, pending);
          after.insert(elseAfter.begin(), elseAfter.end());
        } else {
          after.insert(pending.begin(), pending.end());
        }
        pending = std::move(after);
        continue;
      }
      AccessSet accesses;
      collectAccesses(&op, accesses);
      if (conflicts(pending, accesses)) {
        barrierBefore.insert(&op);
        pending.clear();
      }
      pending.insert(accesses.begin(), accesses.end());
    }
    return pending;
  }

  gpu::LaunchOp launch;
  /// The shared buffers asynchronous copies fill, which the pipeline's
  /// barrier orders.
  llvm::DenseSet<Value> pipelinedBuffers;
  llvm::SetVector<Operation *> barrierBefore;
  llvm::DenseMap<Value, bool> uniform;
  /// The phase each op starts in, and the one the last op it holds is in.
  llvm::DenseMap<Operation *, int64_t> phaseOf, phaseAfter;
};

} // namespace

/// How many times a barrier before `op` runs in one thread: the product of
/// the constant trip counts of the loops around it (1 for other loops).
static int64_t getExecutions(Operation *op) {
  int64_t count = 1;
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>()) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (lb && ub && step && *step > 0)
      count *= std::max<int64_t>(0, llvm::divideCeil(*ub - *lb, *step));
  }
  return count;
}

FailureOr<unsigned> tessel::placeBarriersByDependences(gpu::LaunchOp launch,
                                                       std::string &why) {
  if (!launch.getBody().hasOneBlock()) {
    why = "the kernel body has several blocks";
    return failure();
  }
  // A multi-buffered staging loop whose copies stayed synchronous (no
  // cp.async before sm_80) has no pipeline barrier: the buffers' slots are
  // ordered by upstream's barriers, which stay.
  bool pipelined = false, asynchronous = false;
  launch.getBody().walk([&](Operation *op) {
    pipelined |= op->hasAttr(TesselDialect::kPipelineSyncAttrName);
    asynchronous |= isa<nvgpu::DeviceAsyncCopyOp>(op);
  });
  if (pipelined != asynchronous) {
    why = "the kernel has a pipelined staging loop without asynchronous "
          "copies";
    return failure();
  }
  BarrierPlacer placer(launch);
  // Where upstream's barriers were (the op after each), to restore them
  // should the placement execute more barriers than they did.
  // The op after a run of adjacent barriers stands for all of them (the
  // others are erased too).
  llvm::SetVector<Operation *> upstream;
  for (gpu::BarrierOp barrier : placer.numberPhases()) {
    Operation *next = barrier->getNextNode();
    while (isa<gpu::BarrierOp>(next))
      next = next->getNextNode();
    upstream.insert(next);
    barrier.erase();
  }
  ArrayRef<Operation *> positions = placer.run();
  int64_t before = 0, after = 0;
  for (Operation *op : upstream)
    before += getExecutions(op);
  for (Operation *op : positions)
    after += getExecutions(op);
  bool keepUpstream = after > before;
  for (Operation *op : keepUpstream ? upstream.getArrayRef() : positions) {
    OpBuilder builder(op);
    gpu::BarrierOp::create(builder, op->getLoc());
  }
  if (keepUpstream) {
    why = "the dependences need more barriers than upstream's placement";
    return failure();
  }
  return positions.size();
}
