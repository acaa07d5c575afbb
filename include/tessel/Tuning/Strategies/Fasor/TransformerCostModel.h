//===- TransformerCostModel.h - Fasor's transferable cost model -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Fasor's cost model (seed 004, section 4.1): a Transformer encoder over the
// tokens of one schedule predicting three values, its latency and its
// memory-bound and compute-bound scores (MS, CS). Built on libtorch (Debian's
// libtorch-dev, the PyTorch 1.13 C++ API); this header exposes no torch type,
// so only the library that implements it needs libtorch's headers and
// exceptions (docs/Fasor.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_TRANSFORMERCOSTMODEL_H
#define TESSEL_TUNING_STRATEGIES_FASOR_TRANSFORMERCOSTMODEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace mlir {
namespace tessel {
namespace fasor {

/// One schedule as the model reads it: a sequence of tokens, all of the
/// model's token width (the encoding is the caller's; docs/Fasor.md).
using Tokens = std::vector<std::vector<float>>;

/// What the model predicts for one schedule.
struct Prediction {
  /// Latency in microseconds (positive).
  double latencyUs = 0;
  /// Memory-bound score MS and compute-bound score CS, in [0, 1].
  double memoryBound = 0;
  double computeBound = 0;
};

/// A schedule's tokens and its measured labels.
struct Sample {
  Tokens tokens;
  Prediction label;
};

/// The network: the paper's encoder (4 layers, hidden 128, 8 heads, dropout
/// 0.1) over the tokens projected to `hidden` plus a learned position
/// embedding, mean-pooled, and a two-layer head with three outputs.
struct TransformerOptions {
  int64_t layers = 4;
  int64_t hidden = 128;
  int64_t heads = 8;
  double dropout = 0.1;
  /// The most tokens a schedule may have (the position embedding's rows).
  int64_t maxTokens = 64;
};

/// Training: the paper's Adam with decoupled weight decay (AdamW), learning
/// rate decayed linearly to 0 over all steps, batches of 64, 20 epochs.
struct TrainOptions {
  double learningRate = 5e-4;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double weightDecay = 0.01;
  int64_t batchSize = 64;
  int64_t epochs = 20;
  /// Seeds the shuffling and dropout (libtorch's global generator).
  uint64_t seed = 0;
  /// Keep the model's latency statistics instead of taking the training
  /// set's (fine-tuning a pretrained model).
  bool keepLatencyScale = false;
};

/// A trained or trainable model. Latency is learned as the standardized log
/// of the label (statistics of the training set, kept in the model); MS and
/// CS as they are, predictions clamped to [0, 1].
class TransformerCostModel {
public:
  /// A freshly initialized model for tokens of `tokenWidth` values (weights
  /// drawn from libtorch's generator seeded with `seed`).
  static llvm::Expected<TransformerCostModel>
  create(int64_t tokenWidth, const TransformerOptions &options = {},
         uint64_t seed = 0);
  /// The model saved at `path` by save().
  static llvm::Expected<TransformerCostModel> load(llvm::StringRef path);

  TransformerCostModel(TransformerCostModel &&);
  TransformerCostModel &operator=(TransformerCostModel &&);
  ~TransformerCostModel();

  /// Trains on `samples` (all of them; the caller holds out its test set)
  /// and returns the mean training loss of every epoch. Fails on tokens of
  /// the wrong width, more tokens than `maxTokens`, or a non-positive
  /// latency.
  llvm::Expected<std::vector<double>> train(llvm::ArrayRef<Sample> samples,
                                            const TrainOptions &options = {});
  /// Predictions for `schedules`, in order (inference mode: no dropout).
  llvm::Expected<std::vector<Prediction>>
  predict(llvm::ArrayRef<Tokens> schedules) const;
  /// Writes the weights, the latency statistics and the options to `path`.
  llvm::Error save(llvm::StringRef path) const;

  int64_t getTokenWidth() const;
  const TransformerOptions &getOptions() const;

private:
  struct Impl;
  explicit TransformerCostModel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// The coefficient of determination of `predicted` against `actual` (1 is
/// perfect; 0 is the mean's quality). Equal sizes, at least two values.
double getRSquared(llvm::ArrayRef<double> predicted,
                   llvm::ArrayRef<double> actual);

/// Sets libtorch's intra-op threads for the process (torch::set_num_threads).
void setTorchThreads(int threads);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_TRANSFORMERCOSTMODEL_H
