//===- KnownAlignment.cpp - Alignment proven from index arithmetic --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/KnownAlignment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tessel;

static unsigned addZeros(unsigned a, unsigned b) {
  return std::min(a + b, KnownTrailingZeros::kMax);
}

unsigned KnownTrailingZeros::get(Value value) {
  auto it = known.find(value);
  if (it != known.end())
    return it->second;
  unsigned zeros = compute(value);
  known[value] = zeros;
  return zeros;
}

unsigned KnownTrailingZeros::compute(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.isZero()
               ? kMax
               : std::min<unsigned>(constant.countr_zero(), kMax);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // An induction variable is lb + i * step.
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (loop && loop.getInductionVar() == arg)
      return std::min(get(loop.getLowerBound()), get(loop.getStep()));
    return 0;
  }
  Operation *op = value.getDefiningOp();
  return llvm::TypeSwitch<Operation *, unsigned>(op)
      .Case<arith::AddIOp, arith::SubIOp, arith::OrIOp, arith::XOrIOp,
            arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(
          [&](Operation *op) {
            return std::min(get(op->getOperand(0)), get(op->getOperand(1)));
          })
      // a rem m = a - q * m.
      .Case<arith::RemSIOp, arith::RemUIOp>([&](Operation *op) {
        return std::min(get(op->getOperand(0)), get(op->getOperand(1)));
      })
      .Case([&](arith::MulIOp op) {
        return addZeros(get(op.getLhs()), get(op.getRhs()));
      })
      .Case([&](arith::AndIOp op) {
        return std::max(get(op.getLhs()), get(op.getRhs()));
      })
      .Case([&](arith::ShLIOp op) -> unsigned {
        APInt shift;
        if (!matchPattern(op.getRhs(), m_ConstantInt(&shift)) ||
            shift.uge(kMax))
          return 0;
        return addZeros(get(op.getLhs()), shift.getZExtValue());
      })
      .Case([&](arith::SelectOp op) {
        return std::min(get(op.getTrueValue()), get(op.getFalseValue()));
      })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp>(
          [&](Operation *op) { return get(op->getOperand(0)); })
      // The NVGPU conversion leaves loops over i64 with casts to index.
      .Case([&](UnrealizedConversionCastOp op) -> unsigned {
        if (op->getNumOperands() != 1 ||
            !op->getOperand(0).getType().isIntOrIndex() ||
            !op->getResult(0).getType().isIntOrIndex())
          return 0;
        return get(op->getOperand(0));
      })
      .Case([&](arith::TruncIOp op) {
        return std::min(get(op.getIn()),
                        op.getType().getIntOrFloatBitWidth());
      })
      .Default([](Operation *) { return 0u; });
}

/// Whether `type` is a memref in global memory (no memory space, or the
/// global one).
bool tessel::isGlobalMemRef(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return true;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Global;
  if (auto integer = dyn_cast<IntegerAttr>(space))
    return integer.getInt() == 1;
  return false;
}

/// The buffer `memref` is a view of: its source through the view-like ops
/// that keep the aligned base pointer (the base buffer of
/// `extract_strided_metadata` included).
Value tessel::getViewRoot(Value memref) {
  while (Operation *op = memref.getDefiningOp()) {
    if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(op)) {
      if (memref != metadata.getBaseBuffer())
        break;
    } else if (!isa<memref::CastOp, memref::SubViewOp,
                    memref::ReinterpretCastOp, memref::CollapseShapeOp,
                    memref::ExpandShapeOp, memref::TransposeOp>(op)) {
      break;
    }
    memref = op->getOperand(0);
  }
  return memref;
}

Value tessel::getBufferRoot(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      memref = view.getViewSource();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      memref = cast.getSource();
    else
      break;
  }
  return memref;
}

/// The trailing zeros known of the element offset of `memref`'s layout
/// (from its aligned base pointer).
static unsigned getOffsetZeros(Value memref, KnownTrailingZeros &zeros) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return 0;
  if (!ShapedType::isDynamic(offset))
    return offset == 0 ? KnownTrailingZeros::kMax
                       : std::min<unsigned>(llvm::countr_zero(
                                                static_cast<uint64_t>(offset)),
                                            KnownTrailingZeros::kMax);
  if (auto cast = memref.getDefiningOp<memref::ReinterpretCastOp>()) {
    OpFoldResult dynamic = cast.getMixedOffsets().front();
    if (auto value = dyn_cast<Value>(dynamic))
      return zeros.get(value);
  }
  return 0;
}

/// The byte alignment of the access of `memref[indices]` known from its
/// layout and indices, assuming its base pointer is `baseAlignment`-aligned.
uint64_t tessel::getKnownAlignment(Value memref, ValueRange indices,
                                   uint64_t baseAlignment,
                                   KnownTrailingZeros &zeros) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return 1;
  unsigned known = getOffsetZeros(memref, zeros);
  for (auto [index, stride] : llvm::zip(indices, strides)) {
    unsigned strideZeros =
        ShapedType::isDynamic(stride)
            ? 0
            : (stride == 0 ? KnownTrailingZeros::kMax
                           : llvm::countr_zero(static_cast<uint64_t>(
                                 stride < 0 ? -stride : stride)));
    known = std::min(known, std::min(zeros.get(index) + strideZeros,
                                     KnownTrailingZeros::kMax));
  }
  uint64_t elementBytes =
      llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  // known <= 32: no overflow.
  uint64_t offsetBytes = (uint64_t(1) << known) * elementBytes;
  return std::min<uint64_t>(baseAlignment, llvm::bit_floor(offsetBytes));
}

bool tessel::isSharedMemRef(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (auto gpuSpace = dyn_cast_if_present<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  if (auto integer = dyn_cast_if_present<IntegerAttr>(space))
    return integer.getInt() == 3;
  return false;
}

uint64_t tessel::getSharedBaseAlignment(Value root,
                                        KnownTrailingZeros &zeros) {
  auto type = cast<MemRefType>(root.getType());
  uint64_t elementBytes =
      std::max<uint64_t>(1, llvm::divideCeil(type.getElementTypeBitWidth(), 8));
  Operation *op = root.getDefiningOp();
  if (!op)
    return elementBytes;
  // The extern array gpu.dynamic_shared_memory lowers to is 16-byte aligned.
  if (isa<gpu::DynamicSharedMemoryOp>(op))
    return 16;
  if (auto view = dyn_cast<memref::ViewOp>(op)) {
    uint64_t source =
        getSharedBaseAlignment(getViewRoot(view.getSource()), zeros);
    unsigned shift = zeros.get(view.getByteShift());
    uint64_t shifted = shift >= 63 ? source : (uint64_t(1) << shift);
    return std::max<uint64_t>(1, std::min(source, shifted));
  }
  if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        get, get.getNameAttr());
    if (global && global.getAlignment())
      return std::max<uint64_t>(*global.getAlignment(), elementBytes);
    return elementBytes;
  }
  if (auto alloca = dyn_cast<memref::AllocaOp>(op))
    return std::max<uint64_t>(alloca.getAlignment().value_or(elementBytes),
                              elementBytes);
  return elementBytes;
}
