//===- tessel-opt.cpp - mlir-opt with the Tessel dialect and passes -------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"
#include "tessel/Tuning/ApplyTuned/ApplyTuned.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::tessel::registerAllPasses();
  mlir::tessel::registerTesselApplyTunedPasses();
  mlir::DialectRegistry registry;
  mlir::tessel::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Tessel optimizer driver\n", registry));
}
