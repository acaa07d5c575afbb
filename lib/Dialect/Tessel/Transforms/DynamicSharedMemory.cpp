//===- DynamicSharedMemory.cpp - Shared tiles above the static limit ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The schedule script turns every shared tile into a workgroup
// `memref.global` (16-byte aligned), which the NVVM lowering makes static
// shared memory. CUDA caps static shared memory at 48 KiB a block; tiles of
// the sizes CUTLASS uses (and the extra buffers of a pipelined staging loop)
// need more, which only dynamic shared memory, opted in by the launcher, can
// give. This pass moves the globals of such kernels into the one dynamic
// buffer at the offsets a static layout would give them and sets the
// launches' dynamic size. Kernels within the static limit are left alone.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELDYNAMICSHAREDMEMORY
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {

/// One workgroup global of a kernel and where it goes in the dynamic
/// buffer.
struct SharedBuffer {
  memref::GlobalOp global;
  int64_t offset = 0;
};

/// Whether `type` lives in shared memory.
static bool isWorkgroup(MemRefType type) {
  auto space = dyn_cast_if_present<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// The bytes of a statically shaped global; failure for other shapes.
static FailureOr<int64_t> getByteSize(MemRefType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return failure();
  int64_t bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0)
    return failure();
  return type.getNumElements() * (bits / 8);
}

struct TesselDynamicSharedMemoryPass
    : public tessel::impl::TesselDynamicSharedMemoryBase<
          TesselDynamicSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUFuncOp> kernels;
    module.walk([&](gpu::GPUFuncOp func) {
      if (func.isKernel())
        kernels.push_back(func);
    });
    bool failed = false;
    for (gpu::GPUFuncOp kernel : kernels)
      failed |= mlir::failed(runOnKernel(kernel));
    if (failed)
      signalPassFailure();
  }

  /// Lays out the workgroup globals `kernel` uses in order of first use,
  /// with each use and the index of its buffer; returns the total bytes.
  FailureOr<int64_t>
  layOut(gpu::GPUFuncOp kernel, SmallVectorImpl<SharedBuffer> &buffers,
         SmallVectorImpl<std::pair<memref::GetGlobalOp, unsigned>> &uses) {
    llvm::DenseMap<Operation *, unsigned> index;
    int64_t total = 0;
    WalkResult result = kernel.walk([&](memref::GetGlobalOp get) {
      if (!isWorkgroup(get.getType()))
        return WalkResult::advance();
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      if (!global)
        return WalkResult::advance();
      if (auto it = index.find(global); it != index.end()) {
        uses.push_back({get, it->second});
        return WalkResult::advance();
      }
      FailureOr<int64_t> bytes = getByteSize(global.getType());
      if (mlir::failed(bytes)) {
        global.emitError() << "shared buffer @" << global.getSymName()
                           << " has no static size in bytes";
        return WalkResult::interrupt();
      }
      int64_t alignment = global.getAlignment().value_or(1);
      int64_t offset = llvm::alignTo(total, std::max<int64_t>(alignment, 1));
      index[global] = buffers.size();
      uses.push_back({get, static_cast<unsigned>(buffers.size())});
      buffers.push_back({global, offset});
      total = offset + *bytes;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
    return total;
  }

  LogicalResult runOnKernel(gpu::GPUFuncOp kernel) {
    SmallVector<SharedBuffer> buffers;
    SmallVector<std::pair<memref::GetGlobalOp, unsigned>> uses;
    FailureOr<int64_t> total = layOut(kernel, buffers, uses);
    if (mlir::failed(total))
      return failure();
    if (maxBytes > 0 && *total > maxBytes)
      // Not kernel.emitError(), which would print the generated kernel.
      return mlir::emitError(kernel.getLoc())
             << "kernel '" << kernel.getName() << "' needs " << *total
             << " bytes of shared memory per block, more than the "
             << maxBytes.getValue()
             << " the chip allows; choose smaller shared tiles or fewer "
                "stages";
    if (*total <= staticLimit)
      return success();
    for (SharedBuffer &buffer : buffers)
      if (!buffer.global.getAlignment() ||
          16 % *buffer.global.getAlignment() != 0)
        return buffer.global.emitError()
               << "shared buffer @" << buffer.global.getSymName()
               << " needs an alignment that divides 16 (the dynamic shared "
                  "buffer's)";

    // One view of the dynamic buffer per use of a global; a view of the
    // global's bytes becomes a view of the dynamic buffer directly.
    OpBuilder builder(kernel.getContext());
    builder.setInsertionPointToStart(&kernel.getBody().front());
    MemRefType dynamicType = MemRefType::get(
        {ShapedType::kDynamic}, builder.getI8Type(), AffineMap(),
        gpu::AddressSpaceAttr::get(kernel.getContext(),
                                   gpu::AddressSpace::Workgroup));
    Value base = gpu::DynamicSharedMemoryOp::create(builder, kernel.getLoc(),
                                                    dynamicType);
    for (auto [get, buffer] : uses) {
      int64_t offset = buffers[buffer].offset;
      for (OpOperand &use : llvm::make_early_inc_range(get->getUses())) {
        auto view = dyn_cast<memref::ViewOp>(use.getOwner());
        if (!view || view.getSource() != get.getResult())
          continue;
        builder.setInsertionPoint(view);
        Value shifted;
        APInt constant;
        if (matchPattern(view.getByteShift(), m_ConstantInt(&constant))) {
          shifted = arith::ConstantIndexOp::create(
              builder, view.getLoc(), offset + constant.getSExtValue());
        } else {
          Value start =
              arith::ConstantIndexOp::create(builder, view.getLoc(), offset);
          shifted = arith::AddIOp::create(builder, view.getLoc(), start,
                                          view.getByteShift());
        }
        view.getSourceMutable().assign(base);
        view.getByteShiftMutable().assign(shifted);
      }
      if (!get->use_empty()) {
        builder.setInsertionPoint(get);
        Value start =
            arith::ConstantIndexOp::create(builder, get.getLoc(), offset);
        Value view = memref::ViewOp::create(builder, get.getLoc(),
                                            get.getType(), base, start,
                                            ValueRange());
        get.getResult().replaceAllUsesWith(view);
      }
      get.erase();
    }
    for (SharedBuffer &buffer : buffers)
      if (SymbolTable::symbolKnownUseEmpty(buffer.global,
                                           buffer.global->getParentOp()))
        buffer.global.erase();

    // Every launch of the kernel allocates the buffer.
    auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
    if (!gpuModule)
      return success();
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getKernelModuleName() != gpuModule.getName() ||
          launch.getKernelName() != kernel.getName())
        return;
      builder.setInsertionPoint(launch);
      Value size = arith::ConstantIntOp::create(builder, launch.getLoc(),
                                                *total, /*width=*/32);
      if (Value existing = launch.getDynamicSharedMemorySize())
        size = arith::AddIOp::create(builder, launch.getLoc(), existing, size);
      launch.getDynamicSharedMemorySizeMutable().assign(size);
    });
    return success();
  }
};
} // namespace
