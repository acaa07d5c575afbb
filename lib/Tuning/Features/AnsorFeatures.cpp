//===- AnsorFeatures.cpp - Ansor's statement features ---------------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The layout and the formulas are listed in docs/Features.md; keep the two in
// sync.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Features/AnsorFeatures.h"

#include "BufferFeatures.h"
#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Tuning/Features/Statements.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::features;

namespace {
/// Name of a feature and whether it is scaled by log2(1 + x).
struct FeatureSpec {
  std::string name;
  bool logScaled;
};
} // namespace

static const char *const kOpNames[NumOpKinds] = {
    "float_add", "float_sub",    "float_mul",  "float_div", "float_mod",
    "float_fma", "float_cmp",    "float_minmax", "float_math", "float_cast",
    "int_add",   "int_sub",      "int_mul",    "int_div",   "int_mod",
    "int_cmp",   "int_minmax",   "int_other"};

/// The one-hot positions of an annotation (Ansor's order).
static const char *const kPositionNames[] = {
    "inner_spatial", "middle_spatial", "outer_spatial", "inner_reduce",
    "middle_reduce", "outer_reduce",   "mixed",         "none"};
constexpr unsigned kNumPositions = 8;

static const char *const kBufferNames[kAnsorBufferFeatures] = {
    "access_read",
    "access_write",
    "access_read_write",
    "scope_global",
    "scope_shared",
    "scope_local",
    "bytes",
    "unique_bytes",
    "lines",
    "unique_lines",
    "reuse_loop_multiple_read",
    "reuse_serial_multiple_read",
    "reuse_none",
    "reuse_dis_iter",
    "reuse_dis_bytes",
    "reuse_count",
    "stride",
    "bytes_d_reuse",
    "unique_bytes_d_reuse",
    "lines_d_reuse",
    "unique_lines_d_reuse"};
bool features::isOneHotBufferFeature(unsigned index) {
  return index < 6 || (index >= 10 && index < 13);
}

llvm::StringRef features::getBufferFeatureName(unsigned index) {
  return kBufferNames[index];
}

static const char *const kKernelNames[kAnsorKernelFeatures] = {
    "shared_bytes_per_block",
    "register_tile",
    "output_alloc_bytes",
    "num_allocations",
    "flops",
    "global_bytes_read",
    "global_bytes_written",
    "global_bytes_requested",
    "shared_bytes_moved",
    "vector_width",
    "coalesced",
    "bank_conflict_degree",
    "blocks_per_sm",
    "warps_per_block",
    "shared_fraction_of_block_limit",
    "num_copy_statements",
    "num_fused_consumers"};
static bool isRawKernelFeature(unsigned index) {
  return index == 10 || index == 14;
}

static const char *const kBlockNames[kAnsorStatementBlocks] = {
    "compute", "copy", "consumer"};

static std::vector<FeatureSpec> getStatementLayout() {
  std::vector<FeatureSpec> layout;
  for (const char *op : kOpNames)
    layout.push_back({op, true});
  for (const char *annotation : {"vec", "unroll", "parallel"}) {
    std::string prefix = std::string(annotation) + "_";
    layout.push_back({prefix + "innermost_len", true});
    layout.push_back({prefix + "product", true});
    layout.push_back({prefix + "num_loops", true});
    for (const char *position : kPositionNames)
      layout.push_back({prefix + "pos_" + position, false});
  }
  for (const char *binding :
       {"blockIdx_x", "blockIdx_y", "blockIdx_z", "threadIdx_x",
        "threadIdx_y", "threadIdx_z", "vthread"})
    layout.push_back({binding, true});
  for (unsigned i = 0; i < kAnsorCurveSamples; ++i)
    layout.push_back({"ai_curve_" + std::to_string(i), false});
  for (unsigned b = 0; b < kAnsorMaxBuffers; ++b)
    for (unsigned f = 0; f < kAnsorBufferFeatures; ++f)
      layout.push_back({"buffer" + std::to_string(b) + "." + kBufferNames[f],
                        !isOneHotBufferFeature(f)});
  layout.push_back({"num_loops", true});
  layout.push_back({"loop_product", true});
  layout.push_back({"auto_unroll_max_step", true});
  assert(layout.size() == kAnsorStatementFeatures && "layout out of sync");
  return layout;
}

static std::vector<FeatureSpec> getLayout() {
  std::vector<FeatureSpec> layout;
  std::vector<FeatureSpec> statement = getStatementLayout();
  for (const char *block : kBlockNames)
    for (const FeatureSpec &spec : statement)
      layout.push_back({std::string(block) + "." + spec.name, spec.logScaled});
  for (unsigned i = 0; i < kAnsorKernelFeatures; ++i)
    layout.push_back({std::string("kernel.") + kKernelNames[i],
                      !isRawKernelFeature(i)});
  assert(layout.size() == kAnsorFeatureWidth && "layout out of sync");
  return layout;
}

std::vector<std::string> AnsorFeatureExtractor::featureNames() const {
  std::vector<std::string> names;
  for (FeatureSpec &spec : getLayout())
    names.push_back(std::move(spec.name));
  return names;
}

//===----------------------------------------------------------------------===//
// Statement features (unscaled)
//===----------------------------------------------------------------------===//

namespace {
/// Appends the features of one statement, unscaled, to `out`.
class StatementFeatures {
public:
  StatementFeatures(const Statement &s, int64_t autoUnroll,
                    std::vector<double> &out)
      : s(s), autoUnroll(autoUnroll), out(out) {}
  void write();

private:
  void writeAnnotation(function_ref<bool(const StatementLoop &)> annotated);
  void writeCurve();
  void writeBuffers();

  const Statement &s;
  int64_t autoUnroll;
  std::vector<double> &out;
};
} // namespace

void StatementFeatures::writeAnnotation(
    function_ref<bool(const StatementLoop &)> annotated) {
  double innermost = 0, productOfLengths = 1, count = 0;
  std::optional<unsigned> position;
  bool mixed = false;
  for (const StatementLoop &loop : s.loops) {
    if (!annotated(loop))
      continue;
    innermost = loop.trip;
    productOfLengths *= loop.trip;
    ++count;
    unsigned p = (loop.reduction ? 3 : 0) +
                 (loop.position == LoopPosition::Inner    ? 0
                  : loop.position == LoopPosition::Middle ? 1
                                                          : 2);
    if (position && *position != p)
      mixed = true;
    position = p;
  }
  out.push_back(innermost);
  out.push_back(count ? productOfLengths : 0);
  out.push_back(count);
  unsigned hot = !position ? 7 : mixed ? 6 : *position;
  for (unsigned i = 0; i < kNumPositions; ++i)
    out.push_back(i == hot ? 1 : 0);
}

static double getFlops(const OpCounts &counts) {
  double flops = 0;
  for (unsigned kind = 0; kind < NumOpKinds; ++kind)
    flops += counts[kind] * (kind == FloatFma ? 2 : 1);
  return flops;
}

void StatementFeatures::writeCurve() {
  // Operations and bytes under each loop, innermost first, starting with
  // one execution of the statement.
  double perIteration = getFlops(s.opsPerIteration);
  if (perIteration == 0) {
    out.insert(out.end(), kAnsorCurveSamples, 0.0);
    return;
  }
  SmallVector<double> logOps, intensity;
  double ops = perIteration;
  for (int loop = s.loops.size(); loop >= 0; --loop) {
    if (loop < static_cast<int>(s.loops.size()))
      ops *= s.loops[loop].trip;
    double bytes = 0;
    for (const BufferAccess &b : s.buffers)
      bytes += s.getInnerElements(b, loop) * b.elementBytes;
    logOps.push_back(std::log2(1 + ops));
    intensity.push_back(bytes > 0 ? ops / bytes : 0);
  }
  // Sample at evenly spaced points of log2(1 + ops), linearly interpolated.
  unsigned point = 0;
  for (unsigned i = 0; i < kAnsorCurveSamples; ++i) {
    double x = logOps.back() * (i + 1) / kAnsorCurveSamples;
    while (point + 1 < logOps.size() && logOps[point] < x - 1e-9)
      ++point;
    if (point == 0 || logOps[point] < x - 1e-9) {
      out.push_back(intensity[point]);
      continue;
    }
    double x0 = logOps[point - 1], x1 = logOps[point];
    double t = x1 > x0 ? (x - x0) / (x1 - x0) : 1;
    out.push_back(intensity[point - 1] +
                  t * (intensity[point] - intensity[point - 1]));
  }
}

namespace {
/// The features of one buffer access, before sorting.
struct BufferFeatures {
  double bytes = 0, uniqueBytes = 0;
  std::array<double, kAnsorBufferFeatures> values{};
};
} // namespace

std::array<double, kAnsorBufferFeatures>
features::computeBufferFeatures(const Statement &s, const BufferAccess &b) {
  double executions = s.getExecutions();
  std::array<double, kAnsorBufferFeatures> v{};
  v[static_cast<unsigned>(b.access)] = 1;
  v[3 + static_cast<unsigned>(b.scope)] = 1;
  auto depends = [&](const StatementLoop &loop) {
    return loop.dim < 0 || b.map.isFunctionOfDim(loop.dim);
  };
  auto coefficient = [&](const StatementLoop &loop) -> int64_t {
    if (loop.dim < 0)
      return loop.step;
    return getAddressCoefficient(b.map, b.layout, loop.dim) * loop.step;
  };

  // Stride: of the innermost loop that moves the access.
  double stride = 0, reduceRatio = executions;
  double inner = 1;
  for (const StatementLoop &loop : llvm::reverse(s.loops)) {
    if (depends(loop)) {
      stride = std::abs(static_cast<double>(coefficient(loop)));
      reduceRatio = inner;
      break;
    }
    inner *= loop.trip;
  }
  double eb = b.elementBytes;
  double bytes = executions * eb;
  double uniqueElements = 1;
  for (int64_t extent : b.uniqueShape)
    uniqueElements *= extent;
  double uniqueBytes = uniqueElements * eb;
  double lines =
      executions / reduceRatio *
      std::min(1.0, std::max(1.0, stride) * eb / kAnsorCacheLineBytes);
  double uniqueLines = 1;
  if (!b.uniqueShape.empty()) {
    for (int64_t extent : ArrayRef(b.uniqueShape).drop_back())
      uniqueLines *= extent;
    uniqueLines *= std::ceil(b.uniqueShape.back() * eb /
                             static_cast<double>(kAnsorCacheLineBytes));
  }

  // Reuse: at the innermost loop that does not move the access.
  double reuseIter = 0, reuseBytes = 0, reuseCount = 0;
  unsigned reuseType = 12;
  for (int loop = s.loops.size() - 1; loop >= 0; --loop) {
    if (depends(s.loops[loop]))
      continue;
    reuseType = 10;
    reuseCount = s.loops[loop].trip;
    reuseIter = 1;
    for (const StatementLoop &l : ArrayRef(s.loops).drop_front(loop + 1))
      reuseIter *= l.trip;
    for (const BufferAccess &other : s.buffers)
      reuseBytes += s.getInnerElements(other, loop + 1) * other.elementBytes;
    break;
  }
  if (reuseType == 12 && b.serialReuse) {
    reuseType = 11;
    reuseCount = 1;
  }
  v[reuseType] = 1;
  double divisor = std::max(1.0, reuseCount);
  v[6] = bytes;
  v[7] = uniqueBytes;
  v[8] = lines;
  v[9] = uniqueLines;
  v[13] = reuseIter;
  v[14] = reuseBytes;
  v[15] = reuseCount;
  v[16] = stride;
  v[17] = bytes / divisor;
  v[18] = uniqueBytes / divisor;
  v[19] = lines / divisor;
  v[20] = uniqueLines / divisor;
  return v;
}

void StatementFeatures::writeBuffers() {
  std::vector<BufferFeatures> buffers;
  for (const BufferAccess &b : s.buffers) {
    BufferFeatures f;
    f.values = computeBufferFeatures(s, b);
    f.bytes = f.values[6];
    f.uniqueBytes = f.values[7];
    buffers.push_back(f);
  }
  // Largest buffers first; the smallest are dropped.
  std::stable_sort(buffers.begin(), buffers.end(),
                   [](const BufferFeatures &a, const BufferFeatures &b) {
                     if (a.bytes != b.bytes)
                       return a.bytes > b.bytes;
                     return a.uniqueBytes > b.uniqueBytes;
                   });
  for (unsigned i = 0; i < kAnsorMaxBuffers; ++i) {
    if (i < buffers.size())
      out.insert(out.end(), buffers[i].values.begin(),
                 buffers[i].values.end());
    else
      out.insert(out.end(), kAnsorBufferFeatures, 0.0);
  }
}

void StatementFeatures::write() {
  double executions = s.getExecutions();
  for (double count : s.opsPerIteration)
    out.push_back(count * executions);
  writeAnnotation([](const StatementLoop &l) { return l.vectorized; });
  writeAnnotation([](const StatementLoop &l) { return l.unrolled; });
  writeAnnotation([](const StatementLoop &l) {
    return l.binding == LoopBinding::Block || l.binding == LoopBinding::Thread;
  });
  for (double extent : {double(s.blocks), 1.0, 1.0, double(s.threads), 1.0,
                        1.0, double(s.vthreads)})
    out.push_back(extent);
  writeCurve();
  writeBuffers();
  out.push_back(s.loops.size());
  out.push_back(executions);
  out.push_back(autoUnroll);
}

//===----------------------------------------------------------------------===//
// Extraction
//===----------------------------------------------------------------------===//

/// The slot-wise sum of the features of `statements` (zeros for none).
static std::vector<double> sumStatements(ArrayRef<Statement> statements,
                                         int64_t autoUnroll) {
  std::vector<double> sum(kAnsorStatementFeatures, 0.0);
  for (const Statement &s : statements) {
    std::vector<double> one;
    StatementFeatures(s, autoUnroll, one).write();
    assert(one.size() == kAnsorStatementFeatures && "layout out of sync");
    for (unsigned i = 0; i < kAnsorStatementFeatures; ++i)
      sum[i] += one[i];
  }
  return sum;
}

static int64_t getElementBytes(Value value) {
  Type type = getElementTypeOrSelf(value.getType());
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

FailureOr<std::vector<float>> AnsorFeatureExtractor::extract(
    linalg::LinalgOp op, ArrayRef<linalg::LinalgOp> fusedConsumers,
    SketchAttr sketch, ConfigAttr config,
    const DeviceDescription &device) const {
  FailureOr<KernelStatements> kernel =
      buildStatements(op, fusedConsumers, sketch, config);
  if (failed(kernel))
    return failure();
  FailureOr<KernelFacts> facts =
      computeKernelFacts(op, fusedConsumers, sketch, config);
  if (failed(facts))
    return failure();

  int64_t autoUnroll = config.getUnroll();
  std::vector<double> raw;
  raw.reserve(kAnsorFeatureWidth);
  for (ArrayRef<Statement> statements :
       {ArrayRef<Statement>(kernel->compute), ArrayRef(kernel->copies),
        ArrayRef(kernel->consumers)}) {
    std::vector<double> block = sumStatements(statements, autoUnroll);
    raw.insert(raw.end(), block.begin(), block.end());
  }

  // Kernel-wide features.
  LoopNest nest = *LoopNest::get(op);
  SmallVector<int64_t> blockTile = getBlockTile(sketch, config, nest);
  double sharedBytes = 0;
  for (int64_t operand : sketch.getShared()) {
    OpOperand *input = op.getDpsInputOperand(operand);
    sharedBytes += static_cast<double>(
        getFootprint(op.getMatchingIndexingMap(input), blockTile) *
        getElementBytes(input->get()));
  }
  // A pipelined staging loop allocates `stages` buffers of each tile (not
  // in Ansor, which has no pipelining): the only feature that tells its
  // configs from synchronous ones with the same tiles.
  sharedBytes *= static_cast<double>(std::max<int64_t>(1, config.getStages()));
  const Statement &compute = kernel->compute;
  double warpSize = device.warpSize > 0 ? device.warpSize : 32;
  raw.push_back(sharedBytes);
  raw.push_back(facts->registerTile);
  raw.push_back(facts->globalBytesWritten);
  raw.push_back(sketch.getShared().size() +
                (sketch.getRegisterAccumulator() ? 1 : 0));
  raw.push_back(facts->flops);
  raw.push_back(facts->globalBytesRead);
  raw.push_back(facts->globalBytesWritten);
  raw.push_back(facts->globalBytesRequested);
  raw.push_back(facts->sharedBytesMoved);
  raw.push_back(facts->vectorWidth);
  raw.push_back(facts->coalesced ? 1 : 0);
  raw.push_back(facts->bankConflictDegree);
  raw.push_back(static_cast<double>(compute.blocks) /
                std::max<int64_t>(1, device.smCount));
  raw.push_back(std::ceil(compute.threads / warpSize));
  raw.push_back(device.maxSharedMemoryPerBlockBytes > 0
                    ? sharedBytes / device.maxSharedMemoryPerBlockBytes
                    : 0);
  raw.push_back(kernel->copies.size());
  raw.push_back(kernel->consumers.size());
  assert(raw.size() == kAnsorFeatureWidth && "layout out of sync");

  // Scale counts by log2(1 + x), as Ansor does. The layout is built once:
  // the evolutionary search extracts thousands of vectors per round.
  static const std::vector<bool> logScaled = [] {
    std::vector<bool> scaled;
    for (const FeatureSpec &spec : getLayout())
      scaled.push_back(spec.logScaled);
    return scaled;
  }();
  std::vector<float> features(kAnsorFeatureWidth);
  for (unsigned i = 0; i < kAnsorFeatureWidth; ++i) {
    double value = raw[i];
    if (logScaled[i])
      value = std::log2(1 + std::max(0.0, value));
    if (!std::isfinite(value))
      value = 0;
    features[i] = static_cast<float>(value);
  }
  return features;
}
