//===- EtoStrategy.h - ETO's reuse-based tuner (Algorithm 1) ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Tunes a task alpha from the best program of a reuse partner beta (ETO,
// Fang et al., PVLDB 2022, section 5): the sketch is beta's, and only
// configs whose features lie in the ranges of Equations 1-3 around beta's
// are measured, in four rounds per block count (Algorithm 1). See
// docs/Eto.md for the rounds in Tessel's terms and the decisions on what
// the paper leaves open.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_ETO_ETOSTRATEGY_H
#define TESSEL_TUNING_STRATEGIES_ETO_ETOSTRATEGY_H

#include "tessel/Tuning/Strategies/Eto/EtoOptions.h"
#include "tessel/Tuning/Strategies/Eto/ReuseAnalysis.h"
#include "tessel/Tuning/Strategies/Eto/ShapeCosts.h"
#include "tessel/Tuning/Tuner/Strategy.h"

#include "llvm/ADT/DenseMap.h"

#include <deque>
#include <optional>

namespace mlir {
namespace tessel {

/// The program alpha reuses: beta's best (or any program of beta).
struct ReferenceProgram {
  /// Beta's task (for its op); must outlive the strategy.
  const TuningTask *task = nullptr;
  SketchAttr sketch;
  ConfigAttr config;
};

/// ETO's reuse tuner for one task alpha. On multi_level_tiling sketches it
/// runs Algorithm 1: for every block count B in range, round 1 measures the
/// GetS programs of GetBShape(B), the default LShape and GetTShape(T) for
/// every thread count T in range; round 2 the other LShapes whose shared
/// memory is in range; round 3 the unroll values of other effect; round 4
/// the vector widths of each staged input, one input at a time. Every round
/// keeps the best so far (S~). Block counts are independent, so a batch may
/// hold candidates of several. On cross_thread_reduction and
/// two_level_injective sketches it runs the simplified variant of
/// docs/Eto.md (thread counts in range, then unroll).
///
/// Candidates that fail SearchSpace::check are skipped; a candidate is
/// proposed once, and block counts that generate it again reuse its
/// measurement.
class EtoStrategy : public SearchStrategy {
public:
  EtoStrategy(EtoOptions options, ReferenceProgram reference);

  std::string name() const override { return "eto"; }
  /// Up to `count` candidates of the rounds that wait for nothing; empty
  /// when every round is done or when prepare() failed.
  std::vector<Candidate> propose(TaskSearchState &state, int count) override;
  llvm::Error observe(TaskSearchState &state,
                      llvm::ArrayRef<Trial> trials) override;

  /// Sets the search up on `state` (propose() does on its first call):
  /// finds alpha's space whose sketch is beta's (up to fused consumers and
  /// inlined producers), beta's features and the ranges, and the block
  /// counts. Fails, saying why, when alpha has no such sketch, beta's
  /// config does not fit beta's op, or the sketch kind is not supported.
  /// Idempotent.
  llvm::Error prepare(TaskSearchState &state);

  /// Makes the shape cost model of a multi_level_tiling search keep its
  /// GetTShape answers in `cache` (call before prepare()), so that
  /// searches of the same alpha space share them (the trial estimator).
  void shareThreadShapes(std::shared_ptr<ThreadShapeCache> cache) {
    sharedThreadShapes = std::move(cache);
  }

  /// The ranges of alpha's features (after prepare()).
  const FeatureRanges &getRanges() const { return ranges; }
  /// The block counts of the search, increasing (after prepare();
  /// multi_level_tiling and tensor_core only).
  SmallVector<int64_t> getBlockCounts() const;
  /// The default unroll of a config of alpha with `tiles`: the value whose
  /// estimateUnrolledRegisters is closest to beta's; on ties beta's value,
  /// else the largest. Beta's value for the other sketches (tensor_core
  /// included: the estimate is of CUDA-core register tiles).
  int64_t getDefaultUnroll(LoopTiles tiles) const;

private:
  enum class Round { Start, Threads, Fetch, Unroll, Vector, Stages, Done };
  using Id = std::pair<Attribute, Attribute>;

  /// The search of one block count (the simplified variant has one).
  struct Lane {
    int64_t blocks = 0;
    SmallVector<int64_t> blockShape;
    Round round = Round::Start;
    /// Round 4: the staged input being vectorized.
    unsigned vectorInput = 0;
    /// S~ and its GFLOP/s.
    std::optional<Candidate> best;
    double bestGflops = 0;
    /// Generated and not yet proposed.
    std::deque<Candidate> pending;
    /// Candidates of this round waiting for a measurement.
    unsigned outstanding = 0;
  };

  /// Moves `lane` past rounds that wait for nothing.
  void advance(TaskSearchState &state, Lane &lane, unsigned index);
  /// The candidates of `lane`'s round `lane.round`, in order.
  std::vector<Candidate> generate(Lane &lane);
  /// Adds `candidates` to `lane`'s round: known results count at once,
  /// others wait for their measurement (once, whichever lane proposes it).
  void enqueue(TaskSearchState &state, Lane &lane, unsigned index,
               std::vector<Candidate> candidates);
  /// Keeps the candidate as S~ when it is strictly faster.
  static void consider(Lane &lane, const Candidate &candidate, double gflops);

  std::vector<Candidate> generateThreads(Lane &lane);
  std::vector<Candidate> generateFetch(Lane &lane);
  std::vector<Candidate> generateUnroll(Lane &lane);
  std::vector<Candidate> generateVector(Lane &lane);
  std::vector<Candidate> generateStages(Lane &lane);
  std::vector<Candidate> generateSimplified();
  /// Rounds 1 and 2 of tensor_core searches (docs/Eto.md).
  std::vector<Candidate> generateWarps(Lane &lane);
  std::vector<Candidate> generateTensorCoreFetch(Lane &lane);
  /// The tensor_core tiles of blocks of `blockShape` (per space loop),
  /// `warps` warps per space loop and `fetchShape` staging steps per
  /// reduction loop; the rest of each loop is mma tiles (mma steps along
  /// the reduction) above the instruction.
  SmallVector<SmallVector<int64_t>>
  buildTensorCoreTiles(ArrayRef<int64_t> blockShape, ArrayRef<int64_t> warps,
                       ArrayRef<int64_t> fetchShape) const;
  bool isTensorCore() const {
    return space->getSketch().getKind() == SketchKind::TensorCore;
  }
  /// The candidate with `tiles`, the default unroll and 1-wide loads, when
  /// check() accepts it.
  std::optional<Candidate> makeCandidate(ArrayRef<SmallVector<int64_t>> tiles,
                                         std::optional<int64_t> unroll = {},
                                         ArrayRef<int64_t> vector = {});

  EtoOptions options;
  ReferenceProgram reference;
  bool prepared = false;
  std::string failure;
  unsigned spaceIndex = 0;
  const SearchSpace *space = nullptr;
  std::optional<SearchSpace> betaSpace;
  std::optional<ShapeCostModel> model;
  std::shared_ptr<ThreadShapeCache> sharedThreadShapes;
  ProgramFeatures betaFeatures;
  ReuseShapes betaShapes;
  int64_t betaRegisters = 0;
  FeatureRanges ranges;
  std::vector<Lane> lanes;
  /// GFLOP/s of every measured candidate (0 when it failed).
  llvm::DenseMap<Id, double> results;
  /// The lanes waiting for each proposed or pending candidate.
  llvm::DenseMap<Id, SmallVector<unsigned>> waiting;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_ETO_ETOSTRATEGY_H
