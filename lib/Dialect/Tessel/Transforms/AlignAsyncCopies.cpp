//===- AlignAsyncCopies.cpp - cp.async no wider than its addresses allow --===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Pipelined staging turns a kernel's global-to-shared vector copies into
// `nvgpu.device_async_copy` (cp.async) of the vector's width. A cp.async of
// N bytes needs both addresses N-byte aligned, and nothing checked that: a
// convolution whose window slides by one element per staging step (a
// 3x3 conv's input rows) issued 16-byte copies from addresses 4 bytes apart
// and faulted with CUDA_ERROR_MISALIGNED_ADDRESS on the H100
// (docs/results/gpu-h100-2026-11-27-b). This pass proves each copy's
// alignment as tessel-align-global-accesses does for vector loads (global
// buffers start at `buffer-alignment` bytes; shared buffers at their
// allocation's alignment) and splits a copy into the widest copies its
// addresses allow: 16 bytes of f32 at a 4-byte-aligned address become four
// 4-byte copies. A copy that cannot be done in pieces of 4, 8 or 16 bytes
// (f16 at an odd element) becomes a synchronous load and store, which the
// step's barrier still orders.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/KnownAlignment.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELALIGNASYNCCOPIES
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The bytes of one element `copy` moves.
uint64_t getElementBytes(nvgpu::DeviceAsyncCopyOp copy) {
  return std::max<uint64_t>(
      1, llvm::divideCeil(copy.getSrc().getType().getElementTypeBitWidth(), 8));
}

/// The byte alignment proven for the source and destination of `copy` in
/// `kernel`, and the kernel argument whose base alignment it relies on.
struct CopyAlignment {
  uint64_t bytes = 1;
  std::optional<unsigned> reliedArgument;
};

CopyAlignment getCopyAlignment(nvgpu::DeviceAsyncCopyOp copy,
                               gpu::GPUFuncOp kernel, uint64_t bufferAlignment,
                               KnownTrailingZeros &zeros) {
  uint64_t elementBytes = getElementBytes(copy);
  CopyAlignment result;
  // The source: a buffer the kernel takes starts at `bufferAlignment` (the
  // contract its launches check); any other at its element.
  uint64_t srcBase = elementBytes;
  auto root = dyn_cast<BlockArgument>(getViewRoot(copy.getSrc()));
  bool isArgument = root && root.getOwner() == &kernel.getBody().front();
  if (isArgument && bufferAlignment > elementBytes)
    srcBase = bufferAlignment;
  uint64_t src =
      getKnownAlignment(copy.getSrc(), copy.getSrcIndices(), srcBase, zeros);
  uint64_t dstBase = getSharedBaseAlignment(getViewRoot(copy.getDst()), zeros);
  uint64_t dst =
      getKnownAlignment(copy.getDst(), copy.getDstIndices(), dstBase, zeros);
  result.bytes = std::max(elementBytes, std::min(src, dst));
  if (isArgument && result.bytes > elementBytes)
    result.reliedArgument = root.getArgNumber();
  return result;
}

/// `indices` with the last one advanced by `offset` elements.
SmallVector<Value> advanceLastIndex(OpBuilder &builder, Location loc,
                                    ValueRange indices, int64_t offset) {
  SmallVector<Value> advanced(indices.begin(), indices.end());
  if (offset == 0 || advanced.empty())
    return advanced;
  Value step = arith::ConstantIndexOp::create(builder, loc, offset);
  advanced.back() = arith::AddIOp::create(builder, loc, advanced.back(), step);
  return advanced;
}

/// Replaces `copy` by copies of `chunk` elements each (`chunk` divides the
/// copy's element count). Returns their tokens.
SmallVector<Value> splitCopy(OpBuilder &builder, nvgpu::DeviceAsyncCopyOp copy,
                             int64_t chunk, uint64_t chunkBytes) {
  Location loc = copy.getLoc();
  int64_t count = copy.getDstElements().getSExtValue();
  SmallVector<Value> tokens;
  for (int64_t first = 0; first < count; first += chunk) {
    Value srcElements;
    if (Value total = copy.getSrcElements()) {
      // The zero-filled tail: this piece reads min(max(total - first, 0),
      // chunk) elements.
      Value shifted = arith::SubIOp::create(
          builder, loc, total,
          arith::ConstantIndexOp::create(builder, loc, first));
      Value atLeastZero = arith::MaxSIOp::create(
          builder, loc, shifted, arith::ConstantIndexOp::create(builder, loc, 0));
      srcElements = arith::MinSIOp::create(
          builder, loc, atLeastZero,
          arith::ConstantIndexOp::create(builder, loc, chunk));
    }
    auto piece = nvgpu::DeviceAsyncCopyOp::create(
        builder, loc, copy.getAsyncToken().getType(), copy.getDst(),
        advanceLastIndex(builder, loc, copy.getDstIndices(), first),
        copy.getSrc(),
        advanceLastIndex(builder, loc, copy.getSrcIndices(), first),
        builder.getIndexAttr(chunk), srcElements,
        // cp.async.cg (L1 bypassed) exists for 16 bytes only.
        chunkBytes == 16 && copy.getBypassL1Attr() ? builder.getUnitAttr()
                                                   : UnitAttr());
    tokens.push_back(piece.getAsyncToken());
  }
  return tokens;
}

/// Replaces `copy` by a synchronous vector load (masked when the copy
/// zero-fills a tail) and store.
void copySynchronously(OpBuilder &builder, nvgpu::DeviceAsyncCopyOp copy) {
  Location loc = copy.getLoc();
  int64_t count = copy.getDstElements().getSExtValue();
  auto vectorType =
      VectorType::get({count}, copy.getSrc().getType().getElementType());
  Value value;
  if (Value total = copy.getSrcElements()) {
    Value mask = vector::CreateMaskOp::create(
        builder, loc, VectorType::get({count}, builder.getI1Type()),
        ValueRange{total});
    Value zeros = arith::ConstantOp::create(
        builder, loc, vectorType, builder.getZeroAttr(vectorType));
    value = vector::MaskedLoadOp::create(builder, loc, vectorType,
                                         copy.getSrc(), copy.getSrcIndices(),
                                         mask, zeros);
  } else {
    value = vector::LoadOp::create(builder, loc, vectorType, copy.getSrc(),
                                   copy.getSrcIndices());
  }
  vector::StoreOp::create(builder, loc, value, copy.getDst(),
                          copy.getDstIndices());
}

/// Replaces each use of `token` in a group by `replacements`.
void replaceToken(Value token, ArrayRef<Value> replacements) {
  for (OpOperand &use : llvm::make_early_inc_range(token.getUses())) {
    auto group = dyn_cast<nvgpu::DeviceAsyncCreateGroupOp>(use.getOwner());
    if (!group)
      continue;
    SmallVector<Value> inputs;
    for (Value input : group.getInputTokens()) {
      if (input == token)
        llvm::append_range(inputs, replacements);
      else
        inputs.push_back(input);
    }
    group.getInputTokensMutable().assign(inputs);
  }
}

struct TesselAlignAsyncCopiesPass
    : public tessel::impl::TesselAlignAsyncCopiesBase<
          TesselAlignAsyncCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (bufferAlignment < 0 ||
        (bufferAlignment > 1 && !llvm::isPowerOf2_64(bufferAlignment))) {
      getOperation().emitError()
          << "tessel-align-async-copies: buffer-alignment="
          << bufferAlignment.getValue() << " is not a power of two";
      return signalPassFailure();
    }
    uint64_t baseAlignment = std::max<int64_t>(bufferAlignment, 1);
    OpBuilder builder(&getContext());
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (!kernel.isKernel())
        return;
      KnownTrailingZeros zeros;
      SmallVector<nvgpu::DeviceAsyncCopyOp> copies;
      kernel.walk([&](nvgpu::DeviceAsyncCopyOp copy) { copies.push_back(copy); });
      for (nvgpu::DeviceAsyncCopyOp copy : copies) {
        CopyAlignment alignment =
            getCopyAlignment(copy, kernel, baseAlignment, zeros);
        uint64_t elementBytes = getElementBytes(copy);
        int64_t count = copy.getDstElements().getSExtValue();
        uint64_t bytes = count * elementBytes;
        // The widest piece the addresses allow that divides the copy.
        uint64_t piece = std::min<uint64_t>(alignment.bytes, bytes);
        while (piece > elementBytes && bytes % piece != 0)
          piece /= 2;
        if (piece >= 4 && alignment.reliedArgument && piece > elementBytes)
          kernel.setArgAttr(*alignment.reliedArgument, kBufferAlignmentAttr,
                            builder.getI64IntegerAttr(baseAlignment));
        if (piece == bytes)
          continue;
        if (llvm::any_of(copy.getAsyncToken().getUsers(), [](Operation *user) {
              return !isa<nvgpu::DeviceAsyncCreateGroupOp>(user);
            })) {
          copy.emitError() << "tessel-align-async-copies: a copy of " << bytes
                           << " bytes whose addresses are only known to be "
                           << alignment.bytes
                           << "-byte aligned has a token used outside "
                              "nvgpu.device_async_create_group";
          return signalPassFailure();
        }
        builder.setInsertionPoint(copy);
        if (piece >= 4) {
          SmallVector<Value> tokens = splitCopy(
              builder, copy, static_cast<int64_t>(piece / elementBytes), piece);
          replaceToken(copy.getAsyncToken(), tokens);
        } else {
          copySynchronously(builder, copy);
          replaceToken(copy.getAsyncToken(), {});
        }
        copy->erase();
      }
    });
  }
};

} // namespace
