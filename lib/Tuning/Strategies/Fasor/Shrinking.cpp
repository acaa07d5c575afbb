//===- Shrinking.cpp - Fasor's search-space shrinking ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Strategies/Fasor/Shrinking.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <iterator>
#include <numeric>

using namespace mlir::tessel::fasor;

llvm::StringRef mlir::tessel::fasor::getPrimitiveName(Primitive primitive) {
  switch (primitive) {
  case Primitive::Split:
    return "split";
  case Primitive::Fuse:
    return "fuse";
  case Primitive::Vectorization:
    return "vectorization";
  case Primitive::Reorder:
    return "reorder";
  case Primitive::Unrolling:
    return "unrolling";
  case Primitive::Parallel:
    return "parallel";
  case Primitive::ComputeAt:
    return "compute_at";
  case Primitive::ComputeInline:
    return "compute_inline";
  }
  return "";
}

Bottleneck mlir::tessel::fasor::classifyBottleneck(double memoryBound,
                                                    double computeBound) {
  return memoryBound >= computeBound ? Bottleneck::Memory
                                     : Bottleneck::Compute;
}

std::optional<Primitive>
mlir::tessel::fasor::parsePrimitiveName(llvm::StringRef name) {
  for (Primitive primitive : kAllPrimitives)
    if (getPrimitiveName(primitive) == name)
      return primitive;
  return std::nullopt;
}

static llvm::Error checkCount(int np) {
  if (np < 5 || np > kNumPrimitives)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("fasor: n_p must be 5 to 8 primitives, not {0}", np));
  return llvm::Error::success();
}

llvm::Expected<std::vector<Primitive>>
mlir::tessel::fasor::selectPrimitives(const SensitivityTable &table,
                                      Bottleneck bottleneck, int np) {
  if (llvm::Error error = checkCount(np))
    return std::move(error);
  auto sensitivity = [&](Primitive primitive) {
    auto found = table.find(primitive);
    return found == table.end() ? Sensitivity() : found->second;
  };
  std::vector<Primitive> order(std::begin(kAllPrimitives),
                               std::end(kAllPrimitives));
  std::stable_sort(order.begin(), order.end(), [&](Primitive a, Primitive b) {
    Sensitivity sa = sensitivity(a), sb = sensitivity(b);
    bool memory = bottleneck == Bottleneck::Memory;
    double firstA = memory ? sa.memory : sa.compute;
    double firstB = memory ? sb.memory : sb.compute;
    if (firstA != firstB)
      return firstA > firstB;
    return (memory ? sa.compute : sa.memory) >
           (memory ? sb.compute : sb.memory);
  });
  order.resize(np);
  std::sort(order.begin(), order.end());
  return order;
}

llvm::Expected<std::vector<Primitive>>
mlir::tessel::fasor::selectRandomPrimitives(int np, std::mt19937 &rng) {
  if (llvm::Error error = checkCount(np))
    return std::move(error);
  std::vector<Primitive> order(std::begin(kAllPrimitives),
                               std::end(kAllPrimitives));
  // Fisher-Yates with the generator's own draws (std::shuffle's are
  // implementation-defined).
  for (int i = kNumPrimitives - 1; i > 0; --i)
    std::swap(order[i], order[rng() % (i + 1)]);
  order.resize(np);
  std::sort(order.begin(), order.end());
  return order;
}

llvm::SmallVector<int64_t>
mlir::tessel::fasor::getPowerOfTwoSplitFactors(int64_t extent) {
  llvm::SmallVector<int64_t> factors;
  for (int64_t factor = 1; factor > 0 && factor <= extent; factor *= 2)
    if (extent % factor == 0)
      factors.push_back(factor);
  return factors;
}

llvm::SmallVector<int64_t>
mlir::tessel::fasor::getPowerOfTwoWidths(int64_t maxWidth) {
  llvm::SmallVector<int64_t> widths;
  for (int64_t width = 1; width <= maxWidth; width *= 2)
    widths.push_back(width);
  return widths;
}
