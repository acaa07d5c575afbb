//===- InitAll.cpp - Register Tessel's dialects and passes ----------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"

#include "tessel/Dialect/Tessel/IR/TesselDialect.h"
#include "tessel/Dialect/Tessel/TransformOps/TesselTransformOps.h"
#include "tessel/Dialect/Tessel/Transforms/Passes.h"
#include "tessel/Pipelines/Pipelines.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

using namespace mlir;

void tessel::registerAllDialects(DialectRegistry &registry) {
  registry.insert<TesselDialect>();
  registerTransformDialectExtension(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
}

void tessel::registerAllPasses() {
  mlir::registerAllPasses();
  registerTesselPasses();
  registerTesselPipelines();
}
