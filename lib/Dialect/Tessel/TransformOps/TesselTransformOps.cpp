//===- TesselTransformOps.cpp - Tessel transform extension ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TransformOps/TesselTransformOps.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/Transforms/KernelHoisting.h"
#include "tessel/Dialect/Tessel/Transforms/PipelineStaging.h"
#include "tessel/Dialect/Tessel/Transforms/SharedPadding.h"
#include "tessel/Dialect/Tessel/Transforms/WarpMma.h"
#include "tessel/Dialect/Tessel/Transforms/WindowAccesses.h"
#include "tessel/Tuning/Search/Task.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::tessel;

//===----------------------------------------------------------------------===//
// MatchWorkloadOp
//===----------------------------------------------------------------------===//

LogicalResult transform::MatchWorkloadOp::verify() {
  // A workload key starts with the op's full name and its inputs:
  // "<dialect>.<op> ins(...".
  StringRef workload = getWorkload();
  auto [name, rest] = workload.split(' ');
  if (!name.contains('.') || !rest.starts_with("ins("))
    return emitOpError("expects 'workload' to be a workload key "
                       "\"<dialect>.<op> ins(...) outs(...) ...\" as "
                       "tessel-tune stores it, got \"")
           << workload << "\"";
  return success();
}

DiagnosedSilenceableFailure
transform::MatchWorkloadOp::matchOperation(Operation *current,
                                           transform::TransformResults &,
                                           transform::TransformState &) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(current);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return emitSilenceableFailure(current->getLoc())
           << "not a linalg op on tensors";
  SmallVector<Operation *> consumers = getTaskConsumers(linalgOp);
  SmallVector<int64_t> inlinedInputs = getTaskInlinedInputs(linalgOp);
  std::string key = getWorkloadKey(linalgOp, consumers, inlinedInputs);
  // A run that ignored float constants stored its records under that key.
  if (key != getWorkload() &&
      getWorkloadKey(linalgOp, consumers, inlinedInputs,
                     TaskEquality::IgnoreFloatConstants) != getWorkload())
    return emitSilenceableFailure(current->getLoc())
           << "workload \"" << key << "\" is not the expected one";
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// PipelineSharedStagesOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
transform::PipelineSharedStagesOp::apply(transform::TransformRewriter &rewriter,
                                         transform::TransformResults &results,
                                         transform::TransformState &state) {
  ArrayRef<Attribute> params = state.getParams(getStages());
  auto stages = params.size() == 1 ? dyn_cast<IntegerAttr>(params.front())
                                   : IntegerAttr();
  if (!stages)
    return emitDefiniteFailure() << "expects 'stages' to hold one integer";
  SmallVector<Operation *> pipelined;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto loop = dyn_cast<scf::ForOp>(target);
    if (!loop)
      return emitDefiniteFailure() << "expects scf.for loops";
    std::string why;
    FailureOr<scf::ForOp> result =
        pipelineStagingLoop(rewriter, loop, stages.getInt(), why);
    if (failed(result))
      return emitDefiniteFailure()
             << "cannot pipeline the staging loop over " << stages.getInt()
             << " stages: " << why;
    pipelined.push_back(*result);
  }
  results.set(cast<OpResult>(getPipelined()), pipelined);
  return DiagnosedSilenceableFailure::success();
}

void transform::PipelineSharedStagesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  onlyReadsHandle(getStagesMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// AsyncStagingCopiesOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
transform::AsyncStagingCopiesOp::apply(transform::TransformRewriter &rewriter,
                                       transform::TransformResults &,
                                       transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget())) {
    if (getSynchronous())
      eraseStagingSynchronization(target);
    else
      makeStagingCopiesAsync(rewriter, target);
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::AsyncStagingCopiesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// PadPromotedTilesOp
//===----------------------------------------------------------------------===//

LogicalResult transform::PadPromotedTilesOp::verify() {
  if (getOperands().size() != getPad().size())
    return emitOpError() << "has " << getOperands().size() << " operands but "
                         << getPad().size() << " pads";
  for (int64_t elements : getPad())
    if (elements < 0)
      return emitOpError() << "pad " << elements << " must not be negative";
  return success();
}

DiagnosedSilenceableFailure
transform::PadPromotedTilesOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &,
                                     transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto op = dyn_cast<linalg::LinalgOp>(target);
    if (!op)
      return emitDefiniteFailure() << "expects linalg ops";
    for (auto [operand, elements] : llvm::zip(getOperands(), getPad())) {
      if (operand < 0 || operand >= op.getNumDpsInputs())
        return emitDefiniteFailure()
               << "input " << operand << " does not exist";
      std::string why;
      if (failed(padPromotedTile(rewriter, *op.getDpsInputOperand(operand),
                                 elements, why)))
        return emitDefiniteFailure() << "cannot pad a shared tile: " << why;
    }
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::PadPromotedTilesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// InitFromEmptyOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
transform::InitFromEmptyOp::apply(transform::TransformRewriter &rewriter,
                                  transform::TransformResults &,
                                  transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto op = dyn_cast<linalg::LinalgOp>(target);
    if (!op || !op.hasPureTensorSemantics())
      continue;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      if (op.payloadUsesValueFromOperand(&init) ||
          init.get().getDefiningOp<tensor::EmptyOp>())
        continue;
      rewriter.setInsertionPoint(op);
      Value empty = tensor::EmptyOp::create(
          rewriter, op.getLoc(),
          tensor::getMixedSizes(rewriter, op.getLoc(), init.get()),
          getElementTypeOrSelf(init.get().getType()));
      rewriter.modifyOpInPlace(op, [&] { init.set(empty); });
    }
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::InitFromEmptyOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// RewriteWindowAccessesOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::RewriteWindowAccessesOp::apply(
    transform::TransformRewriter &rewriter, transform::TransformResults &,
    transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget()))
    rewriteWindowAccessesIn(rewriter, target);
  return DiagnosedSilenceableFailure::success();
}

void transform::RewriteWindowAccessesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// HoistKernelAccumulatorsOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::HoistKernelAccumulatorsOp::apply(
    transform::TransformRewriter &, transform::TransformResults &,
    transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget()))
    if (auto launch = dyn_cast<gpu::LaunchOp>(target))
      hoistKernelAccumulators(launch);
  return DiagnosedSilenceableFailure::success();
}

void transform::HoistKernelAccumulatorsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// HoistVectorTransfersInKernelsOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure transform::HoistVectorTransfersInKernelsOp::apply(
    transform::TransformRewriter &, transform::TransformResults &results,
    transform::TransformState &state) {
  SmallVector<Operation *> functions;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    SmallVector<gpu::LaunchOp> launches;
    target->walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      linalg::hoistRedundantVectorTransfers(launch);
    // Whatever lies outside the kernels, as upstream's op would.
    linalg::hoistRedundantVectorTransfers(target);
    functions.push_back(target);
  }
  results.set(cast<OpResult>(getTransformed()), functions);
  return DiagnosedSilenceableFailure::success();
}

void transform::HoistVectorTransfersInKernelsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// ConvertToMmaSyncOp
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure
transform::ConvertToMmaSyncOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &,
                                     transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget()))
    if (failed(convertWarpContractionsToMmaSync(rewriter, target,
                                                getAllowTf32())))
      return DiagnosedSilenceableFailure::definiteFailure();
  return DiagnosedSilenceableFailure::success();
}

void transform::ConvertToMmaSyncOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// Extension
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "tessel/Dialect/Tessel/TransformOps/TesselTransformOps.cpp.inc"

namespace {
/// Adds the `transform.tessel.*` ops to the transform dialect.
class TesselTransformDialectExtension
    : public transform::TransformDialectExtension<
          TesselTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TesselTransformDialectExtension)

  using Base::Base;

  void init() {
    // Computing a workload key generates sketches, which are tessel
    // attributes.
    declareDependentDialect<TesselDialect>();
    // Pipelining creates affine, GPU and NVVM ops; async copies NVGPU ops.
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<gpu::GPUDialect>();
    declareGeneratedDialect<NVVM::NVVMDialect>();
    declareGeneratedDialect<nvgpu::NVGPUDialect>();
    // mma.sync conversion: lane arithmetic and fragment vectors.
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "tessel/Dialect/Tessel/TransformOps/TesselTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void tessel::registerTransformDialectExtension(DialectRegistry &registry) {
  registry.addExtensions<TesselTransformDialectExtension>();
}
