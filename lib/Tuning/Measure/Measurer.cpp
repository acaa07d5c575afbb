//===- Measurer.cpp - Timing candidate kernels ----------------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/Measurer.h"

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
  TimingStats stats;
  if (samplesUs.empty())
    return stats;
  std::vector<double> sorted(samplesUs.begin(), samplesUs.end());
  llvm::sort(sorted);
  size_t n = sorted.size();
  stats.repeats = static_cast<int>(n);
  stats.minUs = sorted.front();
  stats.maxUs = sorted.back();
  stats.medianUs =
      n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  if (n > 1) {
    double mean = 0;
    for (double sample : sorted)
      mean += sample;
    mean /= static_cast<double>(n);
    double sumSquares = 0;
    for (double sample : sorted)
      sumSquares += (sample - mean) * (sample - mean);
    stats.stddevUs = std::sqrt(sumSquares / static_cast<double>(n - 1));
  }
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
