//===- InitAllPasses.h - Register every pass Tessel provides ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_INITALLPASSES_H
#define TESSEL_INITALLPASSES_H

namespace mlir {
namespace tessel {

/// Registers Tessel's passes and pipelines, and the upstream passes.
void registerAllPasses();

} // namespace tessel
} // namespace mlir

#endif // TESSEL_INITALLPASSES_H
