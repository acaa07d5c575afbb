//===- SpaceRestriction.cpp - A search space made a finite set ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// SearchSpace::restrictTo and the restricted space's moves between members
// (docs/Replay.md).
//
//===----------------------------------------------------------------------===//

#include "SpaceRestriction.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tessel;

size_t SearchSpace::restrictTo(ArrayRef<ConfigAttr> candidates) {
  auto restricted = std::make_shared<Restriction>();
  // Members that do not fit the op are dropped without a diagnostic.
  ScopedDiagnosticHandler silence(op->getContext(),
                                  [](Diagnostic &) { return success(); });
  for (ConfigAttr config : candidates) {
    if (!config || restricted->memberSet.contains(config))
      continue;
    if (failed(verifySchedule(op, sketch, config,
                              [&] { return mlir::emitError(op->getLoc()); })))
      continue;
    restricted->memberSet.insert(config);
    restricted->members.push_back(config);
    restricted->byTiles[Restriction::keyOf(getTileVectors(config))].push_back(
        config);
  }
  restriction = std::move(restricted);
  return restriction->members.size();
}

std::optional<ConfigAttr>
SearchSpace::pickMemberWithTiles(LoopTiles tiles, ConfigAttr like,
                                 RandomEngine &rng) const {
  const std::vector<ConfigAttr> *group = restriction->getWithTiles(tiles);
  if (!group)
    return std::nullopt;
  for (ConfigAttr member : *group)
    if (member.getUnroll() == like.getUnroll() &&
        member.getVector() == like.getVector() &&
        member.getStages() == like.getStages())
      return member;
  return (*group)[rng.uniform(group->size())];
}

std::optional<ConfigAttr>
SearchSpace::pickMemberDifferingIn(ConfigAttr config, bool inUnroll,
                                   RandomEngine &rng) const {
  const std::vector<ConfigAttr> *group =
      restriction->getWithTiles(getTileVectors(config));
  if (!group)
    return std::nullopt;
  SmallVector<ConfigAttr> others;
  for (ConfigAttr member : *group) {
    if (member == config || member.getVector() != config.getVector())
      continue;
    bool sameUnroll = member.getUnroll() == config.getUnroll();
    bool sameStages = member.getStages() == config.getStages();
    if (inUnroll ? sameStages && !sameUnroll : sameUnroll && !sameStages)
      others.push_back(member);
  }
  if (others.empty())
    return std::nullopt;
  return others[rng.uniform(others.size())];
}
