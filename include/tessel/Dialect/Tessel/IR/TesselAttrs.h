//===- TesselAttrs.h - Tessel sketch and config attributes ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_IR_TESSELATTRS_H
#define TESSEL_DIALECT_TESSEL_IR_TESSELATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "tessel/Dialect/Tessel/IR/TesselEnums.h.inc"

namespace mlir {
namespace tessel {
/// Most shared-memory buffers a pipelined staging loop may use (the
/// `stages` of a config).
constexpr int64_t kMaxPipelineStages = 4;
} // namespace tessel
} // namespace mlir

#define GET_ATTRDEF_CLASSES
#include "tessel/Dialect/Tessel/IR/TesselAttrs.h.inc"

#endif // TESSEL_DIALECT_TESSEL_IR_TESSELATTRS_H
