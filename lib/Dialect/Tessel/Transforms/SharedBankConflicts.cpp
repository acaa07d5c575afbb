//===- SharedBankConflicts.cpp - Banks a warp's shared accesses hit -------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/SharedBankConflicts.h"
#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Dialect/Tessel/Transforms/KnownAlignment.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Dialect/Tessel/Transforms/ThreadIndices.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELSHAREDBANKCONFLICTS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// A shared-memory access: the buffer, its indices, the bytes a lane
/// touches (0: not analyzed), and how many lanes, from the first, take part
/// (ldmatrix reads the rows only some lanes address).
struct Access {
  Operation *op;
  Value memref;
  ValueRange indices;
  int64_t bytes;
  bool isLoad;
  int64_t lanes = 32;
};

int64_t getElementBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (!element.isIntOrFloat())
    return 0;
  return std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

/// The access of `op`, if it reads or writes shared memory.
std::optional<Access> getSharedAccess(Operation *op) {
  auto make = [](Operation *op, Value memref, ValueRange indices,
                 int64_t elements, bool isLoad) -> std::optional<Access> {
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type || !gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type))
      return std::nullopt;
    return Access{op, memref, indices,
                  elements * getElementBytes(type), isLoad};
  };
  auto vectorElements = [](VectorType type) -> int64_t {
    return type.getRank() == 1 ? type.getNumElements() : 0;
  };
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return make(op, load.getBase(), load.getIndices(),
                vectorElements(load.getVectorType()), true);
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return make(op, store.getBase(), store.getIndices(),
                vectorElements(store.getVectorType()), false);
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return make(op, load.getMemRef(), load.getIndices(), 1, true);
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return make(op, store.getMemRef(), store.getIndices(), 1, false);
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op))
    return make(op, copy.getDst(), copy.getDstIndices(),
                copy.getDstElements().getZExtValue(), false);
  if (auto ldmatrix = dyn_cast<nvgpu::LdMatrixOp>(op)) {
    // Each of the first 8 x numTiles lanes addresses one 16-byte row of an
    // 8 x 8 matrix; the 8 rows of a matrix are one request phase, as a
    // 16-byte-a-lane load's 8 lanes are.
    auto type = cast<MemRefType>(ldmatrix.getSrcMemref().getType());
    int64_t elementBytes = getElementBytes(type);
    std::optional<Access> access =
        make(op, ldmatrix.getSrcMemref(), ldmatrix.getIndices(),
             elementBytes == 0 ? 0 : 16 / elementBytes, true);
    if (access)
      access->lanes = 8 * ldmatrix.getNumTiles();
    return access;
  }
  return std::nullopt;
}

/// Byte address of element `indices` of `memref` relative to the start of
/// its workgroup buffer, for the thread `evaluator` evaluates.
std::optional<int64_t> getByteAddress(Value memref, ArrayRef<int64_t> indices,
                                      ThreadIndexEvaluator &evaluator) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t elementBytes = getElementBytes(type);
  Operation *def = memref.getDefiningOp();
  if (!def || elementBytes == 0)
    return std::nullopt;
  auto linear = [&]() -> std::optional<int64_t> {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset) ||
        llvm::any_of(strides, ShapedType::isDynamic))
      return std::nullopt;
    int64_t element = offset;
    for (auto [index, stride] : llvm::zip(indices, strides))
      element += index * stride;
    return element * elementBytes;
  };
  if (isa<memref::GetGlobalOp, memref::AllocaOp>(def))
    return linear();
  if (auto cast = dyn_cast<memref::CastOp>(def))
    return getByteAddress(cast.getSource(), indices, evaluator);
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    // A view starts `byte_shift` bytes into its (1-D, i8) source.
    std::optional<int64_t> shift = evaluator.evaluate(view.getByteShift());
    std::optional<int64_t> base =
        getByteAddress(view.getSource(), {0}, evaluator);
    std::optional<int64_t> within = linear();
    if (!shift || !base || !within)
      return std::nullopt;
    return *base + *shift + *within;
  }
  if (auto subview = dyn_cast<memref::SubViewOp>(def)) {
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
    SmallVector<OpFoldResult> strides = subview.getMixedStrides();
    auto valueOf = [&](OpFoldResult value) -> std::optional<int64_t> {
      if (auto attr = dyn_cast<Attribute>(value))
        return cast<IntegerAttr>(attr).getInt();
      return evaluator.evaluate(cast<Value>(value));
    };
    SmallVector<int64_t> sourceIndices;
    unsigned next = 0;
    for (unsigned dim = 0; dim < offsets.size(); ++dim) {
      std::optional<int64_t> offset = valueOf(offsets[dim]);
      std::optional<int64_t> stride = valueOf(strides[dim]);
      if (!offset || !stride)
        return std::nullopt;
      int64_t index = dropped.test(dim) ? 0 : indices[next++];
      sourceIndices.push_back(*offset + index * *stride);
    }
    return getByteAddress(subview.getSource(), sourceIndices, evaluator);
  }
  return std::nullopt;
}

/// Lanes a phase of a shared access of `bytes` a lane serves.
int64_t getLanesPerPhase(int64_t bytes) {
  if (bytes > 8)
    return 8;
  if (bytes > 4)
    return 16;
  return 32;
}

} // namespace

SmallVector<SharedAccessConflicts>
tessel::getSharedBankConflicts(gpu::LaunchOp launch, int64_t banks) {
  SmallVector<SharedAccessConflicts> result;
  ThreadIndexEvaluator::Options options;
  options.firstBlock = true;
  options.firstIteration = true;
  ThreadIndexEvaluator evaluator(launch, options);
  std::optional<std::array<int64_t, 3>> block = evaluator.getBlockSize();
  if (!block)
    return result;
  SmallVector<Access> accesses;
  launch.getBody().walk([&](Operation *op) {
    if (std::optional<Access> access = getSharedAccess(op))
      accesses.push_back(*access);
  });
  int64_t threads = (*block)[0] * (*block)[1] * (*block)[2];
  int64_t lanes = std::min<int64_t>(32, threads);
  // Byte address of each access for each lane of the first warp.
  SmallVector<SmallVector<std::optional<int64_t>>> addresses(
      accesses.size(), SmallVector<std::optional<int64_t>>(lanes));
  for (int64_t lane = 0; lane < lanes; ++lane) {
    evaluator.setThread(lane % (*block)[0], (lane / (*block)[0]) % (*block)[1],
                        lane / ((*block)[0] * (*block)[1]));
    for (auto [index, access] : llvm::enumerate(accesses)) {
      SmallVector<int64_t> indices;
      bool known = access.bytes > 0;
      for (Value value : access.indices) {
        std::optional<int64_t> v = evaluator.evaluate(value);
        if (!v) {
          known = false;
          break;
        }
        indices.push_back(*v);
      }
      if (known)
        addresses[index][lane] =
            getByteAddress(access.memref, indices, evaluator);
    }
  }
  // The accesses LLVM's load/store vectorizer combines: in one block, with
  // no barrier, region op or opposite access of the buffer in between,
  // accesses of one buffer whose lanes' addresses are the first access's
  // plus one offset each, covering an aligned 8 or 16 bytes in every lane.
  SmallVector<Value> roots;
  for (const Access &access : accesses)
    roots.push_back(getBufferRoot(access.memref));
  auto isKnown = [&](unsigned index) {
    return accesses[index].bytes > 0 &&
           llvm::all_of(addresses[index],
                        [](std::optional<int64_t> a) { return a.has_value(); });
  };
  // Segment of each access: accesses of one segment share a block and have
  // no barrier or region op between them.
  SmallVector<int64_t> segment(accesses.size(), 0);
  {
    DenseMap<Operation *, unsigned> indexOf;
    for (auto [index, access] : llvm::enumerate(accesses))
      indexOf[access.op] = index;
    int64_t next = 0;
    launch.getBody().walk([&](Block *block) {
      ++next;
      for (Operation &op : *block) {
        if (isa<gpu::BarrierOp>(op) || op.getNumRegions() > 0)
          ++next;
        auto it = indexOf.find(&op);
        if (it != indexOf.end())
          segment[it->second] = next;
      }
    });
  }
  SmallVector<bool> consumed(accesses.size(), false);
  // A load of what an earlier load of the segment read, with no store to the
  // buffer between, is the same value (LLVM keeps one).
  for (unsigned later = 0; later < accesses.size(); ++later) {
    if (!accesses[later].isLoad || !isKnown(later))
      continue;
    for (unsigned earlier = later; earlier-- > 0;) {
      if (segment[earlier] != segment[later])
        break;
      if (roots[earlier] != roots[later])
        continue;
      if (!accesses[earlier].isLoad)
        break;
      if (isKnown(earlier) && accesses[earlier].bytes == accesses[later].bytes &&
          addresses[earlier] == addresses[later]) {
        consumed[later] = true;
        break;
      }
    }
  }
  for (unsigned first = 0; first < accesses.size(); ++first) {
    if (consumed[first])
      continue;
    const Access &access = accesses[first];
    SharedAccessConflicts conflicts;
    conflicts.op = access.op;
    conflicts.isLoad = access.isLoad;
    conflicts.bytesPerLane = access.bytes;
    consumed[first] = true;
    if (!isKnown(first)) {
      result.push_back(conflicts);
      continue;
    }
    // Accesses of the same segment, buffer and direction at one offset from
    // this one in every lane, until an access of the other direction.
    std::map<int64_t, unsigned> byOffset;
    for (unsigned other = first + 1; other < accesses.size(); ++other) {
      if (segment[other] != segment[first])
        break;
      if (roots[other] != roots[first])
        continue;
      if (accesses[other].isLoad != access.isLoad)
        break;
      if (consumed[other] || !isKnown(other))
        continue;
      int64_t offset = *addresses[other][0] - *addresses[first][0];
      bool uniform = true;
      for (int64_t lane = 0; lane < lanes; ++lane)
        uniform &= *addresses[other][lane] - *addresses[first][lane] == offset;
      if (uniform && offset > 0 && !byOffset.count(offset))
        byOffset[offset] = other;
    }
    for (int64_t size : {16, 8}) {
      if (access.bytes >= size)
        break;
      bool aligned = llvm::all_of(addresses[first], [&](auto a) {
        return *a % size == 0;
      });
      SmallVector<unsigned> parts;
      int64_t covered = access.bytes;
      while (aligned && covered < size) {
        auto it = byOffset.find(covered);
        if (it == byOffset.end())
          break;
        parts.push_back(it->second);
        covered += accesses[it->second].bytes;
      }
      if (!aligned || covered != size)
        continue;
      for (unsigned part : parts)
        consumed[part] = true;
      conflicts.bytesPerLane = size;
      break;
    }
    int64_t perPhase = getLanesPerPhase(conflicts.bytesPerLane);
    int64_t active = std::min(lanes, access.lanes);
    for (int64_t phase = 0; phase < active; phase += perPhase) {
      DenseMap<int64_t, llvm::DenseSet<int64_t>> words;
      for (int64_t lane = phase; lane < std::min(active, phase + perPhase);
           ++lane) {
        int64_t address = *addresses[first][lane];
        for (int64_t word = llvm::divideFloorSigned(address, 4);
             word <= llvm::divideFloorSigned(
                         address + conflicts.bytesPerLane - 1, 4);
             ++word)
          words[llvm::mod(word, banks)].insert(word);
      }
      for (auto &[bank, distinct] : words)
        conflicts.degree =
            std::max<int64_t>(conflicts.degree, distinct.size());
    }
    result.push_back(conflicts);
  }
  return result;
}

namespace {

struct TesselSharedBankConflictsPass
    : public tessel::impl::TesselSharedBankConflictsBase<
          TesselSharedBankConflictsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](gpu::LaunchOp launch) {
      SmallVector<SharedAccessConflicts> accesses =
          getSharedBankConflicts(launch);
      int64_t loads = 0, stores = 0;
      for (const SharedAccessConflicts &access : accesses) {
        if (remarks) {
          InFlightDiagnostic remark = access.op->emitRemark()
                                      << "shared " << (access.isLoad ? "load" : "store");
          if (access.degree == 0)
            remark << ": not analyzed";
          else
            remark << " of " << access.bytesPerLane
                   << " bytes a lane: bank-conflict degree " << access.degree;
        }
        int64_t &degree = access.isLoad ? loads : stores;
        degree = std::max(degree, access.degree);
      }
      auto facts = launch->getAttrOfType<DictionaryAttr>(kLaunchFactsAttrName);
      if (!facts || (loads == 0 && stores == 0))
        return;
      NamedAttrList fields(facts);
      Builder b(launch.getContext());
      if (loads > 0)
        fields.set("shared_load_conflicts", b.getI64IntegerAttr(loads));
      if (stores > 0)
        fields.set("shared_store_conflicts", b.getI64IntegerAttr(stores));
      launch->setAttr(kLaunchFactsAttrName, fields.getDictionary(b.getContext()));
    });
  }
};

} // namespace
