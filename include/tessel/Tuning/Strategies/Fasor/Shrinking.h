//===- Shrinking.h - Fasor's search-space shrinking -------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Section 5 of seed 004: level 1 keeps power-of-two options (split factors
// that divide the loop, vector widths); level 2 tunes only the n_p
// primitives the task is most sensitive to, by an offline table of how much
// MS and CS move when one primitive moves with the rest fixed, and by
// whether the cost model calls the task memory- or compute-bound.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_FASOR_SHRINKING_H
#define TESSEL_TUNING_STRATEGIES_FASOR_SHRINKING_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <vector>

namespace mlir {
namespace tessel {
namespace fasor {

/// The eight schedule primitives of the paper's Tab. 1, in its order
/// (docs/Fasor.md maps them to Tessel's knobs).
enum class Primitive {
  Split,
  Fuse,
  Vectorization,
  Reorder,
  Unrolling,
  Parallel,
  ComputeAt,
  ComputeInline,
};
constexpr int kNumPrimitives = 8;

/// The primitive's name in Tab. 1 ("split", "compute_at", ...).
llvm::StringRef getPrimitiveName(Primitive primitive);
/// The primitive named `name` by getPrimitiveName, if any.
std::optional<Primitive> parsePrimitiveName(llvm::StringRef name);
/// Every primitive, in Tab. 1's order.
constexpr Primitive kAllPrimitives[kNumPrimitives] = {
    Primitive::Split,     Primitive::Fuse,      Primitive::Vectorization,
    Primitive::Reorder,   Primitive::Unrolling, Primitive::Parallel,
    Primitive::ComputeAt, Primitive::ComputeInline};

/// How much MS and CS change (mean absolute change) when the primitive
/// moves with the rest of the schedule fixed.
struct Sensitivity {
  double memory = 0;
  double compute = 0;
};
using SensitivityTable = std::map<Primitive, Sensitivity>;

/// Whether a task's predicted bottleneck is memory or compute: memory when
/// MS >= CS.
enum class Bottleneck { Memory, Compute };
Bottleneck classifyBottleneck(double memoryBound, double computeBound);

/// The `np` primitives to tune (5 to 8; the paper's default 7): the most
/// sensitive to the task's bottleneck by `table` (primitives missing from
/// it count 0), ties to the more sensitive to the other bottleneck, then
/// Tab. 1's order. The result is in Tab. 1's order.
llvm::Expected<std::vector<Primitive>>
selectPrimitives(const SensitivityTable &table, Bottleneck bottleneck,
                 int np = 7);
/// The ablation "random n_p": `np` primitives drawn uniformly by `rng`, in
/// Tab. 1's order.
llvm::Expected<std::vector<Primitive>> selectRandomPrimitives(int np,
                                                             std::mt19937 &rng);

/// Level 1: the powers of two that divide `extent`, increasing (1 first).
llvm::SmallVector<int64_t> getPowerOfTwoSplitFactors(int64_t extent);
/// Level 1: the powers of two up to `maxWidth`, increasing.
llvm::SmallVector<int64_t> getPowerOfTwoWidths(int64_t maxWidth);

} // namespace fasor
} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_FASOR_SHRINKING_H
