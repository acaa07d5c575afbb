//===- MeasurerFactory.cpp - The measurer of a --measure spec -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/MeasurerFactory.h"
#include "tessel/Tuning/Measure/SimulatedMeasurer.h"

using namespace mlir;
using namespace mlir::tessel;

llvm::Expected<CreatedMeasurer>
tessel::createMeasurer(llvm::StringRef spec, const MeasurerOptions &options) {
  CreatedMeasurer created;
  llvm::StringRef deviceId = spec;
  if (deviceId.consume_front("sim:")) {
    auto device = findDevice(deviceId);
    if (!device)
      return device.takeError();
    created.measurer = std::make_unique<SimulatedMeasurer>(
        *device, options.seed, options.simNoise);
    created.device = std::move(*device);
    return created;
  }
  if (spec != "cuda")
    return llvm::createStringError("unknown measurer '" + spec.str() +
                                   "' (use cuda or sim:<device>)");
  auto cuda = CudaMeasurer::create(options.cuda);
  if (!cuda)
    return cuda.takeError();
  created.driverInfo = (*cuda)->getDeviceInfo();
  auto device = findDeviceForDriver(created.driverInfo);
  if (device)
    created.device = std::move(*device);
  else
    created.deviceError = llvm::toString(device.takeError());
  created.measurer = std::move(*cuda);
  return created;
}
