//===- Statistics.h - Statistics of repeated timings ------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The summary of the repeated timings of one kernel (or library call), as the
// measurement protocol reports it: median, min, max, sample standard
// deviation and the number of repeats. Shared by tessel-cuda-runner and
// tessel-vendor-bench so that both report the same statistic.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_STATISTICS_H
#define TESSEL_RUNTIME_STATISTICS_H

#include <cstdint>
#include <string>
#include <vector>

namespace tessel {
namespace runtime {

/// Statistics of repeated timings, in microseconds.
struct TimingStats {
  double medianUs = 0;
  double minUs = 0;
  double maxUs = 0;
  /// Sample standard deviation (0 for fewer than two repeats).
  double stddevUs = 0;
  int64_t repeats = 0;

  /// Statistics of `samplesUs` (all zero when empty). The median of an even
  /// number of samples is the mean of the two middle ones.
  static TimingStats fromSamples(const std::vector<double> &samplesUs);

  /// {"median_us":...,"min_us":...,"max_us":...,"stddev_us":...,"repeats":...}
  std::string toJSON() const;
};

} // namespace runtime
} // namespace tessel

#endif // TESSEL_RUNTIME_STATISTICS_H
