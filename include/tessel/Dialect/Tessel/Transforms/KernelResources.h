//===- KernelResources.h - What ptxas reports about a kernel ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_KERNELRESOURCES_H
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_KERNELRESOURCES_H

#include "tessel/Dialect/Tessel/Transforms/PtxReport.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// The resources of one compiled kernel, as reported by `ptxas -v`, and
/// the static report of its PTX.
struct KernelResources {
  std::string name;
  int64_t registers = 0;
  int64_t spillStoreBytes = 0;
  int64_t spillLoadBytes = 0;
  /// Static shared memory (ptxas) plus the dynamic shared memory its
  /// launches allocate: what one block holds.
  int64_t sharedMemoryBytes = 0;
  /// The dynamic part of sharedMemoryBytes (tessel-dynamic-shared-memory).
  int64_t dynamicSharedMemoryBytes = 0;
  int64_t stackBytes = 0;
  /// What its PTX executes (countPtxKernels); empty when not counted.
  PtxCounts ptx;

  /// `{registers = N, spill_stores = N, ..., ptx = {...}}` for gpu.object
  /// properties.
  DictionaryAttr toAttribute(MLIRContext *ctx) const;
  /// The same facts as a JSON object (with `kernel` for the name).
  llvm::json::Object toJSON() const;
  /// Reads the facts back from `toAttribute`'s dictionary.
  static KernelResources fromAttribute(StringRef name, DictionaryAttr dict);
};

/// Parses the `ptxas -v` log: one entry per compiled entry function, in the
/// order ptxas reports them.
std::vector<KernelResources> parsePtxasLog(llvm::StringRef log);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_KERNELRESOURCES_H
