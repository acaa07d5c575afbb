//===- ShapeCosts.cpp - ETO's BShape and TShape cost models ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Eto/ShapeCosts.h"
#include "tessel/Dialect/Tessel/IR/TensorCore.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::tessel;

/// The divisors of `n`, increasing.
static SmallVector<int64_t> getDivisors(int64_t n) {
  SmallVector<int64_t> small, large;
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0)
      continue;
    small.push_back(d);
    if (d != n / d)
      large.push_back(n / d);
  }
  small.append(large.rbegin(), large.rend());
  return small;
}

static int64_t getElementBytes(Value value) {
  Type type = getElementTypeOrSelf(value.getType());
  if (!type.isIntOrFloat())
    return 4;
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

static int64_t product(ArrayRef<int64_t> values) {
  int64_t result = 1;
  for (int64_t value : values)
    result *= value;
  return result;
}

llvm::Expected<ShapeCostModel> ShapeCostModel::get(const SearchSpace &space,
                                                   const EtoOptions &options) {
  SketchAttr sketch = space.getSketch();
  bool multiLevel = sketch.getKind() == SketchKind::MultiLevelTiling &&
                    sketch.getNumSpaceLevels() == 5 &&
                    sketch.getNumReductionLevels() == 3;
  bool tensorCore = sketch.getKind() == SketchKind::TensorCore &&
                    sketch.getNumSpaceLevels() == 4 &&
                    sketch.getNumReductionLevels() == 3;
  if (!multiLevel && !tensorCore)
    return llvm::createStringError(
        llvm::formatv("the shape cost models need a multi_level_tiling "
                      "\"SSSRRSRS\" or tensor_core \"SSRRSSR\" sketch, not "
                      "{0} \"{1}\"",
                      stringifySketchKind(sketch.getKind()),
                      sketch.getStructure())
            .str());
  if (options.cacheLineBytes <= 0)
    return llvm::createStringError(
        llvm::formatv("cache-line-bytes must be positive, not {0}",
                      options.cacheLineBytes)
            .str());
  ShapeCostModel model(space, options);
  const LoopNest &nest = space.getLoopNest();
  model.granules = tensorCore ? getMmaLevelExtents(space.getOp())
                              : SmallVector<int64_t>(nest.size(), 1);
  for (unsigned loop = 0; loop < nest.size(); ++loop)
    (nest.isReduction[loop] ? model.reductionLoops : model.spaceLoops)
        .push_back(loop);
  linalg::LinalgOp op = space.getOp();
  SmallVector<int64_t> inputs(sketch.getShared());
  if (inputs.empty())
    for (OpOperand *input : op.getDpsInputOperands())
      if (isa<ShapedType>(input->get().getType()))
        inputs.push_back(input->getOperandNumber());
  for (int64_t input : inputs) {
    OpOperand *operand = op.getDpsInputOperand(input);
    AffineMap map = op.getMatchingIndexingMap(operand);
    auto type = cast<ShapedType>(operand->get().getType());
    SmallVector<int64_t> point(nest.size(), 0);
    SmallVector<int64_t, 4> origin = map.compose(point);
    SmallVector<SmallVector<int64_t>> steps(origin.size(),
                                            SmallVector<int64_t>(nest.size()));
    for (unsigned loop = 0; loop < nest.size(); ++loop) {
      point[loop] = 1;
      SmallVector<int64_t, 4> at = map.compose(point);
      point[loop] = 0;
      for (unsigned result = 0; result < at.size(); ++result)
        steps[result][loop] = at[result] - origin[result];
    }
    model.operands.push_back({FootprintFunction(map), std::move(steps),
                              SmallVector<int64_t>(type.getShape()),
                              getElementBytes(operand->get())});
  }
  return model;
}

int64_t ShapeCostModel::getUnits(unsigned loop) const {
  return space->getLoopNest().extents[loop] / granules[loop];
}

SmallVector<int64_t>
ShapeCostModel::getLoopTile(ArrayRef<int64_t> blockShape,
                            ArrayRef<int64_t> fetchShape) const {
  const LoopNest &nest = space->getLoopNest();
  SmallVector<int64_t> tile(nest.extents);
  for (auto [loop, extent] : llvm::zip_equal(spaceLoops, blockShape))
    tile[loop] = extent;
  if (!fetchShape.empty())
    for (auto [loop, fetches] : llvm::zip_equal(reductionLoops, fetchShape))
      tile[loop] = nest.extents[loop] / fetches;
  return tile;
}

//===----------------------------------------------------------------------===//
// BShape
//===----------------------------------------------------------------------===//

int64_t ShapeCostModel::getBlockShapeCost(ArrayRef<int64_t> blockShape) const {
  SmallVector<int64_t> tile = getLoopTile(blockShape, {});
  int64_t lines = 0;
  for (const Operand &operand : operands) {
    SmallVector<int64_t> box = operand.footprint.getShape(tile);
    for (auto [extent, full] : llvm::zip_equal(box, operand.shape))
      extent = std::min(extent, full);
    // The innermost dim the box does not cover completely: the run of
    // consecutive elements spans it and every dim inside it.
    int64_t run = 1, rows = 1;
    int dim = static_cast<int>(box.size()) - 1;
    for (; dim >= 0; --dim) {
      run *= box[dim];
      if (box[dim] != operand.shape[dim])
        break;
    }
    for (int outer = 0; outer < dim; ++outer)
      rows *= box[outer];
    int64_t bytes = run * operand.elementBytes;
    lines +=
        rows * ((bytes + options.cacheLineBytes - 1) / options.cacheLineBytes);
  }
  int64_t blocks = 1;
  for (auto [loop, extent] : llvm::zip_equal(spaceLoops, blockShape))
    blocks *= space->getLoopNest().extents[loop] / extent;
  return lines * blocks;
}

SmallVector<int64_t> ShapeCostModel::getBlockCounts() const {
  std::set<int64_t> counts = {1};
  for (unsigned loop : spaceLoops) {
    std::set<int64_t> next;
    for (int64_t count : counts)
      for (int64_t divisor : getDivisors(getUnits(loop)))
        next.insert(count * divisor);
    counts = std::move(next);
  }
  return SmallVector<int64_t>(counts.begin(), counts.end());
}

std::optional<SmallVector<int64_t>>
ShapeCostModel::getBlockShape(int64_t blocks) const {
  const LoopNest &nest = space->getLoopNest();
  std::optional<SmallVector<int64_t>> best;
  int64_t bestCost = 0, bestFootprint = 0;
  SmallVector<int64_t> shape(spaceLoops.size(), 1);
  // Depth-first over the loops; `left` blocks remain to be made.
  std::function<void(unsigned, int64_t)> visit = [&](unsigned index,
                                                     int64_t left) {
    if (index == spaceLoops.size()) {
      if (left != 1)
        return;
      int64_t cost = getBlockShapeCost(shape);
      int64_t footprint = getSharedElements(shape, {});
      if (!best || cost < bestCost ||
          (cost == bestCost && footprint < bestFootprint)) {
        best = shape;
        bestCost = cost;
        bestFootprint = footprint;
      }
      return;
    }
    int64_t extent = nest.extents[spaceLoops[index]];
    // Larger block extents (fewer blocks along the loop) first.
    for (int64_t count : getDivisors(getUnits(spaceLoops[index]))) {
      if (left % count != 0)
        continue;
      shape[index] = extent / count;
      visit(index + 1, left / count);
    }
  };
  if (blocks > 0)
    visit(0, blocks);
  return best;
}

//===----------------------------------------------------------------------===//
// LShape
//===----------------------------------------------------------------------===//

int64_t ShapeCostModel::getSharedElements(ArrayRef<int64_t> blockShape,
                                          ArrayRef<int64_t> fetchShape) const {
  SmallVector<int64_t> tile = getLoopTile(blockShape, fetchShape);
  int64_t elements = 0;
  for (const Operand &operand : operands)
    elements += operand.footprint.getElements(tile);
  return elements;
}

SmallVector<SmallVector<int64_t>> ShapeCostModel::getFetchShapes() const {
  SmallVector<SmallVector<int64_t>> shapes;
  shapes.emplace_back(reductionLoops.size(), 1);
  for (auto [index, loop] : llvm::enumerate(reductionLoops)) {
    for (int64_t fetches : getDivisors(getUnits(loop))) {
      if (fetches == 1)
        continue;
      SmallVector<int64_t> shape(reductionLoops.size(), 1);
      shape[index] = fetches;
      shapes.push_back(std::move(shape));
    }
  }
  return shapes;
}

unsigned ShapeCostModel::getLargestReductionLoop() const {
  unsigned largest = 0;
  const LoopNest &nest = space->getLoopNest();
  for (unsigned index = 1; index < reductionLoops.size(); ++index)
    if (nest.extents[reductionLoops[index]] >
        nest.extents[reductionLoops[largest]])
      largest = index;
  return largest;
}

SmallVector<int64_t> ShapeCostModel::getFetchShape(ArrayRef<int64_t> blockShape,
                                                   int64_t targetSharedElements,
                                                   unsigned fetchLoop) const {
  SmallVector<int64_t> best(reductionLoops.size(), 1);
  if (reductionLoops.empty())
    return best;
  int64_t limit = space->getSharedMemoryLimit();
  int64_t elementBytes = 0;
  for (const Operand &operand : operands)
    elementBytes = std::max(elementBytes, operand.elementBytes);
  double bestDistance = 0;
  int64_t bestElements = 0;
  bool bestFits = false;
  for (int64_t fetches : getDivisors(getUnits(reductionLoops[fetchLoop]))) {
    SmallVector<int64_t> shape(reductionLoops.size(), 1);
    shape[fetchLoop] = fetches;
    int64_t elements = getSharedElements(blockShape, shape);
    bool fits = elements * elementBytes <= limit;
    double distance =
        std::abs(std::log(static_cast<double>(std::max<int64_t>(elements, 1)) /
                          std::max<int64_t>(targetSharedElements, 1)));
    bool better;
    if (fits != bestFits)
      better = fits;
    else if (fits)
      better = distance < bestDistance - 1e-12 ||
               (std::abs(distance - bestDistance) <= 1e-12 &&
                elements < bestElements);
    else
      better = elements < bestElements;
    if (fetches == 1 || better) {
      best = std::move(shape);
      bestDistance = distance;
      bestElements = elements;
      bestFits = fits;
    }
  }
  return best;
}

//===----------------------------------------------------------------------===//
// TShape
//===----------------------------------------------------------------------===//

int64_t
ShapeCostModel::getThreadShapeCost(ArrayRef<int64_t> blockShape,
                                   ArrayRef<int64_t> fetchShape,
                                   const ThreadShape &threadShape) const {
  const LoopNest &nest = space->getLoopNest();
  const DeviceDescription &device = space->getDevice();
  int64_t warpSize = std::max<int64_t>(1, device.warpSize);
  int64_t banks = std::max<int64_t>(1, device.sharedMemoryBanks);
  SmallVector<int64_t> blockTile = getLoopTile(blockShape, fetchShape);
  // Threads per space loop and the tile of one thread (its virtual threads
  // and outputs, one reduction step).
  SmallVector<int64_t> threadsPerLoop;
  SmallVector<int64_t> threadTile(nest.size(), 1);
  for (auto [index, loop] : llvm::enumerate(spaceLoops)) {
    int64_t outputs =
        threadShape.vthreadShape[index] * threadShape.threadShape[index];
    threadsPerLoop.push_back(blockShape[index] / outputs);
    threadTile[loop] = outputs;
  }
  int64_t threads = product(threadsPerLoop);
  int64_t cost = 0;
  SmallVector<int64_t> words;
  SmallVector<int64_t> perBank(banks);
  for (const Operand &operand : operands) {
    // Row-major strides of the operand's shared tile and the address step
    // of every loop.
    SmallVector<int64_t> shape = operand.footprint.getShape(blockTile);
    SmallVector<int64_t> strides(shape.size(), 1);
    for (int dim = static_cast<int>(shape.size()) - 2; dim >= 0; --dim)
      strides[dim] = strides[dim + 1] * shape[dim + 1];
    SmallVector<int64_t> step(nest.size(), 0);
    for (unsigned loop : spaceLoops)
      for (unsigned dim = 0; dim < strides.size(); ++dim)
        step[loop] += operand.steps[dim][loop] * strides[dim];
    int64_t loads = operand.footprint.getElements(threadTile);
    for (int64_t first = 0; first < threads; first += warpSize) {
      words.clear();
      for (int64_t lane = first; lane < std::min(threads, first + warpSize);
           ++lane) {
        int64_t rest = lane, address = 0;
        for (int index = static_cast<int>(spaceLoops.size()) - 1; index >= 0;
             --index) {
          int64_t coordinate = rest % threadsPerLoop[index];
          rest /= threadsPerLoop[index];
          address += step[spaceLoops[index]] * coordinate *
                     threadShape.threadShape[index];
        }
        words.push_back(address * operand.elementBytes / 4);
      }
      std::sort(words.begin(), words.end());
      words.erase(std::unique(words.begin(), words.end()), words.end());
      std::fill(perBank.begin(), perBank.end(), 0);
      int64_t degree = 0;
      for (int64_t word : words) {
        int64_t bank = ((word % banks) + banks) % banks;
        degree = std::max(degree, ++perBank[bank]);
      }
      cost += loads * degree;
    }
  }
  return cost;
}

std::optional<ThreadShape>
ShapeCostModel::getThreadShape(int64_t threads, ArrayRef<int64_t> blockShape,
                               ArrayRef<int64_t> fetchShape) const {
  int64_t blocks = 1;
  const LoopNest &nest = space->getLoopNest();
  for (auto [loop, extent] : llvm::zip_equal(spaceLoops, blockShape))
    blocks *= nest.extents[loop] / extent;
  if (threads <= 0 || threads % blocks != 0)
    return std::nullopt;
  std::vector<int64_t> key{threads};
  key.insert(key.end(), blockShape.begin(), blockShape.end());
  key.push_back(-1);
  key.insert(key.end(), fetchShape.begin(), fetchShape.end());
  auto [cached, inserted] = threadShapes->try_emplace(std::move(key));
  if (!inserted)
    return cached->second;
  cached->second = searchThreadShape(threads / blocks, blockShape, fetchShape);
  return cached->second;
}

std::optional<ThreadShape>
ShapeCostModel::searchThreadShape(int64_t perBlock,
                                  ArrayRef<int64_t> blockShape,
                                  ArrayRef<int64_t> fetchShape) const {
  struct Option {
    int64_t cost;
    int64_t vthreads;
    ThreadShape shape;
  };
  std::vector<Option> options;
  ThreadShape shape;
  shape.vthreadShape.assign(spaceLoops.size(), 1);
  shape.threadShape.assign(spaceLoops.size(), 1);
  std::function<void(unsigned, int64_t, int64_t)> visit =
      [&](unsigned index, int64_t left, int64_t vthreads) {
        if (index == spaceLoops.size()) {
          if (left == 1)
            options.push_back(
                {getThreadShapeCost(blockShape, fetchShape, shape), vthreads,
                 shape});
          return;
        }
        int64_t extent = blockShape[index];
        for (int64_t count : getDivisors(extent)) {
          if (left % count != 0)
            continue;
          int64_t rest = extent / count;
          for (int64_t vthread : getDivisors(rest)) {
            if (vthreads * vthread > kMaxVirtualThreads)
              break;
            shape.vthreadShape[index] = vthread;
            shape.threadShape[index] = rest / vthread;
            visit(index + 1, left / count, vthreads * vthread);
          }
        }
      };
  visit(0, perBlock, 1);
  // Cheapest first; ties to fewer virtual threads, then enumeration order.
  std::vector<size_t> order(options.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(options[a].cost, options[a].vthreads, a) <
           std::make_tuple(options[b].cost, options[b].vthreads, b);
  });
  for (size_t index : order) {
    Option &option = options[index];
    ReuseShapes shapes{SmallVector<int64_t>(blockShape),
                       option.shape.vthreadShape, option.shape.threadShape,
                       SmallVector<int64_t>(fetchShape)};
    llvm::Expected<SmallVector<SmallVector<int64_t>>> tiles =
        buildTiles(*space, shapes);
    if (!tiles) {
      llvm::consumeError(tiles.takeError());
      continue;
    }
    if (space->fitsTiles(*tiles))
      return std::move(option.shape);
  }
  return std::nullopt;
}
