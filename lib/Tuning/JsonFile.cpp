//===- JsonFile.cpp - Writing a tool's JSON report ------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/JsonFile.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

llvm::Error tessel::writeJsonFile(llvm::StringRef path,
                                  llvm::json::Value value) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(path, &error);
  if (!output)
    return llvm::createStringError(error);
  output->os() << llvm::formatv("{0:2}", value) << "\n";
  output->keep();
  return llvm::Error::success();
}
