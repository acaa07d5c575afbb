//===- Measurer.cpp - Timing candidate kernels ----------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/Measurer.h"
#include "tessel/Runtime/Statistics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

llvm::StringRef mlir::tessel::stringifyMeasureStatus(MeasureStatus status) {
  switch (status) {
  case MeasureStatus::Ok:
    return "ok";
  case MeasureStatus::CompileError:
    return "compile_error";
  case MeasureStatus::LaunchError:
    return "launch_error";
  case MeasureStatus::WrongResult:
    return "wrong_result";
  case MeasureStatus::Timeout:
    return "timeout";
  case MeasureStatus::OutOfResources:
    return "out_of_resources";
  }
  llvm_unreachable("unknown measure status");
}

std::optional<MeasureStatus>
mlir::tessel::symbolizeMeasureStatus(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<MeasureStatus>>(text)
      .Case("ok", MeasureStatus::Ok)
      .Case("compile_error", MeasureStatus::CompileError)
      .Case("launch_error", MeasureStatus::LaunchError)
      .Case("wrong_result", MeasureStatus::WrongResult)
      .Case("timeout", MeasureStatus::Timeout)
      .Case("out_of_resources", MeasureStatus::OutOfResources)
      .Default(std::nullopt);
}

TimingStats TimingStats::fromSamples(llvm::ArrayRef<double> samplesUs) {
  // One definition of the statistics for the GPU runner and the measurers.
  ::tessel::runtime::TimingStats runtime =
      ::tessel::runtime::TimingStats::fromSamples(
          std::vector<double>(samplesUs.begin(), samplesUs.end()));
  TimingStats stats;
  stats.medianUs = runtime.medianUs;
  stats.minUs = runtime.minUs;
  stats.maxUs = runtime.maxUs;
  stats.stddevUs = runtime.stddevUs;
  stats.repeats = static_cast<int>(runtime.repeats);
  return stats;
}

llvm::json::Object MeasureResult::toJSON() const {
  llvm::json::Object object{
      {"key", key},
      {"status", stringifyMeasureStatus(status)},
      {"simulated", simulated},
      {"device", device},
      {"resources", resources.toJSON()},
  };
  if (isOk()) {
    object["median_us"] = timing.medianUs;
    object["min_us"] = timing.minUs;
    object["max_us"] = timing.maxUs;
    object["stddev_us"] = timing.stddevUs;
    object["repeats"] = timing.repeats;
  }
  if (!message.empty())
    object["message"] = message;
  return object;
}

Measurer::~Measurer() = default;
