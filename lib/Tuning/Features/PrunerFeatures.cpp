//===- PrunerFeatures.cpp - Pruner's pattern-aware features ---------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The slots and the values are listed in docs/Pruner.md; keep the two in
// sync.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Features/PrunerFeatures.h"

#include "BufferFeatures.h"
#include "tessel/Tuning/Features/Statements.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::features;

/// The slots of the pattern, in the order the data moves.
static const char *const kSlotNames[kDataFlowSlots] = {
    "global0", "shared0", "global1", "shared1",
    "read0",   "read1",   "accumulator", "output"};

std::vector<std::string> PrunerFeatureExtractor::featureNames() const {
  std::vector<std::string> names = statements.featureNames();
  for (const char *slot : kSlotNames) {
    std::string prefix = std::string("dataflow.") + slot + ".";
    names.push_back(prefix + "log_flops");
    for (unsigned i = 0; i < kAnsorBufferFeatures; ++i)
      names.push_back(prefix + getBufferFeatureName(i).str());
    names.push_back(prefix + "alloc_bytes");
  }
  return names;
}

static double getFlops(const Statement &s) {
  double flops = 0;
  for (unsigned kind = 0; kind < IntAdd; ++kind)
    flops += s.opsPerIteration[kind] * (kind == FloatFma ? 2 : 1);
  return flops * s.getExecutions();
}

/// The 23 values of access `b` of statement `s`, counts scaled by
/// log2(1 + x) as in "ansor".
static void writeSlot(const Statement &s, const BufferAccess &b,
                      MutableArrayRef<float> out) {
  out[0] = std::log2(1 + getFlops(s));
  std::array<double, kAnsorBufferFeatures> values =
      computeBufferFeatures(s, b);
  for (unsigned i = 0; i < kAnsorBufferFeatures; ++i) {
    double v = values[i];
    if (!isOneHotBufferFeature(i))
      v = std::log2(1 + std::max(0.0, v));
    out[1 + i] = std::isfinite(v) ? static_cast<float>(v) : 0.0f;
  }
  double allocated = b.elementBytes;
  for (int64_t extent : b.layout)
    allocated *= extent;
  out[kDataFlowBufferFeatures - 1] = std::log2(1 + allocated);
}

FailureOr<std::vector<float>> PrunerFeatureExtractor::extract(
    linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> fusedConsumers,
    SketchAttr sketch, ConfigAttr config,
    const DeviceDescription &device) const {
  FailureOr<std::vector<float>> base =
      statements.extract(op, fusedConsumers, sketch, config, device);
  if (failed(base))
    return failure();
  FailureOr<KernelStatements> kernel =
      buildStatements(op, fusedConsumers, sketch, config);
  if (failed(kernel))
    return failure();

  std::vector<float> features = std::move(*base);
  features.resize(kPrunerFeatureWidth, 0.0f);
  auto slot = [&](unsigned index) {
    return MutableArrayRef<float>(features).slice(
        kAnsorFeatureWidth + index * kDataFlowBufferFeatures,
        kDataFlowBufferFeatures);
  };
  // Global -> shared: the copies of the first two staged operands.
  for (unsigned i = 0; i < 2 && i < kernel->copies.size(); ++i) {
    const Statement &copy = kernel->copies[i];
    if (copy.buffers.size() == 2) {
      writeSlot(copy, copy.buffers[0], slot(2 * i));
      writeSlot(copy, copy.buffers[1], slot(2 * i + 1));
    }
  }
  // Shared -> registers: the compute statement's reads of the staged
  // operands, then its accumulator.
  const Statement &compute = kernel->compute;
  ArrayRef<int64_t> shared = sketch.getShared();
  for (unsigned i = 0; i < 2 && i < shared.size(); ++i)
    if (shared[i] >= 0 && static_cast<size_t>(shared[i]) < compute.buffers.size())
      writeSlot(compute, compute.buffers[shared[i]], slot(4 + i));
  unsigned inputs = op.getNumDpsInputs();
  if (inputs < compute.buffers.size())
    writeSlot(compute, compute.buffers[inputs], slot(6));
  // The last store of the kernel: the last fused consumer's output.
  if (!kernel->consumers.empty()) {
    const Statement &last = kernel->consumers.back();
    if (!last.buffers.empty())
      writeSlot(last, last.buffers.back(), slot(7));
  }
  return features;
}
