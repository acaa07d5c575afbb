//===- SerializeKernels.cpp - Kernels to PTX, one thread per kernel -------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Upstream `gpu-module-to-binary` translates the gpu.modules of a module to
// LLVM IR and on to PTX one after the other: 17% of a ResNet-50 compile on
// two cores (docs/results/compile-profile-resnet50-2026-11-27.txt), all on
// one core. Each module's translation reads only that module and builds its
// LLVM IR in an LLVM context of its own, so this pass runs them on the
// MLIR context's threads and then, in module order, builds the objects and
// `gpu.binary` ops exactly as upstream does: the same output, but for the
// `LLVMIRToISATimeInMs` property upstream records.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Support/CompileCache.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Path.h"

namespace mlir {
namespace tessel {
#define GEN_PASS_DEF_TESSELSERIALIZEKERNELS
#include "tessel/Dialect/Tessel/Transforms/Passes.h.inc"
} // namespace tessel
} // namespace mlir

using namespace mlir;

namespace {

/// One gpu.module and, per target attribute, its serialized object.
struct SerializationJob {
  gpu::GPUModuleOp module;
  SmallVector<std::optional<SmallVector<char, 0>>> objects;
  /// What the compile cache said of the module.
  tessel::CacheLookup lookup = tessel::CacheLookup::Miss;
};

/// The identity of the library holding MLIR's translation of gpu.modules
/// (libMLIR, or the executable when MLIR is linked in statically).
static const std::string &getTranslatorIdentity() {
  static const std::string identity =
      tessel::CompileCache::getLoadedObjectIdentity(
          reinterpret_cast<const void *>(
              static_cast<LogicalResult (*)(Operation *, raw_ostream &,
                                            const BytecodeWriterConfig &)>(
                  &writeBytecodeToFile)));
  return identity;
}

/// The compile cache key of `module`'s objects: the module (bytecode,
/// which holds its targets and every attribute in full), LLVM's version and
/// the library translating it (the translation and the NVPTX back end are
/// MLIR's and LLVM's) and the libdevice the objects may link.
static std::string getCacheKey(gpu::GPUModuleOp module, StringRef toolkitPath) {
  std::string bytecode;
  llvm::raw_string_ostream os(bytecode);
  if (failed(writeBytecodeToFile(module, os)))
    return "";
  SmallString<256> libdevice(toolkitPath);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  std::string libdeviceIdentity =
      toolkitPath.empty() ? std::string("default")
                          : tessel::CompileCache::getFileIdentity(libdevice);
  return tessel::CompileCache::makeKey(
      {"tessel-serialize-kernels-v1", LLVM_VERSION_STRING,
       getTranslatorIdentity(), toolkitPath, libdeviceIdentity, bytecode});
}

struct TesselSerializeKernelsPass
    : public tessel::impl::TesselSerializeKernelsBase<
          TesselSerializeKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp root = getOperation();
    SmallVector<SerializationJob> jobs;
    for (auto module : root.getBody()->getOps<gpu::GPUModuleOp>()) {
      if (!module.getTargetsAttr()) {
        module.emitError("the module has no target attributes");
        return signalPassFailure();
      }
      jobs.push_back({module, {}});
    }
    if (jobs.empty())
      return;

    // Built before the threads start: they only read it.
    SymbolTable table(root);
    auto getTable = [&]() -> SymbolTable * { return &table; };
    gpu::TargetOptions options(toolkitPath, /*librariesToLink=*/{},
                               /*cmdOptions=*/{}, /*elfSection=*/{},
                               gpu::CompilationTarget::Assembly, getTable);

    std::optional<tessel::CompileCache> cache =
        tessel::CompileCache::open(cacheDir, cacheSizeMb);

    // Serial when the context has no threads (--mlir-disable-threading, a
    // compile worker's context).
    LogicalResult serialized = failableParallelForEach(
        &getContext(), jobs, [&](SerializationJob &job) -> LogicalResult {
          std::string key;
          if (cache) {
            key = getCacheKey(job.module, toolkitPath);
            if (!key.empty() && lookUp(*cache, key, job))
              return success();
          }
          for (Attribute attr : job.module.getTargetsAttr()) {
            auto target = cast<gpu::TargetAttrInterface>(attr);
            job.objects.push_back(
                target.serializeToObject(job.module, options));
            if (!job.objects.back()) {
              job.module.emitError(
                  "An error happened while serializing the module.");
              return failure();
            }
          }
          if (!key.empty()) {
            SmallVector<StringRef> fields;
            for (const std::optional<SmallVector<char, 0>> &object :
                 job.objects)
              fields.push_back(StringRef(object->data(), object->size()));
            (void)cache->store(key, tessel::CompileCache::packFields(fields));
          }
          return success();
        });
    if (cache && cacheReport)
      reportLookups(jobs);
    if (failed(serialized))
      return signalPassFailure();

    OpBuilder builder(&getContext());
    for (SerializationJob &job : jobs) {
      SmallVector<Attribute> objects;
      for (auto [attr, object] :
           llvm::zip(job.module.getTargetsAttr(), job.objects)) {
        auto target = cast<gpu::TargetAttrInterface>(attr);
        Attribute created = target.createObject(job.module, *object, options);
        if (!created) {
          job.module.emitError("An error happened while creating the object.");
          return signalPassFailure();
        }
        objects.push_back(created);
      }
      auto handler = dyn_cast_or_null<gpu::OffloadingLLVMTranslationAttrInterface>(
          job.module.getOffloadingHandlerAttr());
      builder.setInsertionPointAfter(job.module);
      gpu::BinaryOp::create(builder, job.module.getLoc(), job.module.getName(),
                            handler, builder.getArrayAttr(objects));
      job.module->erase();
    }
  }

  /// Says how many modules came from the cache.
  void reportLookups(ArrayRef<SerializationJob> jobs) {
    unsigned hits = 0, corrupt = 0;
    for (const SerializationJob &job : jobs) {
      hits += job.lookup == tessel::CacheLookup::Hit;
      corrupt += job.lookup == tessel::CacheLookup::Corrupt;
    }
    emitRemark(getOperation().getLoc())
        << "compile cache: " << hits << " of " << jobs.size()
        << " kernel modules' PTX from the cache, " << corrupt
        << " corrupt entries rebuilt";
  }

  /// Fills `job`'s objects from `cache`; returns whether it could.
  /// Thread-safe.
  static bool lookUp(const tessel::CompileCache &cache, StringRef key,
                     SerializationJob &job) {
    std::vector<std::string> fields;
    job.lookup =
        cache.lookupFields(key, job.module.getTargetsAttr().size(), fields);
    if (job.lookup != tessel::CacheLookup::Hit)
      return false;
    for (const std::string &field : fields)
      job.objects.push_back(SmallVector<char, 0>(field.begin(), field.end()));
    return true;
  }
};

} // namespace
