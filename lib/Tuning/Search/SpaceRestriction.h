//===- SpaceRestriction.h - A search space made a finite set ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// Private to the search library: the members of a space that restrictTo()
// made a finite set of configs (the replay benchmark's measured candidates),
// indexed for the questions SearchSpace answers about them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LIB_TUNING_SEARCH_SPACERESTRICTION_H
#define TESSEL_LIB_TUNING_SEARCH_SPACERESTRICTION_H

#include "tessel/Tuning/Search/SearchSpace.h"

#include "llvm/ADT/DenseSet.h"

#include <map>
#include <vector>

namespace mlir {
namespace tessel {

struct SearchSpace::Restriction {
  /// The members, in the order restrictTo() received them (duplicates
  /// dropped).
  std::vector<ConfigAttr> members;
  llvm::DenseSet<Attribute> memberSet;
  /// The members by their tiles.
  std::map<std::vector<std::vector<int64_t>>, std::vector<ConfigAttr>> byTiles;

  static std::vector<std::vector<int64_t>> keyOf(LoopTiles tiles) {
    std::vector<std::vector<int64_t>> key;
    for (const SmallVector<int64_t> &levels : tiles)
      key.emplace_back(levels.begin(), levels.end());
    return key;
  }
  /// The members with `tiles` (null when none).
  const std::vector<ConfigAttr> *getWithTiles(LoopTiles tiles) const {
    auto it = byTiles.find(keyOf(tiles));
    return it == byTiles.end() ? nullptr : &it->second;
  }
};

} // namespace tessel
} // namespace mlir

#endif // TESSEL_LIB_TUNING_SEARCH_SPACERESTRICTION_H
