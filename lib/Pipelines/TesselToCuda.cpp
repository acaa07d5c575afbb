//===- TesselToCuda.cpp - From linalg to CUDA binaries --------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tessel;

FailureOr<std::string> tessel::getDefaultPtxFeatures(StringRef chip) {
  unsigned sm = 0;
  if (!chip.consume_front("sm_") || chip.consumeInteger(10, sm) ||
      !(chip.empty() || chip == "a") || sm < 70)
    return failure();
  // The first PTX ISA version supporting each architecture.
  unsigned ptx = 60;
  if (sm >= 100)
    ptx = 86;
  else if (sm >= 90)
    ptx = 80;
  else if (sm >= 89)
    ptx = 78;
  else if (sm >= 86)
    ptx = 71;
  else if (sm >= 80)
    ptx = 70;
  else if (sm >= 75)
    ptx = 63;
  else if (sm >= 72)
    ptx = 61;
  return "+ptx" + std::to_string(ptx);
}

LogicalResult
tessel::buildTesselToCudaPipeline(OpPassManager &pm,
                                  const TesselToCudaOptions &options) {
  std::string features = options.features;
  if (features.empty()) {
    FailureOr<std::string> f = getDefaultPtxFeatures(options.chip);
    if (failed(f))
      return llvm::errs() << "error: tessel-to-cuda: unsupported chip '"
                          << options.chip
                          << "'; expected sm_70 or newer (e.g. sm_90)\n",
             failure();
    features = *f;
  }
  if (options.format != "isa" && options.format != "bin" &&
      options.format != "fatbin")
    return llvm::errs() << "error: tessel-to-cuda: unknown format '"
                        << options.format << "'; expected isa, bin or fatbin\n",
           failure();

  // Frontend clean-up: fold shape checks and drop what Tessel does not run.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createTesselStripHostChecks());
  pm.addPass(createTesselExpandScalarOps());
  if (options.defaultConfigs)
    pm.addPass(createTesselDefaultConfig());
  TesselMaterializeOptions materialize;
  materialize.recordFacts = true;
  pm.addPass(createTesselMaterialize(materialize));

  // Kernels: outline, lower to NVVM, serialize to PTX.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createTesselOutlineKernels());
  pm.addPass(createSymbolDCEPass());
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = features;
  nvvm.cubinFormat = "isa";
  nvvm.optLevel = options.optLevel;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);

  // Cubins: assemble with ptxas, recording each kernel's resources.
  if (options.format != "isa") {
    TesselCompilePtxOptions ptx;
    ptx.format = options.format;
    ptx.cudaPath = options.cudaPath;
    ptx.optLevel = options.optLevel;
    ptx.resourcesFile = options.resourcesFile;
    pm.addPass(createTesselCompilePtx(ptx));
  }
  return success();
}

void tessel::registerTesselPipelines() {
  PassPipelineRegistration<TesselToCudaOptions>(
      "tessel-to-cuda",
      "Compile linalg ops (with or without Tessel schedules) to CUDA "
      "binaries: default schedules, materialization, NVVM, ptxas",
      [](OpPassManager &pm, const TesselToCudaOptions &options) {
        // Invalid options were reported; a pipeline cannot fail to build
        // here, so stop the tool like a parse error would.
        if (failed(buildTesselToCudaPipeline(pm, options)))
          std::exit(1);
      });
}
