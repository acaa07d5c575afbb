//===- CachedCompile.h - A compiled module looked up first ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LIB_PIPELINES_CACHEDCOMPILE_H
#define TESSEL_LIB_PIPELINES_CACHEDCOMPILE_H

#include "tessel/Support/CompileCache.h"

#include "mlir/Pass/PassManager.h"

#include <memory>
#include <string>

namespace mlir {
namespace tessel {

/// A pass that runs `pipeline` (on a builtin.module) unless `cache` holds
/// its result for the module it is given, and stores the result when the
/// pipeline emitted no diagnostic. `toolIdentity` names the external tools
/// the pipeline runs (their identities go into the key); `resourcesFile` is
/// the file the pipeline writes its resource table to, restored from the
/// cache too ("" if none). With `report`, a remark on the module says
/// whether it came from the cache.
std::unique_ptr<Pass> createTesselCachedCompilePass(OpPassManager pipeline,
                                                    CompileCache cache,
                                                    std::string toolIdentity,
                                                    std::string resourcesFile,
                                                    bool report);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_LIB_PIPELINES_CACHEDCOMPILE_H
