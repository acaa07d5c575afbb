//===- JsonFile.h - Writing a tool's JSON report ----------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_JSONFILE_H
#define TESSEL_TUNING_JSONFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace mlir {
namespace tessel {

/// Writes `value` to `path` ("-" for standard output), indented by two
/// spaces and followed by a newline. The file appears only once complete.
llvm::Error writeJsonFile(llvm::StringRef path, llvm::json::Value value);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_JSONFILE_H
