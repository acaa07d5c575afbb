//===- ThreadIndices.cpp - Index values of one thread of a launch ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/ThreadIndices.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tessel;

void ThreadIndexEvaluator::setThread(int64_t x, int64_t y, int64_t z) {
  thread = {x, y, z};
  values.clear();
}

std::optional<int64_t> ThreadIndexEvaluator::evaluate(Value value) {
  auto it = values.find(value);
  if (it != values.end())
    return it->second;
  std::optional<int64_t> result = compute(value);
  values[value] = result;
  return result;
}

std::optional<std::array<int64_t, 3>>
ThreadIndexEvaluator::getBlockSize() const {
  std::array<int64_t, 3> size;
  gpu::LaunchOp op = launch;
  Value dims[] = {op.getBlockSizeX(), op.getBlockSizeY(), op.getBlockSizeZ()};
  for (auto [i, dim] : llvm::enumerate(dims)) {
    APInt constant;
    if (!matchPattern(dim, m_ConstantInt(&constant)))
      return std::nullopt;
    size[i] = constant.getSExtValue();
  }
  return size;
}

/// Folds `map` (one result, or the min / max of several) at `operands`.
static std::optional<int64_t> foldMap(AffineMap map,
                                      ArrayRef<int64_t> operands,
                                      MLIRContext *context, bool takeMax) {
  Builder builder(context);
  SmallVector<Attribute> attributes;
  for (int64_t operand : operands)
    attributes.push_back(builder.getIndexAttr(operand));
  SmallVector<Attribute> results;
  if (failed(map.constantFold(attributes, results)) || results.empty())
    return std::nullopt;
  std::optional<int64_t> folded;
  for (Attribute result : results) {
    auto integer = dyn_cast_or_null<IntegerAttr>(result);
    if (!integer)
      return std::nullopt;
    int64_t v = integer.getInt();
    folded = !folded ? v : takeMax ? std::max(*folded, v) : std::min(*folded, v);
  }
  return folded;
}

std::optional<int64_t> ThreadIndexEvaluator::compute(Value value) {
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  Value ids[] = {threadIds.x, threadIds.y, threadIds.z};
  for (auto [i, id] : llvm::enumerate(ids))
    if (value == id)
      return thread[i];
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  if (value == blockIds.x || value == blockIds.y || value == blockIds.z)
    return options.firstBlock ? std::optional<int64_t>(0) : std::nullopt;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
    if (!options.firstIteration || !loop ||
        loop.getInductionVar() != argument)
      return std::nullopt;
    return evaluate(loop.getLowerBound());
  }
  Operation *def = value.getDefiningOp();
  if (auto id = dyn_cast<gpu::ThreadIdOp>(def))
    return thread[static_cast<unsigned>(id.getDimension())];
  if (isa<gpu::LaneIdOp>(def)) {
    // The linear thread index modulo the warp size.
    std::optional<std::array<int64_t, 3>> block = getBlockSize();
    if (!block)
      return std::nullopt;
    return (thread[0] + (*block)[0] * (thread[1] + (*block)[1] * thread[2])) %
           32;
  }
  if (isa<gpu::BlockIdOp>(def))
    return options.firstBlock ? std::optional<int64_t>(0) : std::nullopt;
  auto operandValues = [&]() -> std::optional<SmallVector<int64_t>> {
    SmallVector<int64_t> result;
    for (Value operand : def->getOperands()) {
      std::optional<int64_t> v = evaluate(operand);
      if (!v)
        return std::nullopt;
      result.push_back(*v);
    }
    return result;
  };
  if (isa<affine::AffineApplyOp, affine::AffineMinOp, affine::AffineMaxOp>(
          def)) {
    std::optional<SmallVector<int64_t>> operands = operandValues();
    if (!operands)
      return std::nullopt;
    AffineMap map = isa<affine::AffineApplyOp>(def)
                        ? cast<affine::AffineApplyOp>(def).getAffineMap()
                    : isa<affine::AffineMinOp>(def)
                        ? cast<affine::AffineMinOp>(def).getAffineMap()
                        : cast<affine::AffineMaxOp>(def).getAffineMap();
    return foldMap(map, *operands, def->getContext(),
                   isa<affine::AffineMaxOp>(def));
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return evaluate(def->getOperand(0));
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
           arith::RemUIOp, arith::DivSIOp, arith::RemSIOp,
           arith::FloorDivSIOp, arith::MinSIOp, arith::MaxSIOp>(def))
    return std::nullopt;
  std::optional<SmallVector<int64_t>> operands = operandValues();
  if (!operands)
    return std::nullopt;
  int64_t lhs = (*operands)[0], rhs = (*operands)[1];
  if (isa<arith::AddIOp>(def))
    return lhs + rhs;
  if (isa<arith::SubIOp>(def))
    return lhs - rhs;
  if (isa<arith::MulIOp>(def))
    return lhs * rhs;
  if (isa<arith::MinSIOp>(def))
    return std::min(lhs, rhs);
  if (isa<arith::MaxSIOp>(def))
    return std::max(lhs, rhs);
  if (rhs == 0)
    return std::nullopt;
  if (isa<arith::DivUIOp, arith::DivSIOp>(def))
    return lhs / rhs;
  if (isa<arith::RemUIOp, arith::RemSIOp>(def))
    return lhs % rhs;
  // floordivsi
  int64_t quotient = lhs / rhs;
  if ((lhs % rhs != 0) && ((lhs < 0) != (rhs < 0)))
    --quotient;
  return quotient;
}
