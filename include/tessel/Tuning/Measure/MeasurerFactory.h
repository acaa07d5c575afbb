//===- MeasurerFactory.h - The measurer of a --measure spec -----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// One way for every tool and for tune() to turn `cuda` or `sim:<device>`
// into a Measurer and the description of the device it times on.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_MEASURE_MEASURERFACTORY_H
#define TESSEL_TUNING_MEASURE_MEASURERFACTORY_H

#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Measure/CudaMeasurer.h"
#include "tessel/Tuning/Measure/Measurer.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>

namespace mlir {
namespace tessel {

/// The knobs of the measurers.
struct MeasurerOptions {
  /// Seed of the simulator's noise.
  uint64_t seed = 0;
  /// Relative standard deviation of the simulator's noise.
  double simNoise = 0.02;
  /// The GPU measurer's options (runner, timeouts, repeats).
  CudaMeasurerOptions cuda;
};

/// A measurer and the device it times on.
struct CreatedMeasurer {
  std::unique_ptr<Measurer> measurer;
  /// The device description: the file of sim:<device>, or for `cuda` the
  /// file matching the GPU with what the driver says applied over it;
  /// std::nullopt when no file matches the GPU (deviceError says why).
  std::optional<DeviceDescription> device;
  std::string deviceError;
  /// `cuda` only: the GPU's facts as the driver reports them.
  llvm::json::Object driverInfo;
};

/// Creates the measurer of `spec`: "cuda" or "sim:<device>" (a file of
/// devices/). Fails with one line on an unknown spec or device, or when
/// `cuda` finds no GPU.
llvm::Expected<CreatedMeasurer> createMeasurer(llvm::StringRef spec,
                                               const MeasurerOptions &options);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_MEASURE_MEASURERFACTORY_H
