//===- CostModel.h - Learned cost models of candidates ----------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A cost model ranks candidate schedules without measuring them (Ansor §5.2).
// It is trained on the feature vectors of measured candidates and their
// throughputs, and predicts a score per candidate: higher is better. Scores
// only rank candidates; they have no unit.
//
// Every feature vector of one model has the same width, fixed by the first
// train() (or a loaded model); the feature extractor chooses that width.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_COSTMODEL_COSTMODEL_H
#define TESSEL_TUNING_COSTMODEL_COSTMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace mlir {
namespace tessel {

/// The features of one candidate: a fixed-width vector of floats (e.g.
/// Ansor's per-statement features pooled into one vector per candidate).
using FeatureVector = std::vector<float>;

/// A model that scores candidates from their features.
class CostModel {
public:
  virtual ~CostModel();

  /// A short name for logs and records, e.g. "xgboost" or "random".
  virtual llvm::StringRef name() const = 0;

  /// Trains the model on measured candidates: `throughputs[i]` is the
  /// throughput of the candidate with features `features[i]` (higher is
  /// better; 0 for candidates that failed). Models may retrain from scratch
  /// on every call, as Ansor does, so pass all the records of the task.
  /// Fails if the inputs are empty, of different lengths, of inconsistent
  /// width, or if a throughput is negative or not finite.
  virtual llvm::Error train(llvm::ArrayRef<FeatureVector> features,
                            llvm::ArrayRef<double> throughputs) = 0;

  /// Scores candidates, one score per feature vector (higher is better).
  /// Fails if a vector's width differs from the model's.
  virtual llvm::Expected<std::vector<double>>
  predict(llvm::ArrayRef<FeatureVector> features) = 0;

  /// The width of the feature vectors, once fixed by train() or a load.
  std::optional<size_t> getFeatureWidth() const { return featureWidth; }

protected:
  /// Checks that every vector of `features` is as wide as the model's
  /// vectors (the first one, when the width is not fixed yet) and returns
  /// that width. `what` names the caller in error messages.
  llvm::Expected<size_t> checkWidth(llvm::ArrayRef<FeatureVector> features,
                                    llvm::StringRef what) const;

  /// Checks the arguments of train() and fixes the feature width.
  llvm::Error checkTrainingSet(llvm::ArrayRef<FeatureVector> features,
                               llvm::ArrayRef<double> throughputs);

  std::optional<size_t> featureWidth;
};

/// Divides each throughput by the largest throughput of its task, as Ansor
/// does: the best candidate of every task scores 1. `taskIds[i]` is the task
/// of `throughputs[i]`; an empty `taskIds` means one task. A task whose
/// throughputs are all 0 keeps them at 0.
std::vector<double> normalizeThroughputs(llvm::ArrayRef<double> throughputs,
                                         llvm::ArrayRef<unsigned> taskIds = {});

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_COSTMODEL_COSTMODEL_H
