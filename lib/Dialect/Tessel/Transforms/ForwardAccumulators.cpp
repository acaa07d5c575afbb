//===- ForwardAccumulators.cpp - Epilogues on the register accumulator ----===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A contraction with fused consumers keeps its block's accumulator in a
// workgroup buffer (the fused init, docs/Materialization.md). In a kernel
// whose accumulators live in registers, each thread stores the fill into
// its own elements, loads them into its accumulators before the main loop,
// stores the accumulators after it and loads them back for the epilogue: a
// shared buffer of the whole output tile, two barriers and a store and load
// of every accumulator that no other thread ever reads (issue 41, item 6).
//
// This pass proves that by enumerating the block's threads: every element
// of the buffer is written by one thread at most, and every load of a
// thread reads values the same thread stored earlier in the kernel's
// straight-line code, from the same store at the same position in every
// thread. The loads then become those stored values (the epilogue computes
// on the accumulators' registers), and the buffer, which nothing reads any
// more, goes with its stores.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Dialect/Tessel/Transforms/ThreadIndices.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELFORWARDACCUMULATORS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using tessel::ThreadIndexEvaluator;

namespace {

/// Most threads times accesses times elements the enumeration visits for
/// one buffer; beyond it the buffer is left alone.
constexpr int64_t kMaxEnumeratedElements = 1 << 24;

/// A top-level vector access of the buffer.
struct Access {
  Operation *op;
  ValueRange indices;
  int64_t length;
  bool isStore;
};

/// The top-level vector accesses of `buffer` in `launch`, or nothing when
/// it has any other use (a view, a nested access, another op).
std::optional<SmallVector<Access>> getAccesses(gpu::LaunchOp launch,
                                               Value buffer) {
  Block &body = launch.getBody().front();
  SmallVector<Access> accesses;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (user->getBlock() != &body)
      return std::nullopt;
    if (auto load = dyn_cast<vector::LoadOp>(user);
        load && load.getVectorType().getRank() == 1)
      continue;
    if (auto store = dyn_cast<vector::StoreOp>(user);
        store && store.getBase() == buffer &&
        store.getVectorType().getRank() == 1)
      continue;
    return std::nullopt;
  }
  for (Operation &op : body) {
    if (auto load = dyn_cast<vector::LoadOp>(op); load && load.getBase() == buffer)
      accesses.push_back({load, load.getIndices(),
                          load.getVectorType().getNumElements(), false});
    if (auto store = dyn_cast<vector::StoreOp>(op);
        store && store.getBase() == buffer)
      accesses.push_back({store, store.getIndices(),
                          store.getVectorType().getNumElements(), true});
  }
  return accesses;
}

/// Where a loaded element comes from: the index of a store among the
/// accesses and the element's position in the stored vector.
struct Source {
  int64_t store = -1;
  int64_t position = 0;
  bool operator==(const Source &other) const {
    return store == other.store && position == other.position;
  }
};

/// For each load (in access order), the source of each of its elements,
/// the same in every thread; nothing when a thread reads what it did not
/// store itself, when two threads write one element, or when an index is
/// not a function of the thread id.
std::optional<SmallVector<SmallVector<Source>>>
findSources(gpu::LaunchOp launch, MemRefType type, ArrayRef<Access> accesses) {
  ThreadIndexEvaluator evaluator(launch);
  std::optional<std::array<int64_t, 3>> block = evaluator.getBlockSize();
  if (!block || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t elements = type.getNumElements();
  int64_t threads = (*block)[0] * (*block)[1] * (*block)[2];
  int64_t accessed = 0;
  for (const Access &access : accesses)
    accessed += access.length;
  if (threads * accessed > kMaxEnumeratedElements)
    return std::nullopt;

  // The thread that writes each element (-1: none yet).
  std::vector<int64_t> owner(elements, -1);
  // The last store of the current thread to each element.
  std::vector<Source> written(elements);
  std::optional<SmallVector<SmallVector<Source>>> sources;
  for (int64_t z = 0; z < (*block)[2]; ++z)
    for (int64_t y = 0; y < (*block)[1]; ++y)
      for (int64_t x = 0; x < (*block)[0]; ++x) {
        int64_t thread = (z * (*block)[1] + y) * (*block)[0] + x;
        evaluator.setThread(x, y, z);
        std::fill(written.begin(), written.end(), Source());
        SmallVector<SmallVector<Source>> threadSources;
        for (auto [index, access] : llvm::enumerate(accesses)) {
          // Row-major position of the first element, which with the run
          // stays in the innermost dimension.
          int64_t linear = 0, innermost = 0;
          for (auto [i, value] : llvm::enumerate(access.indices)) {
            std::optional<int64_t> v = evaluator.evaluate(value);
            if (!v || *v < 0 || *v >= shape[i])
              return std::nullopt;
            linear = linear * shape[i] + *v;
            innermost = *v;
          }
          if (access.indices.empty() ||
              innermost + access.length > shape.back())
            return std::nullopt;
          if (access.isStore) {
            for (int64_t e = 0; e < access.length; ++e) {
              int64_t &own = owner[linear + e];
              if (own != -1 && own != thread)
                return std::nullopt;
              own = thread;
              written[linear + e] = {static_cast<int64_t>(index), e};
            }
            continue;
          }
          SmallVector<Source> loaded;
          for (int64_t e = 0; e < access.length; ++e) {
            if (written[linear + e].store < 0)
              return std::nullopt;
            loaded.push_back(written[linear + e]);
          }
          threadSources.push_back(std::move(loaded));
        }
        if (!sources)
          sources = std::move(threadSources);
        else if (*sources != threadSources)
          return std::nullopt;
      }
  return sources;
}

/// The value a load reads, built from the stored values it comes from.
Value buildForwardedValue(OpBuilder &builder, vector::LoadOp load,
                          ArrayRef<Access> accesses,
                          ArrayRef<Source> sources) {
  auto valueOf = [&](const Source &source) {
    return cast<vector::StoreOp>(accesses[source.store].op).getValueToStore();
  };
  VectorType type = load.getVectorType();
  // One store of the same vector, read whole.
  Value first = valueOf(sources.front());
  bool whole = type == first.getType();
  for (auto [i, source] : llvm::enumerate(sources))
    whole &= valueOf(source) == first && source.position == (int64_t)i;
  if (whole)
    return first;
  // Elements of one splat constant (the fill): that constant.
  DenseElementsAttr splat;
  if (matchPattern(first, m_Constant(&splat)) && splat.isSplat() &&
      llvm::all_of(sources, [&](const Source &source) {
        return valueOf(source) == first;
      }))
    return arith::ConstantOp::create(
        builder, load.getLoc(),
        DenseElementsAttr::get(type, splat.getSplatValue<Attribute>()));
  SmallVector<Value> elements;
  for (const Source &source : sources)
    elements.push_back(vector::ExtractOp::create(
        builder, load.getLoc(), valueOf(source), source.position));
  return vector::FromElementsOp::create(builder, load.getLoc(), type,
                                        elements);
}

/// Forwards the accesses of `buffer` in `launch`; true when it removed
/// them all.
bool forwardAccumulator(gpu::LaunchOp launch, Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type))
    return false;
  std::optional<SmallVector<Access>> accesses = getAccesses(launch, buffer);
  if (!accesses || accesses->empty())
    return false;
  std::optional<SmallVector<SmallVector<Source>>> sources =
      findSources(launch, type, *accesses);
  if (!sources)
    return false;

  OpBuilder builder(launch.getContext());
  unsigned next = 0;
  for (const Access &access : *accesses) {
    if (access.isStore)
      continue;
    auto load = cast<vector::LoadOp>(access.op);
    builder.setInsertionPoint(load);
    load.replaceAllUsesWith(
        buildForwardedValue(builder, load, *accesses, (*sources)[next++]));
  }
  for (const Access &access : *accesses)
    access.op->erase();
  return true;
}

struct TesselForwardAccumulatorsPass
    : public tessel::impl::TesselForwardAccumulatorsBase<
          TesselForwardAccumulatorsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> definitions;
    module.walk([&](gpu::LaunchOp launch) {
      for (Operation &op : launch.getBody().front())
        if (isa<memref::GetGlobalOp, memref::AllocaOp>(op) &&
            forwardAccumulator(launch, op.getResult(0)))
          definitions.push_back(&op);
    });
    // The buffers, and the globals nothing refers to any more (found with
    // one walk of the module: a query per global walked it each time, which
    // on a model of a thousand kernels took most of the pass).
    llvm::SetVector<StringAttr> names;
    for (Operation *definition : definitions) {
      if (auto get = dyn_cast<memref::GetGlobalOp>(definition))
        names.insert(get.getNameAttr().getAttr());
      definition->erase();
    }
    if (names.empty())
      return;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&module.getBodyRegion());
    if (!uses)
      return; // An unknown op may hold uses: keep the globals.
    llvm::DenseSet<StringAttr> referenced;
    for (const SymbolTable::SymbolUse &use : *uses)
      referenced.insert(use.getSymbolRef().getRootReference());
    SymbolTable symbols(module);
    for (StringAttr name : names)
      if (Operation *global = symbols.lookup(name);
          global && !referenced.contains(name))
        symbols.erase(global);
  }
};

} // namespace
