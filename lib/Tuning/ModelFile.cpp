//===- ModelFile.cpp - A model module read from a file --------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/ModelFile.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

using namespace mlir;
using namespace mlir::tessel;

std::unique_ptr<ModelFile> ModelFile::load(llvm::StringRef path,
                                           MLIRContext *context,
                                           std::string &error) {
  error.clear();
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &error);
  if (!buffer)
    return nullptr;
  std::unique_ptr<ModelFile> file(new ModelFile());
  file->sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  file->diagnostics =
      std::make_unique<SourceMgrDiagnosticHandler>(file->sourceMgr, context);
  // A diagnostic quotes the user's line; the generic form of the op it was
  // found on (often one Tessel derived) is IR the user did not write.
  context->printOpOnDiagnostic(false);
  file->module = parseSourceFile<ModuleOp>(file->sourceMgr, context);
  if (!file->module)
    return nullptr;
  return file;
}
