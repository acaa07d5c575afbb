//===- ModelFile.h - A model module read from a file ------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The tools' common first step: read an MLIR file into a module, with
// diagnostics that quote the offending source line.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_MODELFILE_H
#define TESSEL_TUNING_MODELFILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace mlir {
namespace tessel {

/// A module parsed from a file. While it lives, diagnostics at locations in
/// the file print the source line they point to; load() also turns off the
/// context's printing of the op a diagnostic is attached to.
class ModelFile {
public:
  /// Reads and parses `path` ("-" for standard input) in `context`. On
  /// failure returns null: `error` says why when the file could not be
  /// read, and is empty when it did not parse (the parser has reported
  /// where).
  static std::unique_ptr<ModelFile>
  load(llvm::StringRef path, MLIRContext *context, std::string &error);

  ModuleOp getModule() { return *module; }
  /// The text of the file.
  llvm::StringRef getSource() const {
    return sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  }
  /// Hands the module over; the ModelFile keeps quoting the file.
  OwningOpRef<ModuleOp> takeModule() { return std::move(module); }

private:
  ModelFile() = default;

  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_MODELFILE_H
