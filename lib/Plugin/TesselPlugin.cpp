//===- TesselPlugin.cpp - Tessel as a plugin of stock MLIR tools ----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// libTesselPlugin.so exports MLIR's dialect-plugin and pass-plugin entry
// points, so that any MlirOptMain-based tool of the same LLVM build loads
// Tessel:
//
//   mlir-opt-22 --load-dialect-plugin=libTesselPlugin.so \
//               --load-pass-plugin=libTesselPlugin.so \
//               --pass-pipeline='builtin.module(tessel-to-cuda{chip=sm_90})'
//
// The dialect plugin adds the tessel dialect and the dialects, extensions
// and LLVM IR translations the lowering to CUDA needs (a tool usually has
// them already: registering twice is harmless). The pass plugin registers
// Tessel's own passes and pipelines only: the host tool owns the upstream
// passes, and registering those again would clash.
//
//===----------------------------------------------------------------------===//

#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/InitAllDialects.h"
#include "tessel/Pipelines/Pipelines.h"
#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Tessel", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            tessel::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Tessel", LLVM_VERSION_STRING,
          []() {
            tessel::registerTesselPasses();
            tessel::registerTesselPipelines();
            tessel::registerTesselApplyTunedPasses();
          }};
}
