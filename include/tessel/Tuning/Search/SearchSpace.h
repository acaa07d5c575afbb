//===- SearchSpace.h - The configs of one sketch of one op ------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The search space of a sketch: every `#tessel.config` that fits the op
// (verifySchedule) and the device (threads, shared memory and an estimate of
// the registers of a thread). Configs are sampled uniformly, as Ansor's
// random annotation does, and mutated with Ansor's two GPU mutations (tile
// size, auto-unroll). The knobs, their domains and the constraints are
// listed in docs/SearchSpace.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_SEARCH_SEARCHSPACE_H
#define TESSEL_TUNING_SEARCH_SEARCHSPACE_H

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Dialect/Tessel/IR/TileShape.h"
#include "tessel/Tuning/Device.h"
#include "tessel/Tuning/Search/RandomEngine.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// Values of the auto-unroll knob (TVM's GPU auto_unroll_max_step).
constexpr int64_t kUnrollValues[] = {0, 16, 64, 512, 1024};
/// Most virtual threads per block (TVM's GPU max_vthread_extent, the warp
/// size / 4): every virtual thread multiplies a thread's register tile and
/// its unrolled code.
constexpr int64_t kMaxVirtualThreads = 8;
/// Tries of rejection sampling before sample() gives up.
constexpr int kMaxSampleTries = 100000;
/// Tries of a mutation before it gives up.
constexpr int kMaxMutationTries = 64;

/// Register estimate of a thread (see docs/SearchSpace.md).
struct RegisterEstimate {
  /// Accumulators of the thread's register tile.
  int64_t accumulators = 0;
  /// Input values live in registers for one step of the innermost reduction.
  int64_t operands = 0;
  /// Registers holding the cooperative loads of the staged operands.
  int64_t stagedLoads = 0;
  /// Addresses, loop counters and indices.
  int64_t overhead = 0;

  int64_t total() const {
    return accumulators + operands + stagedLoads + overhead;
  }
};

/// What one update of `op`'s body costs in multiply-adds: its ops but
/// casts, a transcendental function (exp, log, tanh, erf, ...) counted as
/// 8, two to a multiply-add, at least 1. A matmul's or a sum's update is 1, a sum of
/// exponentials' (softmax) 5.
int64_t getUpdateCost(linalg::LinalgOp op);

/// The configs of one sketch of one op on one device.
class SearchSpace {
public:
  /// The space of `sketch` on `op`, which must have static shapes and fit
  /// the sketch (verifySchedule without a config). Fails otherwise.
  /// `maxStages` > 1 adds the `stages` knob (software-pipelined staging,
  /// docs/SearchSpace.md) up to that many stages, on devices with cp.async
  /// (compute capability 8.0 and newer); 1 keeps the space as it was.
  static FailureOr<SearchSpace> get(linalg::LinalgOp op, SketchAttr sketch,
                                    const DeviceDescription &device,
                                    int64_t maxStages = 1);

  /// A config drawn uniformly among the valid ones: per loop a uniform
  /// ordered factorization of its extent into the sketch's levels, a uniform
  /// unroll value and, per staged operand, a uniform vector width among
  /// those valid for the tiles, until check() accepts (at most
  /// kMaxSampleTries draws). Fails, with a reason in `why`, when no valid
  /// config was found.
  FailureOr<ConfigAttr> sample(RandomEngine &rng, std::string *why = nullptr);

  /// Ansor's tile-size mutation: a random loop, a random level above 1, a
  /// random divisor (> 1) of it moved to another random level (the loop's
  /// product is preserved). Vector widths are kept when still valid, else
  /// drawn again. Retries up to kMaxMutationTries times for
  /// a config that check() accepts; std::nullopt when none was found.
  std::optional<ConfigAttr> mutateTileSize(ConfigAttr config,
                                           RandomEngine &rng);

  /// Ansor's auto-unroll mutation: another value of kUnrollValues that keeps
  /// the kernel within the kernel-size limit (estimateUnrolledLoops), drawn
  /// uniformly; `config` itself when there is none. The tiles and vector
  /// widths are kept.
  ConfigAttr mutateUnroll(ConfigAttr config, RandomEngine &rng);

  /// Another value of the `stages` knob among getStageOptions(), drawn
  /// uniformly; std::nullopt when the config has no other.
  std::optional<ConfigAttr> mutateStages(ConfigAttr config,
                                         RandomEngine &rng) const;

  /// The `stages` values a config with `tiles` may take: 1 to
  /// min(maxStages, steps) when the sketch stages operands and the tiles
  /// make one staging loop of `steps` > 1 steps, else just 1.
  SmallVector<int64_t> getStageOptions(LoopTiles tiles) const;
  /// Whether the space has the `stages` knob (maxStages > 1 on a device
  /// with cp.async, a multi-level sketch staging operands).
  bool hasStagesKnob() const { return maxStages > 1; }

  /// Whether `config` is in the space: verifySchedule, then the device's
  /// threads per block, at most kMaxVirtualThreads virtual threads, shared
  /// memory per block and registers per thread.
  /// On failure, `why` (when given) says which constraint failed.
  LogicalResult check(ConfigAttr config, std::string *why = nullptr) const;

  /// Whether a config with `tiles` (which have the sketch's levels and
  /// multiply to the loop extents) and 1-wide loads passes check(),
  /// computed on the plain vectors, without building an attribute. Wider
  /// loads only add constraints, so when this fails no config with these
  /// tiles and a vector width per staged operand passes check(); a config
  /// without widths (as default configs) is not covered.
  bool fitsTiles(LoopTiles tiles) const;

  /// Per staged operand, every vector width that divides the innermost
  /// extent of its shared tile under `tiles` (the threads need not divide
  /// the tile: the load is predicated), in increasing order (empty when
  /// some operand has none).
  SmallVector<SmallVector<int64_t>> getValidVectors(LoopTiles tiles) const;

  /// Every config of the space, in a fixed order: every ordered
  /// factorization of every loop into its levels, every unroll value and
  /// every vector width of each staged operand in getValidVectors(), kept
  /// when check() accepts it. Fails, with the reason in `why`,
  /// when getSizeEstimate() exceeds `maxPoints` (the points it would visit)
  /// instead of running for hours.
  FailureOr<std::vector<ConfigAttr>> enumerate(uint64_t maxPoints,
                                               std::string *why = nullptr);

  /// Number of points of the unconstrained space: the ordered
  /// factorizations of every loop times the unroll values times the vector
  /// widths (saturates at UINT64_MAX).
  uint64_t getSizeEstimate() const;

  /// Shared memory of one block under `config`, in bytes: every staged
  /// tile (each buffer of a pipelined staging loop) and, when the sketch
  /// fuses consumers, the block's accumulator, each at a 16-byte boundary
  /// as materialization allocates them.
  int64_t getSharedMemoryBytes(ConfigAttr config) const;
  /// Whether the compiler would refuse `config` for a reason of this
  /// space's device: shared memory over the static per-block limit (ptxas)
  /// or loops after unrolling over kMaxKernelLoops (the kernel-size check).
  /// Looser than check(), whose other limits (virtual threads, the register
  /// estimate, the knobs' domains) are the search's, not the compiler's.
  LogicalResult checkCompilerLimits(ConfigAttr config,
                                    std::string *why = nullptr) const;
  /// Loops the kernel of `config` keeps after unrolling, at least, as
  /// `tessel-check-kernel-size` counts them: a multi-level schedule of an op
  /// that is not vectorized keeps one loop per op loop in every unrolled
  /// copy of its register-level op (virtual threads x outer register tile x
  /// the middle reduction level, when the unroll setting covers it); other
  /// schedules unroll only vectorized code (0). The space rejects configs
  /// over the kernel-size limit by this count; docs/SearchSpace.md.
  int64_t estimateUnrolledLoops(ConfigAttr config) const;
  /// Updates the unrolled register-level code of one thread performs per
  /// staging step under `config`: for a `multi_level_tiling` schedule, its
  /// outputs (virtual threads x both register levels) x the middle
  /// reduction level when the unroll setting covers it x the inner
  /// reduction level (0 for other sketches), each weighted by the cost of
  /// the op's body in multiply-adds (getUpdateCost). The fastest measured
  /// matmul unrolls 1,024 FMAs; the space rejects configs over
  /// kMaxUnrolledWork, which LLVM's NVPTX backend and ptxas take tens of
  /// seconds to compile (docs/SearchSpace.md, constraint 7).
  int64_t estimateUnrolledWork(ConfigAttr config) const;
  /// Registers of one thread under `config`, estimated.
  RegisterEstimate estimateRegisters(ConfigAttr config) const;
  /// Shared memory a block may use: the device's opt-in limit (tiles above
  /// the 48 KiB static limit become dynamic shared memory,
  /// tessel-dynamic-shared-memory).
  int64_t getSharedMemoryLimit() const;

  /// Restricts the space to `members`: the configs a replayed dataset
  /// measured (the replay benchmark, docs/Replay.md). Members that do not
  /// fit the op and the sketch (verifySchedule) are dropped; duplicates
  /// count once. From then on the space is exactly the members: sample()
  /// draws one uniformly, check() accepts members only (the device limits
  /// do not apply: the members were compiled and run), enumerate() lists
  /// them, fitsTiles() and getValidVectors() answer for the members'
  /// tiles, and the three mutations move to members only (a tile move to
  /// tiles some member has, keeping the unroll, vector and stages values
  /// where a member has them; another unroll or stages value of a member
  /// with the same other knobs). Returns the number of members kept.
  size_t restrictTo(ArrayRef<ConfigAttr> members);
  /// Whether restrictTo() made this space a finite set of configs.
  bool isRestricted() const { return restriction != nullptr; }

  linalg::LinalgOp getOp() const { return op; }
  SketchAttr getSketch() const { return sketch; }
  const LoopNest &getLoopNest() const { return nest; }
  const DeviceDescription &getDevice() const { return device; }
  /// Vector widths a staged operand (by position in the sketch's `shared`
  /// list) may use: powers of two up to kMaxVectorBytes.
  ArrayRef<int64_t> getVectorCandidates(unsigned sharedIndex) const {
    return vectorCandidates[sharedIndex];
  }

private:
  SearchSpace(linalg::LinalgOp op, SketchAttr sketch,
              const DeviceDescription &device, LoopNest nest)
      : op(op), sketch(sketch), device(device), nest(std::move(nest)) {}

  /// Levels of loop `loop` under the sketch.
  unsigned getNumLevels(unsigned loop) const;
  /// Levels of loop `loop` the search chooses: all but a fixed instruction
  /// level (tensor_core).
  unsigned getNumFreeLevels(unsigned loop) const {
    return getNumLevels(loop) - (instructionTiles.empty() ? 0 : 1);
  }
  /// Appends the fixed instruction level, if any, to free `levels` of
  /// `loop`.
  void appendInstructionLevel(unsigned loop,
                              SmallVectorImpl<int64_t> &levels) const {
    if (!instructionTiles.empty())
      levels.push_back(instructionTiles[loop]);
  }
  /// Per staged operand, a vector width drawn uniformly among
  /// getValidVectors(tiles); std::nullopt when some operand has none.
  std::optional<SmallVector<int64_t>> sampleVector(LoopTiles tiles,
                                                   RandomEngine &rng) const;
  /// The device constraints of check() (threads, virtual threads, shared
  /// memory, registers) for `tiles`, per staged operand `vector` and row
  /// `pad`, and `stages` shared buffers per operand.
  LogicalResult checkDeviceLimits(LoopTiles tiles, ArrayRef<int64_t> vector,
                                  std::string *why, int64_t stages = 1,
                                  ArrayRef<int64_t> pad = {}) const;
  int64_t getSharedMemoryBytes(LoopTiles tiles, int64_t stages = 1,
                               ArrayRef<int64_t> pad = {}) const;
  int64_t estimateUnrolledLoops(LoopTiles tiles, int64_t unroll) const;
  int64_t estimateUnrolledWork(LoopTiles tiles, int64_t unroll) const;
  /// Whether `unroll` keeps `tiles` within the kernel-size limit and the
  /// unrolled-work limit.
  bool isUnrollWithinLimits(LoopTiles tiles, int64_t unroll) const;
  /// Constraints 4 and 6 (docs/SearchSpace.md) on a block's shared memory
  /// and a kernel's unrolled loops; the message goes to `why`.
  LogicalResult checkSharedMemory(int64_t bytes, std::string *why) const;
  LogicalResult checkUnrolledLoops(int64_t loops, std::string *why) const;
  RegisterEstimate estimateRegisters(LoopTiles tiles,
                                     ArrayRef<int64_t> vector) const;

  /// The members of a restricted space (restrictTo), shared by copies.
  struct Restriction;
  std::shared_ptr<const Restriction> restriction;
  /// A member with `tiles`, preferring `like`'s unroll, vector and stages;
  /// std::nullopt when no member has these tiles.
  std::optional<ConfigAttr> pickMemberWithTiles(LoopTiles tiles,
                                                ConfigAttr like,
                                                RandomEngine &rng) const;
  /// A member that differs from `config` only in its unroll value
  /// (`inUnroll`) or only in its stages, drawn uniformly; std::nullopt when
  /// there is none.
  std::optional<ConfigAttr>
  pickMemberDifferingIn(ConfigAttr config, bool inUnroll,
                        RandomEngine &rng) const;

  /// Op interfaces have no const accessors.
  mutable linalg::LinalgOp op;
  SketchAttr sketch;
  DeviceDescription device;
  LoopNest nest;
  /// Per loop, the fixed innermost tile of one instruction (tensor_core:
  /// getMmaLevelExtents); empty when every level is searched.
  SmallVector<int64_t> instructionTiles;
  /// Prime factorization of every loop extent (divided by its instruction
  /// tile): (prime, exponent) pairs.
  SmallVector<SmallVector<std::pair<int64_t, int64_t>>> primeFactors;
  /// Element bytes of every staged operand.
  SmallVector<int64_t> sharedElementBytes;
  /// Footprint of every staged operand, in the order of the sketch's list.
  SmallVector<FootprintFunction> sharedFootprints;
  /// Per input the payload reads (shaped ones only): its footprint and
  /// element bytes, for the register estimate.
  SmallVector<std::pair<FootprintFunction, int64_t>> readInputs;
  /// Element bytes of every init.
  SmallVector<int64_t> initElementBytes;
  /// Whether materialization vectorizes the op (every indexing map a
  /// projected permutation; for window indices it depends on the tiles,
  /// see readsWindowViews).
  bool vectorizable = true;
  /// The op's indexing maps, for readsWindowViews on every tiling.
  SmallVector<AffineMap> indexingMaps;
  SmallVector<SmallVector<int64_t>> vectorCandidates;
  /// Most values of the `stages` knob (1: no knob).
  int64_t maxStages = 1;
  /// What one update of the op's body costs, in multiply-adds
  /// (getUpdateCost): the unit of kMaxUnrolledWork.
  int64_t updateCost = 1;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_SEARCH_SEARCHSPACE_H
