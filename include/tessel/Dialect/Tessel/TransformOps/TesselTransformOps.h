//===- TesselTransformOps.h - Tessel transform extension --------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Transform-dialect ops that Tessel adds to the `transform` dialect: matchers
// that need Tessel's notion of a tuning workload. They are declared in
// TesselTransformOps.td and registered as a TransformDialectExtension.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMOPS_TESSELTRANSFORMOPS_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMOPS_TESSELTRANSFORMOPS_H

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/MatchInterfaces.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpDefinition.h"

#define GET_OP_CLASSES
#include "tessel/Dialect/Tessel/TransformOps/TesselTransformOps.h.inc"

namespace mlir {
class DialectRegistry;

namespace tessel {

/// Registers the Tessel transform ops (`transform.tessel.*`) as an extension
/// of the transform dialect.
void registerTransformDialectExtension(DialectRegistry &registry);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMOPS_TESSELTRANSFORMOPS_H
