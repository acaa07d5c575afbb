//===- TesselDialect.h - Tessel dialect -------------------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_IR_TESSELDIALECT_H
#define TESSEL_DIALECT_TESSEL_IR_TESSELDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tessel/Dialect/Tessel/IR/TesselDialect.h.inc"

#endif // TESSEL_DIALECT_TESSEL_IR_TESSELDIALECT_H
