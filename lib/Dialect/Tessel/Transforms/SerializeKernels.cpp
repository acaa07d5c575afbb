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

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"

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
};

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

    // Serial when the context has no threads (--mlir-disable-threading, a
    // compile worker's context).
    LogicalResult serialized = failableParallelForEach(
        &getContext(), jobs, [&](SerializationJob &job) -> LogicalResult {
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
          return success();
        });
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
};

} // namespace
