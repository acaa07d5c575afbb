//===- TextModule.h - A model given as text, for frontends ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Frontends (the Python package, scripts) hand Tessel a model as MLIR text
// and want errors back as values, not on stderr. A TextModule parses the
// text in a context of its own with every dialect Tessel needs, and collects
// the error diagnostics of everything done to the module, formatted as the
// command-line tools print them ("model.mlir:3:8: error: ...", with the
// source line), into the llvm::Error each operation returns. Warnings and
// remarks are dropped.
//
//   auto module = TextModule::parse(text, "model.mlir");
//   if (!module) return module.takeError();
//   if (llvm::Error e = (*module)->runPassPipeline(
//           "builtin.module(tessel-to-cuda{chip=sm_90})"))
//     return e;
//   std::string compiled = (*module)->print();
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FRONTEND_TEXTMODULE_H
#define TESSEL_FRONTEND_TEXTMODULE_H

#include "tessel/Dialect/Tessel/Transforms/KernelResources.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class SourceMgrDiagnosticHandler;
class ScopedDiagnosticHandler;

namespace tessel {

/// Registers the passes and pipelines that textual pipelines of frontends
/// may name: Tessel's, `tessel-apply-tuned` and the upstream ones. Safe to
/// call more than once, from any thread.
void registerFrontendPasses();

/// Parses the textual pipeline `pipeline`, which must be anchored on
/// builtin.module ("builtin.module(tessel-to-cuda{chip=sm_90})"), after
/// registerFrontendPasses(). The error says why it does not parse.
llvm::Expected<OpPassManager> parseModulePassPipeline(llvm::StringRef pipeline);

/// Registers, and loads into `context`, every dialect Tessel parses,
/// creates or lowers to.
void loadTesselDialects(MLIRContext &context);

/// A kernel of a compiled module with the resources ptxas reported for it
/// (the `tessel.kernels` property of its gpu.object).
struct CompiledKernel {
  /// The gpu.binary's name.
  std::string module;
  KernelResources resources;
};

/// The kernels of `compiled` (a module after `tessel-to-cuda` with
/// format=bin or fatbin), in order; empty for PTX only (format=isa).
std::vector<CompiledKernel> getCompiledKernels(ModuleOp compiled);

/// A module parsed from text, in a context of its own.
class TextModule {
public:
  /// Parses `text`; `sourceName` names it in diagnostics. The error holds
  /// the parser's diagnostics.
  static llvm::Expected<std::unique_ptr<TextModule>>
  parse(llvm::StringRef text, llvm::StringRef sourceName = "<input>");

  ~TextModule();

  ModuleOp getModule() { return *module; }
  MLIRContext &getContext() { return *context; }

  /// Runs the textual pipeline `pipeline` anchored on builtin.module, e.g.
  /// "builtin.module(tessel-to-cuda{chip=sm_90})".
  llvm::Error runPassPipeline(llvm::StringRef pipeline);
  /// Annotates each tunable op with its best record in the database at
  /// `dbPath` (`--tessel-apply-tuned`); `target` is the preferred measurer.
  llvm::Error applyTuned(llvm::StringRef dbPath, llvm::StringRef target = "");
  /// The module as text.
  std::string print();

  /// `error`, with the error diagnostics collected since the last call in
  /// front of it (they usually say more, and where).
  llvm::Error withDiagnostics(llvm::Error error);
  /// The diagnostics collected since the last call as an error, or success
  /// when there are none.
  llvm::Error takeDiagnostics();

private:
  TextModule();

  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  std::unique_ptr<llvm::raw_string_ostream> diagnosticStream;
  std::unique_ptr<SourceMgrDiagnosticHandler> printer;
  std::unique_ptr<ScopedDiagnosticHandler> errorsOnly;
  OwningOpRef<ModuleOp> module;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_FRONTEND_TEXTMODULE_H
