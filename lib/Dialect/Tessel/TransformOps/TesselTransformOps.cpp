//===- TesselTransformOps.cpp - Tessel transform extension ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/TransformOps/TesselTransformOps.h"
#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Tuning/Search/Task.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
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
  std::string key = getWorkloadKey(linalgOp, getTaskConsumers(linalgOp),
                                   getTaskInlinedInputs(linalgOp));
  if (key != getWorkload())
    return emitSilenceableFailure(current->getLoc())
           << "workload \"" << key << "\" is not the expected one";
  return DiagnosedSilenceableFailure::success();
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
