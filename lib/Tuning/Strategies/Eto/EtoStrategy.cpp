//===- EtoStrategy.cpp - ETO's reuse-based tuner (Algorithm 1) ------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/EtoStrategy.h"
#include "tessel/Dialect/Tessel/IR/TensorCore.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <set>

using namespace mlir;
using namespace mlir::tessel;

static int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t value : values)
    result *= value;
  return result;
}

/// The divisors of `n`, increasing.
static SmallVector<int64_t> getDivisors(int64_t n) {
  SmallVector<int64_t> divisors;
  for (int64_t d = 1; d <= n; ++d)
    if (n % d == 0)
      divisors.push_back(d);
  return divisors;
}

EtoStrategy::EtoStrategy(EtoOptions options, ReferenceProgram reference)
    : options(options), reference(reference) {}

//===----------------------------------------------------------------------===//
// Set-up
//===----------------------------------------------------------------------===//

llvm::Error EtoStrategy::prepare(TaskSearchState &state) {
  if (prepared)
    return failure.empty() ? llvm::Error::success()
                           : llvm::createStringError(failure);
  prepared = true;
  auto fail = [&](const llvm::Twine &message) {
    failure = message.str();
    return llvm::createStringError(failure);
  };
  if (!reference.task || !reference.sketch || !reference.config)
    return fail("eto: the reference program needs a task, a sketch and a "
                "config");
  if (state.spaces.empty())
    return fail("eto: the task has no search space");
  StringRef alphaOp = state.spaces.front().getOp()->getName().getStringRef();
  StringRef betaOp = reference.task->getTargetOp()->getName().getStringRef();
  if (alphaOp != betaOp)
    return fail("eto: the task's op " + alphaOp +
                " differs from the reference's " + betaOp);
  // Alpha's space of beta's sketch.
  std::optional<unsigned> found;
  for (auto [index, candidate] : llvm::enumerate(state.spaces)) {
    if (haveSameSketchStructure({candidate.getSketch()}, {reference.sketch})) {
      found = index;
      break;
    }
  }
  if (!found) {
    std::string sketch;
    llvm::raw_string_ostream os(sketch);
    os << reference.sketch;
    return fail("eto: the task has no sketch like the reference's " + sketch);
  }
  spaceIndex = *found;
  space = &state.spaces[spaceIndex];

  FailureOr<SearchSpace> beta = SearchSpace::get(
      reference.task->getTargetOp(), reference.sketch, space->getDevice());
  if (failed(beta))
    return fail("eto: the reference sketch does not fit the reference op (" +
                reference.task->describe() + ")");
  betaSpace = std::move(*beta);
  const LoopNest &betaNest = betaSpace->getLoopNest();
  const LoopNest &alphaNest = space->getLoopNest();
  if (betaNest.isReduction != alphaNest.isReduction)
    return fail("eto: the reference op's loops differ from the task's");
  if (reference.config.getNumLoops() != betaNest.size())
    return fail(llvm::formatv("eto: the reference config has {0} loops, its "
                              "op {1}",
                              reference.config.getNumLoops(), betaNest.size()));
  SketchAttr sketch = reference.sketch;
  for (unsigned loop = 0; loop < betaNest.size(); ++loop) {
    ArrayRef<int64_t> tiles = reference.config.getLoopTiles(loop);
    unsigned levels = betaNest.isReduction[loop]
                          ? sketch.getNumReductionLevels()
                          : sketch.getNumSpaceLevels();
    if (tiles.size() != levels || product(tiles) != betaNest.extents[loop])
      return fail(llvm::formatv("eto: loop {0} of the reference config does "
                                "not fit the reference sketch and op",
                                loop));
  }

  betaFeatures = getProgramFeatures(*betaSpace, reference.config);
  auto reductionProduct = [](const LoopNest &nest) {
    int64_t result = 1;
    for (unsigned loop = 0; loop < nest.size(); ++loop)
      if (nest.isReduction[loop])
        result *= nest.extents[loop];
    return result;
  };
  ranges = computeFeatureRanges(
      betaFeatures, product(alphaNest.extents), product(betaNest.extents),
      reductionProduct(alphaNest), reductionProduct(betaNest), options);

  for (const Trial &trial : state.trials) {
    double &gflops = results[trial.candidate.getId()];
    gflops = std::max(gflops, trial.gflops);
  }

  switch (sketch.getKind()) {
  case SketchKind::MultiLevelTiling:
  // Tensor cores: block and fetch shapes as for multi-level tiling, in
  // whole instructions; warps instead of thread shapes (generateWarps).
  case SketchKind::TensorCore: {
    llvm::Expected<ShapeCostModel> costs = ShapeCostModel::get(*space, options);
    if (!costs)
      return fail("eto: " + llvm::toString(costs.takeError()));
    model.emplace(std::move(*costs));
    if (sharedThreadShapes)
      model->shareThreadShapes(sharedThreadShapes);
    if (sketch.getKind() == SketchKind::MultiLevelTiling) {
      llvm::Expected<ReuseShapes> shapes =
          getReuseShapes(*betaSpace, reference.config);
      if (!shapes)
        return fail("eto: " + llvm::toString(shapes.takeError()));
      betaShapes = std::move(*shapes);
      betaRegisters = estimateUnrolledRegisters(
          *betaSpace, getTileVectors(reference.config),
          reference.config.getUnroll());
    }
    for (int64_t blocks : model->getBlockCounts()) {
      if (!ranges.blocks.contains(blocks))
        continue;
      std::optional<SmallVector<int64_t>> shape = model->getBlockShape(blocks);
      if (!shape)
        continue;
      Lane lane;
      lane.blocks = blocks;
      lane.blockShape = std::move(*shape);
      lanes.push_back(std::move(lane));
    }
    return llvm::Error::success();
  }
  case SketchKind::CrossThreadReduction:
  case SketchKind::TwoLevelInjective:
    lanes.emplace_back();
    return llvm::Error::success();
  }
  return fail("eto: unknown sketch kind");
}

SmallVector<int64_t> EtoStrategy::getBlockCounts() const {
  SmallVector<int64_t> counts;
  if (model)
    for (const Lane &lane : lanes)
      counts.push_back(lane.blocks);
  return counts;
}

int64_t EtoStrategy::getDefaultUnroll(LoopTiles tiles) const {
  int64_t betaUnroll = reference.config.getUnroll();
  if (!model || isTensorCore())
    return betaUnroll;
  std::optional<int64_t> best;
  int64_t bestDistance = 0;
  for (int64_t unroll : kUnrollValues) {
    int64_t distance = std::abs(
        estimateUnrolledRegisters(*space, tiles, unroll) - betaRegisters);
    if (!best || distance < bestDistance ||
        (distance == bestDistance && *best != betaUnroll)) {
      best = unroll;
      bestDistance = distance;
    }
  }
  return *best;
}

//===----------------------------------------------------------------------===//
// Rounds
//===----------------------------------------------------------------------===//

std::optional<Candidate>
EtoStrategy::makeCandidate(ArrayRef<SmallVector<int64_t>> tiles,
                           std::optional<int64_t> unroll,
                           ArrayRef<int64_t> vector) {
  SmallVector<int64_t> widths(vector);
  if (widths.empty())
    widths.assign(space->getSketch().getShared().size(), 1);
  ConfigAttr config =
      ConfigAttr::get(space->getSketch().getContext(), tiles,
                      unroll ? *unroll : getDefaultUnroll(tiles), widths);
  if (failed(space->check(config)))
    return std::nullopt;
  return Candidate{spaceIndex, space->getSketch(), config};
}

std::vector<Candidate> EtoStrategy::generateThreads(Lane &lane) {
  std::vector<Candidate> candidates;
  unsigned fetchLoop = model->getLargestReductionLoop();
  if (options.fetchLoop == FetchLoop::Reference) {
    for (auto [index, fetches] : llvm::enumerate(betaShapes.fetchShape)) {
      if (fetches > 1) {
        fetchLoop = index;
        break;
      }
    }
  }
  int64_t target = betaFeatures.sharedElements / betaFeatures.blocks;
  SmallVector<int64_t> fetchShape =
      model->getFetchShape(lane.blockShape, target, fetchLoop);
  // Threads per block: products of divisors of the block extents.
  std::set<int64_t> perBlock = {1};
  for (int64_t extent : lane.blockShape) {
    std::set<int64_t> next;
    for (int64_t count : perBlock)
      for (int64_t divisor : getDivisors(extent))
        if (count * divisor <= space->getDevice().maxThreadsPerBlock)
          next.insert(count * divisor);
    perBlock = std::move(next);
  }
  for (int64_t threads : perBlock) {
    if (!ranges.threads.contains(lane.blocks * threads))
      continue;
    std::optional<ThreadShape> threadShape = model->getThreadShape(
        lane.blocks * threads, lane.blockShape, fetchShape);
    if (!threadShape)
      continue;
    ReuseShapes shapes{lane.blockShape, threadShape->vthreadShape,
                       threadShape->threadShape, fetchShape};
    llvm::Expected<SmallVector<SmallVector<int64_t>>> tiles =
        buildTiles(*space, shapes);
    if (!tiles) {
      llvm::consumeError(tiles.takeError());
      continue;
    }
    if (std::optional<Candidate> candidate = makeCandidate(*tiles))
      candidates.push_back(std::move(*candidate));
  }
  return candidates;
}

std::vector<Candidate> EtoStrategy::generateFetch(Lane &lane) {
  std::vector<Candidate> candidates;
  llvm::Expected<ReuseShapes> shapes =
      getReuseShapes(*space, lane.best->config);
  if (!shapes) {
    llvm::consumeError(shapes.takeError());
    return candidates;
  }
  for (const SmallVector<int64_t> &fetchShape : model->getFetchShapes()) {
    if (fetchShape == shapes->fetchShape)
      continue;
    int64_t shared =
        lane.blocks * model->getSharedElements(lane.blockShape, fetchShape);
    if (!ranges.sharedElements.contains(shared))
      continue;
    ReuseShapes next = *shapes;
    next.fetchShape = fetchShape;
    llvm::Expected<SmallVector<SmallVector<int64_t>>> tiles =
        buildTiles(*space, next);
    if (!tiles) {
      llvm::consumeError(tiles.takeError());
      continue;
    }
    if (std::optional<Candidate> candidate = makeCandidate(*tiles))
      candidates.push_back(std::move(*candidate));
  }
  return candidates;
}

std::vector<Candidate> EtoStrategy::generateUnroll(Lane &lane) {
  std::vector<Candidate> candidates;
  ConfigAttr config = lane.best->config;
  SmallVector<SmallVector<int64_t>> tiles = getTileVectors(config);
  std::set<int64_t> effects = {
      getUnrollEffect(*space, tiles, config.getUnroll())};
  // Unroll effects count CUDA-core register loops: tensor_core searches try
  // every other value.
  bool prune = options.pruneUnroll && !isTensorCore();
  for (int64_t unroll : kUnrollValues) {
    if (unroll == config.getUnroll())
      continue;
    if (prune &&
        !effects.insert(getUnrollEffect(*space, tiles, unroll)).second)
      continue;
    if (std::optional<Candidate> candidate =
            makeCandidate(tiles, unroll, config.getVector()))
      candidates.push_back(std::move(*candidate));
  }
  return candidates;
}

std::vector<Candidate> EtoStrategy::generateStages(Lane &lane) {
  std::vector<Candidate> candidates;
  ConfigAttr config = lane.best->config;
  for (int64_t stages : space->getStageOptions(getTileVectors(config))) {
    if (stages == config.getStages())
      continue;
    ConfigAttr next = config.withStages(stages);
    if (succeeded(space->check(next)))
      candidates.push_back(Candidate{spaceIndex, space->getSketch(), next});
  }
  return candidates;
}

std::vector<Candidate> EtoStrategy::generateVector(Lane &lane) {
  std::vector<Candidate> candidates;
  ConfigAttr config = lane.best->config;
  SmallVector<SmallVector<int64_t>> tiles = getTileVectors(config);
  unsigned input = lane.vectorInput;
  SmallVector<int64_t> vector(config.getVector());
  linalg::LinalgOp op = space->getOp();
  SketchAttr sketch = space->getSketch();
  const LoopNest &nest = space->getLoopNest();
  // The elements of the input each thread loads per staging step.
  int64_t elements =
      FootprintFunction(op.getMatchingIndexingMap(
                            op.getDpsInputOperand(sketch.getShared()[input])))
          .getElements(getBlockTile(sketch, tiles, nest));
  int64_t threads = getThreadsPerBlock(sketch, tiles, nest);
  std::optional<int64_t> load;
  if (elements % threads == 0)
    load = elements / threads;
  for (int64_t width : space->getVectorCandidates(input)) {
    if (width == vector[input])
      continue;
    if (options.pruneVectors && (!load || *load % width != 0))
      continue;
    SmallVector<int64_t> next = vector;
    next[input] = width;
    if (std::optional<Candidate> candidate =
            makeCandidate(tiles, config.getUnroll(), next))
      candidates.push_back(std::move(*candidate));
  }
  return candidates;
}

SmallVector<SmallVector<int64_t>>
EtoStrategy::buildTensorCoreTiles(ArrayRef<int64_t> blockShape,
                                  ArrayRef<int64_t> warps,
                                  ArrayRef<int64_t> fetchShape) const {
  const LoopNest &nest = space->getLoopNest();
  SmallVector<int64_t> instruction = getMmaLevelExtents(space->getOp());
  SmallVector<SmallVector<int64_t>> tiles;
  unsigned spaceIndex = 0, reductionIndex = 0;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    int64_t extent = nest.extents[loop], unit = instruction[loop];
    if (nest.isReduction[loop]) {
      int64_t fetches = fetchShape[reductionIndex++];
      tiles.push_back({fetches, extent / (fetches * unit), unit});
      continue;
    }
    int64_t block = blockShape[spaceIndex];
    int64_t warp = warps[spaceIndex++];
    tiles.push_back({extent / block, warp, block / (warp * unit), unit});
  }
  return tiles;
}

std::vector<Candidate> EtoStrategy::generateWarps(Lane &lane) {
  std::vector<Candidate> candidates;
  const LoopNest &nest = space->getLoopNest();
  linalg::LinalgOp op = space->getOp();
  SmallVector<int64_t> instruction = getMmaLevelExtents(op);
  int64_t target = betaFeatures.sharedElements / betaFeatures.blocks;
  SmallVector<int64_t> fetchShape = model->getFetchShape(
      lane.blockShape, target, model->getLargestReductionLoop());
  SmallVector<unsigned> spaceLoops;
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    if (!nest.isReduction[loop])
      spaceLoops.push_back(loop);
  // The fragments the warps of a block load per mma step: per warp and
  // staged input, the instruction tiles its mma tiles read.
  SmallVector<FootprintFunction> inputs;
  for (int64_t input : space->getSketch().getShared())
    inputs.emplace_back(
        op.getMatchingIndexingMap(op.getDpsInputOperand(input)));
  auto fragmentLoads = [&](ArrayRef<int64_t> warps) {
    SmallVector<int64_t> mmaTiles(nest.size(), 1);
    int64_t count = 1;
    for (auto [index, loop] : llvm::enumerate(spaceLoops)) {
      mmaTiles[loop] =
          lane.blockShape[index] / (warps[index] * instruction[loop]);
      count *= warps[index];
    }
    int64_t loads = 0;
    for (const FootprintFunction &footprint : inputs)
      loads += footprint.getElements(mmaTiles);
    return count * loads;
  };
  // Every warp grid (divisors of the block's instructions per space loop)
  // within the device's threads per block, by warp count.
  int64_t maxWarps = space->getDevice().maxThreadsPerBlock / kWarpSize;
  std::map<int64_t, SmallVector<SmallVector<int64_t>>> grids;
  SmallVector<int64_t> grid(spaceLoops.size(), 1);
  std::function<void(unsigned, int64_t)> visit = [&](unsigned index,
                                                     int64_t warps) {
    if (index == spaceLoops.size()) {
      grids[warps].push_back(grid);
      return;
    }
    unsigned loop = spaceLoops[index];
    for (int64_t count :
         getDivisors(lane.blockShape[index] / instruction[loop])) {
      if (warps * count > maxWarps)
        break;
      grid[index] = count;
      visit(index + 1, warps * count);
    }
  };
  visit(0, 1);
  for (auto &[warps, shapes] : grids) {
    if (!ranges.threads.contains(lane.blocks * warps * kWarpSize))
      continue;
    // Fewest fragment loads first (the most reuse of fragments in
    // registers), the enumeration order on ties; the first check() accepts.
    llvm::stable_sort(shapes, [&](ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
      return fragmentLoads(a) < fragmentLoads(b);
    });
    for (ArrayRef<int64_t> shape : shapes) {
      if (std::optional<Candidate> candidate = makeCandidate(
              buildTensorCoreTiles(lane.blockShape, shape, fetchShape))) {
        candidates.push_back(std::move(*candidate));
        break;
      }
    }
  }
  return candidates;
}

std::vector<Candidate> EtoStrategy::generateTensorCoreFetch(Lane &lane) {
  std::vector<Candidate> candidates;
  ConfigAttr config = lane.best->config;
  const LoopNest &nest = space->getLoopNest();
  SmallVector<int64_t> warps, fetchShape;
  for (unsigned loop = 0; loop < nest.size(); ++loop) {
    ArrayRef<int64_t> tiles = config.getLoopTiles(loop);
    if (nest.isReduction[loop])
      fetchShape.push_back(tiles.front());
    else
      warps.push_back(tiles[1]);
  }
  for (const SmallVector<int64_t> &shape : model->getFetchShapes()) {
    if (shape == fetchShape)
      continue;
    int64_t shared =
        lane.blocks * model->getSharedElements(lane.blockShape, shape);
    if (!ranges.sharedElements.contains(shared))
      continue;
    if (std::optional<Candidate> candidate =
            makeCandidate(buildTensorCoreTiles(lane.blockShape, warps, shape),
                          config.getUnroll(), config.getVector()))
      candidates.push_back(std::move(*candidate));
  }
  return candidates;
}

std::vector<Candidate> EtoStrategy::generateSimplified() {
  std::vector<Candidate> candidates;
  const LoopNest &nest = space->getLoopNest();
  SketchAttr sketch = space->getSketch();
  int64_t unroll = reference.config.getUnroll();
  int64_t maxThreads = space->getDevice().maxThreadsPerBlock;
  if (sketch.getKind() == SketchKind::CrossThreadReduction) {
    // One block per output; the threads of the last reduction loop are
    // searched in the thread range, else the count nearest beta's threads
    // per block.
    int64_t blocks = 1;
    std::optional<unsigned> last;
    for (unsigned loop = 0; loop < nest.size(); ++loop) {
      if (nest.isReduction[loop])
        last = loop;
      else
        blocks *= nest.extents[loop];
    }
    if (!last)
      return candidates;
    auto makeTiles = [&](int64_t threads) {
      SmallVector<SmallVector<int64_t>> tiles;
      for (unsigned loop = 0; loop < nest.size(); ++loop) {
        if (!nest.isReduction[loop])
          tiles.push_back({nest.extents[loop]});
        else if (loop == *last)
          tiles.push_back({nest.extents[loop] / threads, threads});
        else
          tiles.push_back({nest.extents[loop], 1});
      }
      return tiles;
    };
    SmallVector<int64_t> threadCounts;
    for (int64_t threads : getDivisors(nest.extents[*last]))
      if (threads <= maxThreads && ranges.threads.contains(blocks * threads))
        threadCounts.push_back(threads);
    if (threadCounts.empty()) {
      double target = static_cast<double>(betaFeatures.threads) /
                      std::max<int64_t>(1, betaFeatures.blocks);
      std::optional<int64_t> nearest;
      for (int64_t threads : getDivisors(nest.extents[*last]))
        if (threads <= maxThreads &&
            (!nearest || std::abs(std::log(threads / target)) <
                             std::abs(std::log(*nearest / target))))
          nearest = threads;
      if (nearest)
        threadCounts.push_back(*nearest);
    }
    for (int64_t threads : threadCounts)
      if (std::optional<Candidate> candidate =
              makeCandidate(makeTiles(threads), unroll))
        candidates.push_back(std::move(*candidate));
    return candidates;
  }
  // two_level_injective: every block count in range, the threads of a block
  // taken from the innermost loops first (consecutive threads, consecutive
  // elements).
  int64_t total = product(nest.extents);
  std::set<int64_t> counts = {1};
  for (int64_t extent : nest.extents) {
    std::set<int64_t> next;
    for (int64_t count : counts)
      for (int64_t divisor : getDivisors(extent))
        next.insert(count * divisor);
    counts = std::move(next);
  }
  for (int64_t blocks : counts) {
    if (!ranges.blocks.contains(blocks) || total / blocks > maxThreads)
      continue;
    int64_t left = total / blocks;
    SmallVector<SmallVector<int64_t>> tiles(nest.size());
    for (int loop = static_cast<int>(nest.size()) - 1; loop >= 0; --loop) {
      int64_t threads = std::gcd(nest.extents[loop], left);
      left /= threads;
      tiles[loop] = {nest.extents[loop] / threads, threads};
    }
    if (left != 1)
      continue;
    if (std::optional<Candidate> candidate = makeCandidate(tiles, unroll))
      candidates.push_back(std::move(*candidate));
  }
  return candidates;
}

std::vector<Candidate> EtoStrategy::generate(Lane &lane) {
  switch (lane.round) {
  case Round::Threads:
    if (!model)
      return generateSimplified();
    return isTensorCore() ? generateWarps(lane) : generateThreads(lane);
  case Round::Fetch:
    return isTensorCore() ? generateTensorCoreFetch(lane)
                          : generateFetch(lane);
  case Round::Unroll:
    return generateUnroll(lane);
  case Round::Vector:
    return generateVector(lane);
  case Round::Stages:
    return generateStages(lane);
  case Round::Start:
  case Round::Done:
    break;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Driving the rounds
//===----------------------------------------------------------------------===//

void EtoStrategy::consider(Lane &lane, const Candidate &candidate,
                           double gflops) {
  if (gflops > 0 && (!lane.best || gflops > lane.bestGflops)) {
    lane.best = candidate;
    lane.bestGflops = gflops;
  }
}

void EtoStrategy::enqueue(TaskSearchState &state, Lane &lane, unsigned index,
                          std::vector<Candidate> candidates) {
  for (Candidate &candidate : candidates) {
    Id id = candidate.getId();
    if (auto known = results.find(id); known != results.end()) {
      consider(lane, candidate, known->second);
      continue;
    }
    if (auto waiters = waiting.find(id); waiters != waiting.end()) {
      if (!llvm::is_contained(waiters->second, index)) {
        waiters->second.push_back(index);
        ++lane.outstanding;
      }
      continue;
    }
    // Proposed by someone else and never measured: nothing to wait for.
    if (state.seen.contains(id))
      continue;
    waiting[id].push_back(index);
    lane.pending.push_back(std::move(candidate));
    ++lane.outstanding;
  }
}

void EtoStrategy::advance(TaskSearchState &state, Lane &lane, unsigned index) {
  unsigned numShared = space->getSketch().getShared().size();
  while (lane.round != Round::Done && lane.pending.empty() &&
         lane.outstanding == 0) {
    Round next = Round::Done;
    switch (lane.round) {
    case Round::Start:
      next = Round::Threads;
      break;
    case Round::Threads:
      if (lane.best)
        next = model ? Round::Fetch : Round::Unroll;
      break;
    case Round::Fetch:
      next = Round::Unroll;
      break;
    case Round::Unroll:
      lane.vectorInput = 0;
      if (model)
        next = Round::Vector;
      break;
    case Round::Vector:
      ++lane.vectorInput;
      next = Round::Vector;
      break;
    case Round::Stages:
    case Round::Done:
      break;
    }
    // After the last staged input, the pipeline depth where the space has
    // the knob (Tessel's round 5, not in the paper).
    if (next == Round::Vector && lane.vectorInput >= numShared)
      next = space->hasStagesKnob() && lane.best ? Round::Stages : Round::Done;
    lane.round = next;
    if (next != Round::Done)
      enqueue(state, lane, index, generate(lane));
  }
}

std::vector<Candidate> EtoStrategy::propose(TaskSearchState &state, int count) {
  std::vector<Candidate> batch;
  if (llvm::Error error = prepare(state)) {
    llvm::consumeError(std::move(error));
    return batch;
  }
  for (auto [index, lane] : llvm::enumerate(lanes)) {
    advance(state, lane, index);
    while (!lane.pending.empty() && static_cast<int>(batch.size()) < count) {
      Candidate candidate = std::move(lane.pending.front());
      lane.pending.pop_front();
      state.seen.insert(candidate.getId());
      batch.push_back(std::move(candidate));
    }
  }
  return batch;
}

llvm::Error EtoStrategy::observe(TaskSearchState &state,
                                 llvm::ArrayRef<Trial> trials) {
  for (const Trial &trial : trials) {
    Id id = trial.candidate.getId();
    double &gflops = results[id];
    gflops = std::max(gflops, trial.gflops);
    auto waiters = waiting.find(id);
    if (waiters == waiting.end())
      continue;
    for (unsigned index : waiters->second) {
      consider(lanes[index], trial.candidate, trial.gflops);
      --lanes[index].outstanding;
    }
    waiting.erase(waiters);
  }
  return llvm::Error::success();
}
