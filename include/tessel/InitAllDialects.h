//===- InitAllDialects.h - Register every dialect Tessel uses ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_INITALLDIALECTS_H
#define TESSEL_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace tessel {

/// Registers the tessel dialect, Tessel's transform-dialect extension
/// (`transform.tessel.*`), the upstream dialects that frontends hand to
/// Tessel, and every dialect and extension the lowering to CUDA needs.
void registerAllDialects(DialectRegistry &registry);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_INITALLDIALECTS_H
