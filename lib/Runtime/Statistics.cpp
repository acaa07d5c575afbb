//===- Statistics.cpp - Statistics of repeated timings --------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/Statistics.h"

#include "tessel/Runtime/Json.h"

#include <algorithm>
#include <cmath>

using namespace tessel::runtime;

TimingStats TimingStats::fromSamples(const std::vector<double> &samplesUs) {
  TimingStats stats;
  if (samplesUs.empty())
    return stats;
  std::vector<double> sorted = samplesUs;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  stats.repeats = static_cast<int64_t>(n);
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

std::string TimingStats::toJSON() const {
  return json::ObjectWriter()
      .addNumber("median_us", medianUs)
      .addNumber("min_us", minUs)
      .addNumber("max_us", maxUs)
      .addNumber("stddev_us", stddevUs)
      .addInt("repeats", repeats)
      .str();
}
