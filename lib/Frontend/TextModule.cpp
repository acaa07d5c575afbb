//===- TextModule.cpp - A model given as text, for frontends --------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Frontend/TextModule.h"

#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"
#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tessel;

void tessel::registerFrontendPasses() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    registerAllPasses();
    registerTesselApplyTunedPasses();
  });
}

llvm::Expected<OpPassManager>
tessel::parseModulePassPipeline(StringRef pipeline) {
  registerFrontendPasses();
  std::string message;
  llvm::raw_string_ostream errorStream(message);
  FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, errorStream);
  if (failed(parsed))
    return llvm::createStringError("cannot parse the pass pipeline '" +
                                   pipeline + "': " + StringRef(message).trim());
  if (parsed->getOpAnchorName() != ModuleOp::getOperationName())
    return llvm::createStringError(
        "the pass pipeline '" + pipeline + "' is anchored on '" +
        parsed->getOpAnchorName() + "'; expected builtin.module(...)");
  return std::move(*parsed);
}

void tessel::loadTesselDialects(MLIRContext &context) {
  DialectRegistry registry;
  registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

std::vector<CompiledKernel> tessel::getCompiledKernels(ModuleOp compiled) {
  std::vector<CompiledKernel> kernels;
  compiled.walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects()) {
      auto gpuObject = dyn_cast<gpu::ObjectAttr>(object);
      DictionaryAttr properties =
          gpuObject ? gpuObject.getProperties() : nullptr;
      auto table = properties ? dyn_cast_or_null<DictionaryAttr>(
                                    properties.get("tessel.kernels"))
                              : nullptr;
      if (!table)
        continue;
      for (NamedAttribute entry : table)
        if (auto facts = dyn_cast<DictionaryAttr>(entry.getValue()))
          kernels.push_back(
              {binary.getSymName().str(),
               KernelResources::fromAttribute(entry.getName(), facts)});
      // One object per binary carries the table.
      break;
    }
  });
  return kernels;
}

TextModule::TextModule()
    : context(std::make_unique<MLIRContext>(
          MLIRContext::Threading::ENABLED)),
      diagnosticStream(std::make_unique<llvm::raw_string_ostream>(diagnostics)) {
  loadTesselDialects(*context);
  // The generic form of the failing op repeats the source line and points
  // into IR the user did not write.
  context->printOpOnDiagnostic(false);
  printer = std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, context.get(),
                                                         *diagnosticStream);
  // Registered after the printer, so asked first: errors (with their notes)
  // go on to the printer, warnings and remarks stop here.
  errorsOnly = std::make_unique<ScopedDiagnosticHandler>(
      context.get(), [](Diagnostic &diagnostic) {
        return diagnostic.getSeverity() == DiagnosticSeverity::Error
                   ? failure()
                   : success();
      });
}

TextModule::~TextModule() {
  // The module's ops belong to the context: destroy them first.
  module = nullptr;
  errorsOnly.reset();
  printer.reset();
}

llvm::Expected<std::unique_ptr<TextModule>>
TextModule::parse(StringRef text, StringRef sourceName) {
  std::unique_ptr<TextModule> result(new TextModule());
  result->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), llvm::SMLoc());
  ParserConfig config(result->context.get());
  result->module = parseSourceFile<ModuleOp>(result->sourceMgr, config);
  if (!result->module)
    return result->withDiagnostics(
        llvm::createStringError(sourceName + ": cannot parse the module"));
  return result;
}

llvm::Error TextModule::takeDiagnostics() {
  diagnosticStream->flush();
  if (diagnostics.empty())
    return llvm::Error::success();
  std::string text = StringRef(diagnostics).rtrim().str();
  diagnostics.clear();
  return llvm::createStringError(text);
}

llvm::Error TextModule::withDiagnostics(llvm::Error error) {
  diagnosticStream->flush();
  if (diagnostics.empty())
    return error;
  llvm::consumeError(std::move(error));
  return takeDiagnostics();
}

llvm::Error TextModule::runPassPipeline(StringRef pipeline) {
  llvm::Expected<OpPassManager> parsed = parseModulePassPipeline(pipeline);
  if (!parsed)
    return parsed.takeError();
  PassManager pm(context.get());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  if (failed(pm.run(*module)))
    return withDiagnostics(llvm::createStringError(
        "the pass pipeline '" + pipeline + "' failed"));
  return llvm::Error::success();
}

llvm::Error TextModule::applyTuned(StringRef dbPath, StringRef target) {
  PassManager pm(context.get());
  pm.addPass(createTesselApplyTunedPass(dbPath.str(), target.str()));
  if (failed(pm.run(*module)))
    return withDiagnostics(llvm::createStringError(
        "cannot apply the records of " + dbPath));
  return llvm::Error::success();
}

std::string TextModule::print() {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}
