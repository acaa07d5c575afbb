//===- DgdSpace.h - The divisor tile-size vector space of DGD ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// DGD (Li et al., ICS'24, section 5.1) searches a vector of tile sizes, each
// a divisor of its loop's extent, with a fixed loop order; loop permutations
// come from unit tiles. For a `#tessel.config` the coordinates are the trip
// counts of every level of a loop but the outermost (Ansor's split lengths):
// the outermost level is the extent over their product, so a vector is valid
// when that product divides the extent. Loops of extent 1 have no
// coordinate. A hop moves one coordinate to the next larger or smaller
// divisor of its extent; an n-hop neighbour moves exactly n coordinates, so
// an interior point has C(m, n) * 2^n of them. Only valid neighbours are
// kept: the product divides the extent, vector widths are repaired, and the
// search space's check() accepts the config. See docs/Dgd.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_STRATEGIES_DGD_DGDSPACE_H
#define TESSEL_TUNING_STRATEGIES_DGD_DGDSPACE_H

#include "tessel/Tuning/Search/SearchSpace.h"

#include <optional>
#include <vector>

namespace mlir {
namespace tessel {

/// C(m, n) * 2^n: the n-hop neighbours of an interior point of an
/// m-dimensional space (0 when n > m).
uint64_t countInteriorHops(unsigned m, unsigned n);

/// Every n-hop move of the index vector `indices` in a grid whose
/// coordinate i takes `sizes[i]` values: n coordinates moved by +1 or -1,
/// staying in range. Deterministic order.
std::vector<SmallVector<unsigned>> enumerateHops(ArrayRef<unsigned> indices,
                                                 ArrayRef<unsigned> sizes,
                                                 unsigned hops);

/// The tile-size vectors of one search space (see the file comment).
class TileVectorSpace {
public:
  /// The `loop` of the auto-unroll coordinate.
  static constexpr int kUnrollCoordinate = -1;
  /// The `loop` of the `stages` coordinate (spaces with the knob).
  static constexpr int kStagesCoordinate = -2;

  /// One coordinate of the vector.
  struct Coordinate {
    /// The loop, or kUnrollCoordinate / kStagesCoordinate.
    int loop = 0;
    /// The level of the loop (>= 1).
    unsigned level = 0;
    /// Its values, ascending: the divisors of the loop's extent (or
    /// kUnrollValues, or 1 to kMaxPipelineStages).
    SmallVector<int64_t> values;
  };

  /// The vectors of `space`, which must outlive this object. With
  /// `hopUnroll`, auto-unroll is one more coordinate. With `widestVectors`,
  /// toConfig() picks the widest vector width that fits instead of starting
  /// from the width of `like`.
  TileVectorSpace(const SearchSpace &space, bool hopUnroll = false,
                  bool widestVectors = false);

  ArrayRef<Coordinate> getCoordinates() const { return coordinates; }
  const SearchSpace &getSearchSpace() const { return *space; }

  /// Position of every coordinate of `config` in its value list;
  /// std::nullopt when a value is not in its list.
  std::optional<SmallVector<unsigned>> getIndices(ConfigAttr config) const;

  /// The config of `indices`: the coordinates' values, each loop's outermost
  /// level as the extent over the product of the others, the unroll of
  /// `like` (unless it is a coordinate) and, per staged operand, the widest
  /// vector width up to that of `like` (or up to the widest candidate, see
  /// the constructor) that fits the new tiles. std::nullopt
  /// when the product does not divide the extent, no width fits, or check()
  /// rejects the config.
  std::optional<ConfigAttr> toConfig(ArrayRef<unsigned> indices,
                                     ConfigAttr like) const;

  /// The valid configs exactly `hops` hops from `config`, in the order of
  /// enumerateHops.
  std::vector<ConfigAttr> getNeighbours(ConfigAttr config, unsigned hops) const;

private:
  const SearchSpace *space;
  bool widestVectors;
  SmallVector<Coordinate> coordinates;
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_STRATEGIES_DGD_DGDSPACE_H
