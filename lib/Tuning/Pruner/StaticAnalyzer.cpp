//===- StaticAnalyzer.cpp - Pruner's Parameterized Static Analyzer --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The formulas and the choices behind the counts are in docs/Pruner.md; keep
// the two in sync.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Pruner/StaticAnalyzer.h"

#include "tessel/Dialect/Tessel/IR/Schedule.h"
#include "tessel/Tuning/Features/Statements.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::features;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "psa: " + message);
}

llvm::Expected<PsaForm> tessel::parsePsaForm(llvm::StringRef text) {
  if (text == "paper")
    return PsaForm::Paper;
  if (text == "code")
    return PsaForm::Code;
  return makeError("unknown form '" + text + "' (known: paper, code)");
}

llvm::StringRef tessel::stringifyPsaForm(PsaForm form) {
  return form == PsaForm::Paper ? "paper" : "code";
}

PsaParameters PsaParameters::fromDevice(const DeviceDescription &device,
                                        PsaForm form) {
  PsaParameters p;
  p.peakGflops = device.fp32PeakGflops;
  p.tensorPeakGflops = device.fp16TensorPeakGflops;
  p.tf32TensorPeakGflops = device.tf32TensorPeakGflops;
  p.bandwidthGbps = device.dramBandwidthGbps;
  p.smCount = device.smCount;
  p.warpSize = device.warpSize;
  p.activeBlocksPerSm = 1;
  p.activeWarpsPerSm = device.warpSize > 0 && device.fp32LanesPerSm > 0
                           ? std::max<int64_t>(1, device.fp32LanesPerSm /
                                                      device.warpSize)
                           : 0;
  p.registerCap = form == PsaForm::Paper ? device.maxRegistersPerThread : 128;
  p.registersPerSm = form == PsaForm::Paper ? device.registersPerSm : 0;
  p.transactionBytes = 32;
  return p;
}

llvm::Error PsaParameters::verify() const {
  std::pair<const char *, double> fields[] = {
      {"peak GFLOP/s (T_p)", peakGflops},
      {"bandwidth GB/s (T_m)", bandwidthGbps},
      {"SM count (n_sm)", double(smCount)},
      {"active blocks per SM (n_b)", double(activeBlocksPerSm)},
      {"active warps per SM (n_w)", double(activeWarpsPerSm)},
      {"warp size (n_w*)", double(warpSize)},
      {"register cap (n_r*)", double(registerCap)},
      {"transaction bytes (n_l*)", double(transactionBytes)}};
  for (auto [name, value] : fields)
    if (!(value > 0) || !std::isfinite(value)) {
      std::string text;
      llvm::raw_string_ostream(text) << llvm::format("%g", value);
      return makeError(llvm::formatv("parameter {0} must be positive, got {1}",
                                     name, text));
    }
  return llvm::Error::success();
}

llvm::Expected<PsaPenalties>
PsaPenalties::parseDisabled(llvm::StringRef list) {
  PsaPenalties p;
  SmallVector<StringRef> names;
  list.split(names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    name = name.trim();
    if (name == "alpha")
      p.alpha = false;
    else if (name == "reg")
      p.reg = false;
    else if (name == "warp")
      p.warp = false;
    else if (name == "kernel")
      p.kernel = false;
    else if (name == "mem")
      p.mem = false;
    else if (name == "compute")
      p.alpha = p.reg = p.warp = p.kernel = false;
    else
      return makeError("unknown penalty '" + name +
                       "' (known: alpha, reg, warp, kernel, mem, compute)");
  }
  return p;
}

//===----------------------------------------------------------------------===//
// The penalty formulas
//===----------------------------------------------------------------------===//

/// x / (ceil(x / unit) * unit): the used fraction of whole units.
static double granular(double x, double unit) {
  if (x <= 0 || unit <= 0)
    return 1;
  return x / (std::ceil(x / unit) * unit);
}

double tessel::getRegisterCap(const PsaParameters &params, int64_t threads) {
  double cap = params.registerCap;
  if (params.registersPerSm > 0 && params.warpSize > 0 && threads > 0) {
    int64_t rounded =
        (threads + params.warpSize - 1) / params.warpSize * params.warpSize;
    cap = std::min(cap, double(params.registersPerSm / rounded));
  }
  return cap;
}

double tessel::getRegisterPenalty(double registers, double registerCap) {
  if (registerCap <= 0)
    return 1;
  return std::max(registers / registerCap, 1.0);
}

double tessel::getPaperAlpha(double registerAccesses, double flops) {
  return flops > 0 ? 1 + registerAccesses / flops : 1;
}

double tessel::getCodeAlpha(double registerAccesses, double flops) {
  return registerAccesses > 0 ? 1 + 1 / (1 + flops / registerAccesses) : 1;
}

double tessel::getWarpPenalty(int64_t threads, int64_t warpSize) {
  return granular(threads, warpSize);
}

double tessel::getKernelPenalty(int64_t blocks, int64_t threadsPerBlock,
                                const PsaParameters &params,
                                bool capBlockWarps) {
  double blockSlots = double(params.smCount) * params.activeBlocksPerSm;
  if (blocks >= blockSlots)
    return granular(blocks, blockSlots);
  int64_t warpsPerBlock =
      (threadsPerBlock + params.warpSize - 1) / std::max<int64_t>(1, params.warpSize);
  if (capBlockWarps)
    warpsPerBlock = std::min(warpsPerBlock, params.activeWarpsPerSm);
  double warpSlots = double(params.smCount) * params.activeWarpsPerSm;
  return granular(double(blocks) * warpsPerBlock, warpSlots);
}

double tessel::getMemoryPenalty(double runBytes, double transactionBytes) {
  return granular(runBytes, transactionBytes);
}

//===----------------------------------------------------------------------===//
// Counts of a statement
//===----------------------------------------------------------------------===//

static double getFlops(const OpCounts &counts) {
  double flops = 0;
  for (unsigned kind = 0; kind < NumOpKinds; ++kind)
    if (kind < IntAdd)
      flops += counts[kind] * (kind == FloatFma ? 2 : 1);
  return flops;
}

/// Whether a thread runs `loop` itself (neither the grid nor the block).
static bool isThreadLocal(const StatementLoop &loop) {
  return loop.binding == LoopBinding::Serial ||
         loop.binding == LoopBinding::VThread;
}

/// Per loop of the iteration space, the iterations the loops of `s` that
/// satisfy `select` cover, over the statement's base tile.
static SmallVector<int64_t>
getCoveredCounts(const Statement &s,
                 function_ref<bool(const StatementLoop &)> select) {
  SmallVector<int64_t> counts(s.baseTile);
  for (const StatementLoop &loop : s.loops)
    if (loop.dim >= 0 && select(loop))
      counts[loop.dim] *= loop.trip;
  return counts;
}

/// Elements of `buffer` a tile of `counts` iterations touches.
static double getElements(const BufferAccess &buffer,
                          ArrayRef<int64_t> counts) {
  return static_cast<double>(getFootprint(buffer.map, counts));
}

/// Bytes of the contiguous runs that a region of shape `shape` makes in a
/// row-major buffer of shape `layout`: the innermost extent, times the next
/// ones while the inner extents span the whole layout.
static double getRunBytes(ArrayRef<int64_t> shape, ArrayRef<int64_t> layout,
                          int64_t elementBytes) {
  if (shape.empty() || shape.size() != layout.size())
    return elementBytes;
  double run = 1;
  for (int r = shape.size() - 1; r >= 0; --r) {
    run *= shape[r];
    if (shape[r] != layout[r])
      break;
  }
  return run * elementBytes;
}

namespace {
/// One global access of a statement: its traffic and its contiguous runs.
struct GlobalTraffic {
  double elements = 0;
  double bytes = 0;
  double runBytes = 0;
};
} // namespace

/// The global traffic of `s`: for a copy, the elements it copies (its
/// executions); for other statements, per global buffer, the elements a
/// block touches times the blocks.
static SmallVector<GlobalTraffic> getGlobalTraffic(const Statement &s,
                                                   bool isCopy) {
  SmallVector<GlobalTraffic> traffic;
  SmallVector<int64_t> perBlock = getCoveredCounts(
      s, [](const StatementLoop &l) { return l.binding != LoopBinding::Block; });
  for (const BufferAccess &b : s.buffers) {
    if (b.scope != BufferScope::Global)
      continue;
    GlobalTraffic t;
    if (isCopy) {
      t.elements = s.getExecutions();
      // Runs of the staged tile (the copy's base tile).
      t.runBytes = getRunBytes(getFootprintShape(b.map, s.baseTile), b.layout,
                               b.elementBytes);
    } else {
      t.elements = getElements(b, perBlock) * s.blocks;
      t.runBytes = getRunBytes(getFootprintShape(b.map, perBlock), b.layout,
                               b.elementBytes);
    }
    t.bytes = t.elements * b.elementBytes;
    traffic.push_back(t);
  }
  return traffic;
}

//===----------------------------------------------------------------------===//
// The analyzer
//===----------------------------------------------------------------------===//

namespace {
/// Computes the PSA of the statements of one kernel.
class Analysis {
public:
  Analysis(const PsaParameters &params, const PsaOptions &options)
      : params(params), options(options) {}

  /// The PSA of `s`; `extra` is global traffic the statement's model leaves
  /// out (the write-back of a register accumulator).
  PsaStatement analyze(const Statement &s, std::string kind, bool isCopy,
                       ArrayRef<GlobalTraffic> extra = {}) const;

private:
  const PsaParameters &params;
  const PsaOptions &options;
};
} // namespace

PsaStatement Analysis::analyze(const Statement &s, std::string kind,
                               bool isCopy,
                               ArrayRef<GlobalTraffic> extra) const {
  bool paper = options.form == PsaForm::Paper;
  const PsaPenalties &enabled = options.penalties;
  PsaStatement r;
  r.kind = std::move(kind);
  r.blocks = s.blocks;
  r.threads = s.threads;
  r.flops = isCopy ? 0 : getFlops(s.opsPerIteration) * s.getExecutions();

  if (r.flops > 0) {
    SmallVector<int64_t> spatial =
        getCoveredCounts(s, [](const StatementLoop &l) {
          return isThreadLocal(l) && !l.reduction;
        });
    SmallVector<int64_t> local = getCoveredCounts(s, isThreadLocal);
    for (const BufferAccess &b : s.buffers) {
      r.registers += getElements(b, spatial);
      r.registerAccesses += getElements(b, local);
    }
    r.flopsPerThread =
        r.flops / (double(std::max<int64_t>(1, s.blocks)) *
                   double(std::max<int64_t>(1, s.threads)));
    if (enabled.alpha)
      r.alpha = paper ? getPaperAlpha(r.registerAccesses, r.flopsPerThread)
                      : getCodeAlpha(r.registerAccesses, r.flopsPerThread);
    if (enabled.reg)
      r.pReg = getRegisterPenalty(r.registers,
                                  getRegisterCap(params, s.threads));
    if (enabled.warp)
      r.pWarp = getWarpPenalty(s.threads, params.warpSize);
    if (enabled.kernel)
      r.pKernel =
          getKernelPenalty(s.blocks, s.threads, params, options.capBlockWarps);
    // Tensor-core statements compute at the tensor peak (T_p of the
    // paper is the CUDA-core peak; Pruner has no tensor-core sketch).
    double tensorPeak =
        s.tf32 ? params.tf32TensorPeakGflops : params.tensorPeakGflops;
    double peak =
        s.tensorCore && tensorPeak > 0 ? tensorPeak : params.peakGflops;
    r.computeSeconds = r.flops * r.alpha * r.pReg /
                       (peak * 1e9 * r.pKernel * r.pWarp);
  }

  // Memory: per global access n_m / (T_m * P_mem).
  SmallVector<GlobalTraffic> traffic = getGlobalTraffic(s, isCopy);
  traffic.append(extra.begin(), extra.end());
  double weighted = 0;
  for (const GlobalTraffic &t : traffic) {
    double amount = paper ? t.bytes : t.elements;
    double pMem = paper && enabled.mem
                      ? getMemoryPenalty(t.runBytes, params.transactionBytes)
                      : 1.0;
    r.memory += amount;
    weighted += amount / pMem;
  }
  r.pMem = weighted > 0 ? r.memory / weighted : 1;
  r.memorySeconds = weighted / (params.bandwidthGbps * 1e9);
  r.latency = paper ? r.computeSeconds + r.memorySeconds
                    : std::max(r.computeSeconds, r.memorySeconds);
  return r;
}

llvm::Expected<PsaEstimate>
StaticAnalyzer::analyze(linalg::LinalgOp op,
                        ArrayRef<linalg::LinalgOp> consumers,
                        SketchAttr sketch, ConfigAttr config) const {
  if (llvm::Error error = params.verify())
    return std::move(error);
  FailureOr<KernelStatements> kernel =
      buildStatements(op, consumers, sketch, config);
  if (failed(kernel))
    return makeError("the schedule does not fit the op (or a shape is "
                     "dynamic)");

  Analysis analysis(params, options);
  PsaEstimate estimate;
  // A register accumulator without fused consumers is written back to the
  // global output once: the compute statement's model leaves that store out.
  SmallVector<GlobalTraffic> writeBack;
  if (consumers.empty())
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto type = dyn_cast<ShapedType>(init.get().getType());
      if (!type || !sketch.getRegisterAccumulator())
        continue;
      GlobalTraffic t;
      t.elements = static_cast<double>(type.getNumElements());
      int64_t elementBytes =
          std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      t.bytes = t.elements * elementBytes;
      // Each thread stores its register tile: runs of the block's tile.
      LoopNest nest = *LoopNest::get(op);
      SmallVector<int64_t> blockCounts(nest.extents.size(), 1);
      for (unsigned loop = 0; loop < nest.size(); ++loop)
        if (!nest.isReduction[loop])
          blockCounts[loop] = nest.extents[loop] / config.getLoopTiles(loop)[0];
      t.runBytes = getRunBytes(
          getFootprintShape(op.getMatchingIndexingMap(&init), blockCounts),
          type.getShape(), elementBytes);
      writeBack.push_back(t);
    }
  estimate.statements.push_back(
      analysis.analyze(kernel->compute, "compute", false, writeBack));
  for (auto [i, copy] : llvm::enumerate(kernel->copies))
    estimate.statements.push_back(
        analysis.analyze(copy, "copy" + std::to_string(i), true));
  for (auto [i, consumer] : llvm::enumerate(kernel->consumers))
    estimate.statements.push_back(
        analysis.analyze(consumer, "consumer" + std::to_string(i), false));
  for (const PsaStatement &s : estimate.statements)
    estimate.latency += s.latency;
  if (!std::isfinite(estimate.latency))
    return makeError("the latency is not finite");
  return estimate;
}
