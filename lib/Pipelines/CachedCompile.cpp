//===- CachedCompile.cpp - A compiled module looked up before it is built -===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// `tessel-to-cuda` with a compile cache runs as one pass holding the
// pipeline: it hashes the module it is given (bytecode: every op, attribute,
// resource and location), the pipeline (every pass and option, printed)
// and the identity of the compiler (the binary holding Tessel, ptxas,
// fatbinary, libdevice), and either replaces the module by the compiled
// module the cache holds under that key or runs the pipeline and stores
// the result. The diagnostics the compile emitted are stored with it and
// said again on a hit, so that a rerun says the same; a compile that
// emitted an error is not stored. docs/CompileCache.md.
//
//===----------------------------------------------------------------------===//

#include "CachedCompile.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tessel;

namespace {
struct TesselCachedCompilePass
    : public PassWrapper<TesselCachedCompilePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TesselCachedCompilePass)

  TesselCachedCompilePass(OpPassManager pipeline, CompileCache cache,
                          std::string toolIdentity, std::string resourcesFile,
                          bool report)
      : pipeline(std::move(pipeline)), cache(std::move(cache)),
        toolIdentity(std::move(toolIdentity)),
        resourcesFile(std::move(resourcesFile)), report(report) {}

  StringRef getArgument() const override { return "tessel-to-cuda-cached"; }
  StringRef getName() const override { return "TesselCachedCompile"; }
  StringRef getDescription() const override {
    return "tessel-to-cuda, the compiled module looked up in the compile "
           "cache first";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    pipeline.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string key = getKey(module);
    std::string entry;
    CacheLookup found =
        key.empty() ? CacheLookup::Miss : cache.lookup(key, entry);
    if (found == CacheLookup::Hit && restore(module, entry)) {
      if (report)
        emitRemark(module.getLoc())
            << kReportPrefix << "compiled module from " << cache.getDirectory();
      return;
    }

    // The compile's diagnostics, to be said again when the result is
    // taken from the cache; an error means nothing is stored.
    std::mutex mutex;
    SmallVector<Attribute> said;
    bool failedDiagnostic = false;
    {
      // Sees every diagnostic but the cache's own reports, handles none.
      ScopedDiagnosticHandler watch(&getContext(), [&](Diagnostic &d) {
        if (d.getSeverity() == DiagnosticSeverity::Remark &&
            StringRef(d.str()).starts_with(kReportPrefix))
          return failure();
        std::lock_guard<std::mutex> lock(mutex);
        failedDiagnostic |= d.getSeverity() == DiagnosticSeverity::Error;
        said.push_back(encodeDiagnostic(d));
        return failure();
      });
      if (failed(runPipeline(pipeline, module)))
        return signalPassFailure();
    }
    bool stored = !failedDiagnostic && !key.empty() && store(module, key, said);
    if (report)
      emitRemark(module.getLoc())
          << kReportPrefix << "module compiled"
          << (found == CacheLookup::Corrupt ? " (its corrupt entry removed)"
                                            : "")
          << (stored ? " and stored" : ", not stored");
  }

private:
  /// The cache key of compiling `module`, or "" when it cannot be written.
  std::string getKey(ModuleOp module) {
    std::string bytecode;
    llvm::raw_string_ostream os(bytecode);
    if (failed(writeBytecodeToFile(module, os)))
      return "";
    std::string pipelineText;
    llvm::raw_string_ostream pipelineOs(pipelineText);
    pipeline.printAsTextualPipeline(pipelineOs);
    // Whether the kernel passes report their lookups changes no output.
    std::string reported = "cache-report=true", quiet = "cache-report=false";
    for (size_t at = pipelineText.find(reported); at != std::string::npos;
         at = pipelineText.find(reported, at))
      pipelineText.replace(at, reported.size(), quiet);
    return CompileCache::makeKey({"tessel-to-cuda-v1",
                                  CompileCache::getTesselBinaryIdentity(),
                                  toolIdentity, pipelineText, bytecode});
  }

  /// A diagnostic as an attribute: [severity, location, message, notes],
  /// each note [location, message].
  Attribute encodeDiagnostic(Diagnostic &d) {
    MLIRContext *ctx = &getContext();
    Builder b(ctx);
    SmallVector<Attribute> notes;
    for (Diagnostic &note : d.getNotes())
      notes.push_back(b.getArrayAttr(
          {LocationAttr(note.getLocation()), b.getStringAttr(note.str())}));
    return b.getArrayAttr(
        {b.getI32IntegerAttr(static_cast<int>(d.getSeverity())),
         LocationAttr(d.getLocation()), b.getStringAttr(d.str()),
         b.getArrayAttr(notes)});
  }

  /// Says again the diagnostics encodeDiagnostic encoded; false when
  /// `said` is not such a list.
  bool replayDiagnostics(ArrayAttr said) {
    for (Attribute attr : said) {
      auto d = dyn_cast<ArrayAttr>(attr);
      if (!d || d.size() != 4 || !isa<IntegerAttr>(d[0]) ||
          !isa<LocationAttr>(d[1]) || !isa<StringAttr>(d[2]) ||
          !isa<ArrayAttr>(d[3]))
        return false;
    }
    for (Attribute attr : said) {
      auto d = cast<ArrayAttr>(attr);
      auto severity =
          static_cast<DiagnosticSeverity>(cast<IntegerAttr>(d[0]).getInt());
      InFlightDiagnostic diagnostic =
          getContext().getDiagEngine().emit(cast<LocationAttr>(d[1]), severity);
      diagnostic << cast<StringAttr>(d[2]).getValue();
      for (Attribute noteAttr : cast<ArrayAttr>(d[3])) {
        auto note = dyn_cast<ArrayAttr>(noteAttr);
        if (note && note.size() == 2 && isa<LocationAttr>(note[0]) &&
            isa<StringAttr>(note[1]))
          diagnostic.attachNote(cast<LocationAttr>(note[0]))
              << cast<StringAttr>(note[1]).getValue();
      }
    }
    return true;
  }

  /// Stores the compiled `module`, the diagnostics its compile said and the
  /// resources table the pipeline wrote under `key`.
  bool store(ModuleOp module, StringRef key, ArrayRef<Attribute> said) {
    std::string bytecode;
    llvm::raw_string_ostream os(bytecode);
    if (failed(writeBytecodeToFile(module, os)))
      return false;
    // The diagnostics, with their locations, as an attribute of a module
    // of their own.
    OwningOpRef<ModuleOp> diagnostics =
        ModuleOp::create(UnknownLoc::get(&getContext()));
    (*diagnostics)
        ->setAttr(kDiagnosticsAttr, ArrayAttr::get(&getContext(), said));
    std::string diagnosticsBytecode;
    llvm::raw_string_ostream diagnosticsOs(diagnosticsBytecode);
    if (failed(writeBytecodeToFile(*diagnostics, diagnosticsOs)))
      return false;
    std::string table;
    if (!resourcesFile.empty()) {
      auto buffer = llvm::MemoryBuffer::getFile(resourcesFile);
      if (!buffer)
        return false;
      table = (*buffer)->getBuffer().str();
    }
    return cache.store(
        key, CompileCache::packFields({bytecode, diagnosticsBytecode, table}));
  }

  /// The single module a bytecode buffer holds, parsed into `block` (and
  /// verified with `verify`), or null.
  ModuleOp readModule(StringRef bytecode, Block &block, bool verify) {
    // A failed read is a miss, not the user's error.
    ScopedDiagnosticHandler silence(&getContext(),
                                    [](Diagnostic &) { return success(); });
    ParserConfig config(&getContext(), verify);
    llvm::MemoryBufferRef buffer(bytecode, "tessel-compile-cache");
    if (failed(readBytecodeFile(buffer, &block, config)) ||
        !llvm::hasSingleElement(block))
      return nullptr;
    return dyn_cast<ModuleOp>(block.front());
  }

  /// Replaces `module` by the compiled module of a cache entry, says its
  /// diagnostics again and writes its resources table; returns false (the
  /// module untouched, nothing said) when the entry cannot be read back.
  bool restore(ModuleOp module, StringRef entry) {
    std::optional<std::vector<std::string>> fields =
        CompileCache::unpackFields(entry);
    if (!fields || fields->size() != 3)
      return false;
    Block compiledBlock, diagnosticsBlock;
    ModuleOp compiled = readModule((*fields)[0], compiledBlock,
                                   /*verify=*/true);
    // Not IR to verify: a holder of an attribute no dialect owns.
    ModuleOp diagnostics = readModule((*fields)[1], diagnosticsBlock,
                                      /*verify=*/false);
    if (!compiled || !diagnostics)
      return false;
    auto said = diagnostics->getAttrOfType<ArrayAttr>(kDiagnosticsAttr);
    if (!said || !replayDiagnostics(said))
      return false;
    if (!resourcesFile.empty()) {
      std::error_code ec;
      llvm::raw_fd_ostream os(resourcesFile, ec);
      if (ec) {
        module.emitError() << "cannot write '" << resourcesFile
                           << "': " << ec.message();
        signalPassFailure();
        return true;
      }
      os << (*fields)[2];
    }
    reuseInputResources(module, compiled);
    module.getBodyRegion().takeBody(compiled.getBodyRegion());
    module->setAttrs(compiled->getAttrDictionary());
    return true;
  }

  /// Makes the dense resources of `compiled` those of `input` where they
  /// hold the same data. Reading a module into a context that holds its
  /// resources already (the input's weights) renames them (`w` becomes
  /// `w_1`), so that the compiled module would print differently from one
  /// compiled afresh and hold a second copy of every weight.
  static void reuseInputResources(ModuleOp input, ModuleOp compiled) {
    llvm::StringMap<DenseResourceElementsHandle> inputHandles;
    AttrTypeWalker walker;
    walker.addWalk([&](DenseResourceElementsAttr attr) {
      DenseResourceElementsHandle handle = attr.getRawHandle();
      inputHandles.try_emplace(handle.getKey(), handle);
    });
    input->walk([&](Operation *op) { walker.walk(op->getAttrDictionary()); });
    if (inputHandles.empty())
      return;
    auto sameData = [](const AsmResourceBlob *a, const AsmResourceBlob *b) {
      if (!a || !b)
        return !a && !b;
      return a->getData() == b->getData() &&
             a->getDataAlignment() == b->getDataAlignment();
    };
    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [&](DenseResourceElementsAttr attr) -> std::optional<Attribute> {
          DenseResourceElementsHandle handle = attr.getRawHandle();
          StringRef key = handle.getKey();
          // The reader renames `key` to `key_<n>`.
          StringRef original = key.rsplit('_').first;
          auto it = inputHandles.find(original);
          if (original == key || it == inputHandles.end() ||
              !sameData(it->second.getBlob(), handle.getBlob()))
            return std::nullopt;
          return DenseResourceElementsAttr::get(attr.getType(), it->second);
        });
    replacer.recursivelyReplaceElementsIn(compiled, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/false);
  }

  /// The attribute of a stored module of diagnostics.
  static constexpr StringLiteral kDiagnosticsAttr = "tessel.cache_diagnostics";
  /// How the cache's remarks begin (the kernel passes' too).
  static constexpr StringLiteral kReportPrefix = "compile cache: ";

  OpPassManager pipeline;
  CompileCache cache;
  std::string toolIdentity;
  std::string resourcesFile;
  bool report;
};
} // namespace

std::unique_ptr<Pass> tessel::createTesselCachedCompilePass(
    OpPassManager pipeline, CompileCache cache, std::string toolIdentity,
    std::string resourcesFile, bool report) {
  return std::make_unique<TesselCachedCompilePass>(
      std::move(pipeline), std::move(cache), std::move(toolIdentity),
      std::move(resourcesFile), report);
}
