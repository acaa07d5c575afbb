//===- TesselToCuda.cpp - From linalg to CUDA binaries --------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Pipelines/Pipelines.h"
#include "CachedCompile.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
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

/// The SM version of a chip name `sm_XY[a]` (checked by checkOptions).
static unsigned getSmVersion(StringRef chip) {
  unsigned sm = 0;
  (void)chip.consume_front("sm_");
  (void)chip.consumeInteger(10, sm);
  return sm;
}

/// The most shared memory one block of a chip `sm_XY` may have, with the
/// opt-in for dynamic shared memory (CUDA C++ Programming Guide, "Technical
/// Specifications per Compute Capability": 96 KB on 7.0 and 7.2, 64 KB on
/// 7.5, 163 KB on 8.0 and 8.7, 99 KB on 8.6 and 8.9 and 12.x, 227 KB on 9.0
/// and 10.x).
static int64_t getMaxSharedMemoryPerBlock(unsigned sm) {
  constexpr int64_t kKiB = 1024;
  if (sm >= 120)
    return 99 * kKiB;
  if (sm >= 90)
    return 227 * kKiB;
  if (sm == 80 || sm == 87)
    return 163 * kKiB;
  if (sm >= 86)
    return 99 * kKiB;
  if (sm >= 75)
    return 64 * kKiB;
  return 96 * kKiB;
}

/// The CUDA toolkit directory whose libdevice kernels may call (math ops
/// lower to `__nv_*` functions), or "" when it has none.
static std::string getLibdeviceToolkit(StringRef cudaPath) {
  llvm::SmallString<256> libdevice(cudaPath);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  return llvm::sys::fs::exists(libdevice) ? cudaPath.str() : std::string();
}

/// Lowers the outlined kernels to PTX (`gpu.binary` in `isa` format) and the
/// host side to the LLVM dialect: the steps of upstream's
/// gpu-lower-to-nvvm-pipeline without outlining (done already), with the
/// serializer linking libdevice from `cuda-path` instead of from whatever
/// CUDA_HOME or CUDA_PATH the environment holds.
static void addNvvmLowering(OpPassManager &pm,
                            const TesselToCudaOptions &options,
                            StringRef features, StringRef cacheDir) {
  // Host and kernels: structured control flow and vectors to LLVM level
  // (bf16 mma.sync first: upstream's NVGPU conversion has no bf16 types).
  pm.addPass(createTesselLowerBf16MmaSync());
  // cp.async no wider than its addresses are aligned for.
  TesselAlignAsyncCopiesOptions asyncCopies;
  asyncCopies.bufferAlignment = options.bufferAlignment;
  pm.addPass(createTesselAlignAsyncCopies(asyncCopies));
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  // Before the loops become blocks: loop bounds prove index alignment.
  TesselAlignGlobalAccessesOptions align;
  align.bufferAlignment = options.bufferAlignment;
  pm.addPass(createTesselAlignGlobalAccesses(align));
  if (options.fpContract)
    pm.addPass(createTesselContractKernelFloatOps());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = features.str();
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Kernels: GPU ops to NVVM.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createStripDebugInfoPass());
  kernels.addPass(createTesselLowerKernelVectors());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createTesselExternDynamicSharedMemory());
  kernels.addPass(LLVM::createNVVMOptimizeForTargetPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  // Host: launches to LLVM, kernels to PTX.
  pm.addPass(createGpuToLLVMConversionPass());
  // gpu-module-to-binary{format=isa}, the modules on every core.
  TesselSerializeKernelsOptions serialize;
  serialize.toolkitPath = getLibdeviceToolkit(options.cudaPath);
  serialize.cacheDir = cacheDir.str();
  serialize.cacheSizeMb = options.cacheSizeMb;
  serialize.cacheReport = options.cacheReport;
  pm.addPass(createTesselSerializeKernels(serialize));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// The PTX features of `options`, or why the options cannot be built.
static FailureOr<std::string> checkOptions(const TesselToCudaOptions &options,
                                           std::string &message) {
  std::string features = options.features;
  if (features.empty()) {
    FailureOr<std::string> f = getDefaultPtxFeatures(options.chip);
    if (failed(f)) {
      message = "tessel-to-cuda: unsupported chip '" + options.chip +
                "'; expected sm_70 or newer (e.g. sm_90)";
      return failure();
    }
    features = *f;
  }
  if (options.format != "isa" && options.format != "bin" &&
      options.format != "fatbin") {
    message = "tessel-to-cuda: unknown format '" + options.format +
              "'; expected isa, bin or fatbin";
    return failure();
  }
  return features;
}

void tessel::buildTesselToKernelsPipeline(OpPassManager &pm,
                                          const TesselToCudaOptions &options) {
  // Fusion (which canonicalizes too) exactly as task extraction and
  // --tessel-apply-tuned see the model, then frontend clean-up: fold shape
  // checks and drop what Tessel does not run.
  if (options.fuse) {
    pm.addPass(createTesselFuse());
  } else {
    pm.addPass(createTesselSplitK());
    pm.addPass(createCanonicalizerPass());
  }
  pm.addPass(createTesselStripHostChecks());
  pm.addPass(createTesselExpandScalarOps());
  if (options.defaultConfigs)
    pm.addPass(createTesselDefaultConfig());
  TesselMaterializeOptions materialize;
  materialize.recordFacts = true;
  // cp.async needs sm_80.
  materialize.asyncCopies = getSmVersion(options.chip) >= 80;
  materialize.allowTf32 = options.allowTf32;
  pm.addPass(createTesselMaterialize(materialize));
  if (options.forwardFills)
    pm.addPass(createTesselForwardFills());
  if (options.forwardAccumulators)
    pm.addPass(createTesselForwardAccumulators());
  if (options.barriers == BarrierPlacement::Dependences)
    pm.addPass(createTesselPlaceBarriers());

  // Kernels: outline, and check that LLVM can compile them in time.
  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(createTesselSharedBankConflicts());
  pm.addPass(createTesselCountBarriers());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createTesselOutlineKernels());
  pm.addPass(createSymbolDCEPass());
  TesselDynamicSharedMemoryOptions shared;
  shared.maxBytes = getMaxSharedMemoryPerBlock(getSmVersion(options.chip));
  pm.addPass(createTesselDynamicSharedMemory(shared));
  if (options.dedupeKernels)
    pm.addPass(createTesselDedupeKernels());
  pm.addPass(createTesselCheckKernelSize());
}

/// Adds the passes of tessel-to-cuda to `pm`, the kernels looked up in the
/// compile cache of `cacheDir` ("off": none).
static void addTesselToCudaPasses(OpPassManager &pm,
                                  const TesselToCudaOptions &options,
                                  StringRef features, StringRef cacheDir) {
  buildTesselToKernelsPipeline(pm, options);
  addNvvmLowering(pm, options, features, cacheDir);

  // Cubins: assemble with ptxas, recording each kernel's resources.
  if (options.format != "isa") {
    TesselCompilePtxOptions ptx;
    ptx.format = options.format;
    ptx.cudaPath = options.cudaPath;
    ptx.optLevel = options.optLevel;
    ptx.resourcesFile = options.resourcesFile;
    ptx.cacheDir = cacheDir.str();
    ptx.cacheSizeMb = options.cacheSizeMb;
    ptx.cacheReport = options.cacheReport;
    pm.addPass(createTesselCompilePtx(ptx));
  }
}

LogicalResult
tessel::buildTesselToCudaPipeline(OpPassManager &pm,
                                  const TesselToCudaOptions &options,
                                  llvm::raw_ostream &errors) {
  std::string message;
  FailureOr<std::string> checked = checkOptions(options, message);
  if (failed(checked))
    return errors << "error: " << message << "\n", failure();
  std::string features = *checked;

  std::string cacheDir = CompileCache::resolveDirectory(options.cacheDir);
  std::optional<CompileCache> cache =
      CompileCache::open(cacheDir, options.cacheSizeMb);
  if (!cache) {
    addTesselToCudaPasses(pm, options, features, cacheDir);
    return success();
  }
  OpPassManager pipeline(ModuleOp::getOperationName());
  addTesselToCudaPasses(pipeline, options, features, cacheDir);
  // The tools the pipeline runs outside this process.
  std::string tools;
  for (StringRef tool : {"bin/ptxas", "bin/fatbinary",
                         "nvvm/libdevice/libdevice.10.bc"}) {
    SmallString<256> path(options.cudaPath);
    llvm::sys::path::append(path, tool);
    tools += CompileCache::getFileIdentity(path) + "\n";
  }
  pm.addPass(createTesselCachedCompilePass(std::move(pipeline),
                                           std::move(*cache), tools,
                                           options.resourcesFile,
                                           options.cacheReport));
  return success();
}

void tessel::registerTesselPipelines() {
  // Registered by hand rather than with PassPipelineRegistration, whose
  // builder cannot fail: bad options are reported through the parser's
  // error handler (a located diagnostic in tools, an error to a library
  // caller), never by printing or exiting.
  registerPassPipeline(
      "tessel-to-cuda",
      "Compile linalg ops (with or without Tessel schedules) to CUDA "
      "binaries: default schedules, materialization, NVVM, ptxas",
      [](OpPassManager &pm, StringRef optionsText,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        TesselToCudaOptions options;
        std::string message;
        llvm::raw_string_ostream errors(message);
        if (failed(options.parseFromString(optionsText, errors)))
          return errorHandler("tessel-to-cuda: " + StringRef(message).trim());
        if (failed(checkOptions(options, message)))
          return errorHandler(message);
        return buildTesselToCudaPipeline(pm, options, errors);
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(TesselToCudaOptions());
      });
}
