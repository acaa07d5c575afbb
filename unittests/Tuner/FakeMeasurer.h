//===- FakeMeasurer.h - A measurer for tests of tune() ----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_UNITTESTS_TUNER_FAKEMEASURER_H
#define TESSEL_UNITTESTS_TUNER_FAKEMEASURER_H

#include "tessel/Tuning/Measure/Measurer.h"

#include "llvm/Support/xxhash.h"

namespace mlir {
namespace tessel {

/// Times a candidate by a hash of its key: 1 to 100 us, the same every time.
inline double fakeMicroseconds(llvm::StringRef key) {
  return 1 + static_cast<double>(llvm::xxh3_64bits(key) % 9901) / 100;
}

/// A measurer that never runs anything: fakeMicroseconds of each key.
class FakeMeasurer : public Measurer {
public:
  std::string name() const override { return "sim:fake-gpu"; }
  bool isSimulated() const override { return true; }
  std::vector<MeasureResult>
  measure(llvm::ArrayRef<MeasureCandidate> candidates) override {
    std::vector<MeasureResult> results;
    for (const MeasureCandidate &candidate : candidates) {
      MeasureResult result;
      result.key = candidate.key;
      result.simulated = true;
      result.timing =
          TimingStats::fromSamples({fakeMicroseconds(candidate.key)});
      results.push_back(result);
      ++measured;
    }
    return results;
  }
  int measured = 0;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_UNITTESTS_TUNER_FAKEMEASURER_H
