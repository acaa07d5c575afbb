//===- SimulatedMeasurer.cpp - A model of a GPU as a measurer -------------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The formulas here are those of docs/SimulatedGpu.md; keep the two in sync.
//
//===----------------------------------------------------------------------===//

#include "tessel/Tuning/Measure/SimulatedMeasurer.h"
#include "tessel/Tuning/Measure/LaunchPlan.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

/// Dependent-issue latency of an FP32 FMA.
static constexpr double kFmaLatencyCycles = 4.0;
/// Independent accumulators beyond this add no instruction-level parallelism.
static constexpr double kMaxIlp = 4.0;
/// Instructions of loop control per innermost iteration.
static constexpr double kLoopOverheadInstructions = 3.0;
/// Latency of a global load that misses in L1, for Little's law.
static constexpr double kMemoryLatencyNs = 600.0;
/// L2 bandwidth as a multiple of DRAM bandwidth.
static constexpr double kL2BandwidthRatio = 3.0;
/// Global memory transaction granularity.
static constexpr double kSectorBytes = 32.0;
/// Widest global access of one thread.
static constexpr double kMaxAccessBytes = 16.0;
/// Independent global loads of one thread in flight, at most.
static constexpr double kMaxLoadsInFlight = 4.0;
/// Asynchronous copies (cp.async) of one thread in flight, at most: they
/// hold no registers, so a pipelined staging loop keeps the loads of
/// `stages - 1` steps in flight, up to this many.
static constexpr double kMaxAsyncCopiesInFlight = 16.0;
/// Width of a shared-memory bank.
static constexpr double kBankBytes = 4.0;
/// Defaults of the barrier latencies of a device file
/// (DeviceDescription::barrierLatencyNs, loadBarrierLatencyNs).
static constexpr double kDefaultBarrierLatencyNs = 200.0;
static constexpr double kDefaultLoadBarrierLatencyNs = 900.0;
/// Tensor cores (Tessel estimates, not NVIDIA values): dependent-issue
/// latency of an mma.sync m16n8k16, the independent mma tiles of a warp
/// beyond which nothing more overlaps, the issue cost of an ldmatrix (with
/// its address arithmetic) relative to an mma, and the share of an sm_90
/// chip's tensor peak that mma.sync reaches (the rest needs wgmma).
static constexpr double kMmaLatencyCycles = 32.0;
static constexpr double kMaxMmaIlp = 8.0;
static constexpr double kLdmatrixCostPerMma = 0.5;
static constexpr double kMmaSyncShareOfHopperPeak = 0.66;
/// FLOP of one mma.sync m16n8k16.
static constexpr double kMmaFlops = 2.0 * 16 * 8 * 16;
/// Warp schedulers (SM sub-partitions) of an SM, each with a tensor core.
static constexpr double kSubPartitionsPerSm = 4.0;

SimulatedMeasurer::SimulatedMeasurer(DeviceDescription device, uint64_t seed,
                                     double noiseStddev)
    : device(std::move(device)), state(seed),
      noiseStddev(std::max(noiseStddev, 0.0)) {}

std::string SimulatedMeasurer::name() const { return "sim:" + device.id; }

void SimulatedMeasurer::setRepeats(int newRepeats) {
  repeats = std::max(newRepeats, 1);
}

/// splitmix64: small, seedable and identical on every platform (unlike the
/// distributions of <random>).
uint64_t SimulatedMeasurer::nextRandom() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SimulatedMeasurer::nextGaussian() {
  // Box-Muller on two uniforms in (0, 1].
  double u1 = (static_cast<double>(nextRandom() >> 11) + 1.0) * 0x1.0p-53;
  double u2 = (static_cast<double>(nextRandom() >> 11) + 1.0) * 0x1.0p-53;
  return std::sqrt(-2.0 * std::log(u1)) *
         std::cos(2.0 * llvm::numbers::pi * u2);
}

static SimulatedEstimate fail(SimulatedEstimate estimate, MeasureStatus status,
                              std::string message) {
  estimate.status = status;
  estimate.message = std::move(message);
  return estimate;
}

MeasureCandidate mlir::tessel::getLaunchCandidate(const PlanLaunch &launch) {
  MeasureCandidate candidate;
  candidate.key = launch.module;
  candidate.gridBlocks = launch.getGridBlocks();
  candidate.blockThreads = launch.getBlockThreads();
  candidate.resources = launch.resources;
  if (launch.facts)
    candidate.facts = *launch.facts;
  return candidate;
}

SimulatedEstimate
SimulatedMeasurer::estimatePlan(const LaunchPlan &plan,
                                KernelResources *heaviest) const {
  SimulatedEstimate total;
  double slowest = -1;
  for (const PlanLaunch *launch : plan.getLaunches()) {
    SimulatedEstimate e = estimate(getLaunchCandidate(*launch));
    if (e.status != MeasureStatus::Ok) {
      e.message = "kernel " + launch->module + ": " + e.message;
      return e;
    }
    if (e.totalUs > slowest) {
      // The plan reports the occupancy, waves and bound of its slowest
      // kernel, and the sums of the times.
      slowest = e.totalUs;
      double computeUs = total.computeUs, dramUs = total.dramUs,
             l2Us = total.l2Us, sharedUs = total.sharedUs,
             latencyUs = total.latencyUs, totalUs = total.totalUs;
      total = e;
      total.computeUs = computeUs, total.dramUs = dramUs, total.l2Us = l2Us,
      total.sharedUs = sharedUs, total.latencyUs = latencyUs,
      total.totalUs = totalUs;
      if (heaviest)
        *heaviest = launch->resources;
    }
    total.computeUs += e.computeUs * e.waves.waves;
    total.dramUs += e.dramUs * e.waves.waves;
    total.l2Us += e.l2Us * e.waves.waves;
    total.sharedUs += e.sharedUs * e.waves.waves;
    total.latencyUs += e.latencyUs * e.waves.waves;
    total.totalUs += e.totalUs;
  }
  return total;
}

SimulatedEstimate
SimulatedMeasurer::estimate(const MeasureCandidate &candidate) const {
  const DeviceDescription &d = device;
  const KernelResources &res = candidate.resources;
  SimulatedEstimate e;

  // Launch checks, as the driver would report them.
  if (candidate.gridBlocks <= 0 ||
      candidate.gridBlocks > (int64_t(1) << 31) - 1)
    return fail(
        e, MeasureStatus::LaunchError,
        llvm::formatv("invalid grid of {0} blocks", candidate.gridBlocks));
  if (candidate.blockThreads <= 0 ||
      candidate.blockThreads > d.maxThreadsPerBlock)
    return fail(e, MeasureStatus::LaunchError,
                llvm::formatv("invalid block of {0} threads (max {1})",
                              candidate.blockThreads, d.maxThreadsPerBlock));
  if (res.registers > d.maxRegistersPerThread)
    return fail(e, MeasureStatus::OutOfResources,
                llvm::formatv("{0} registers per thread exceed the maximum of "
                              "{1}",
                              res.registers, d.maxRegistersPerThread));
  if (res.sharedMemoryBytes > d.maxSharedMemoryPerBlockBytes)
    return fail(e, MeasureStatus::OutOfResources,
                llvm::formatv("{0} bytes of shared memory per block exceed the "
                              "maximum of {1}",
                              res.sharedMemoryBytes,
                              d.maxSharedMemoryPerBlockBytes));

  e.occupancy = computeOccupancy(d, candidate.blockThreads, res.registers,
                                 res.sharedMemoryBytes);
  if (!e.occupancy.canLaunch())
    return fail(e, MeasureStatus::OutOfResources,
                llvm::formatv("too many resources requested for launch: not "
                              "one block fits on an SM (limited by {0})",
                              stringifyOccupancyLimit(e.occupancy.limit)));
  e.waves =
      computeWaves(candidate.gridBlocks, e.occupancy.blocksPerSm, d.smCount);

  const double grid = static_cast<double>(candidate.gridBlocks);
  const double smCount = static_cast<double>(d.smCount);
  const double warpSize = static_cast<double>(d.warpSize);
  // Blocks and SMs busy during one (full) wave.
  const double blocksInWave =
      std::min(grid, static_cast<double>(e.waves.blocksPerWave));
  const double activeSms = std::min(smCount, grid);
  const double blocksPerActiveSm = std::min(
      static_cast<double>(e.occupancy.blocksPerSm), std::ceil(grid / smCount));
  const double activeWarps =
      blocksPerActiveSm * static_cast<double>(e.occupancy.warpsPerBlock);
  const double waveFraction = blocksInWave / grid;

  // Compute: FP32 pipes (or tensor cores), derated by latency hiding and by
  // the instructions that are not FMAs (operand loads, loop control, spill
  // code).
  const double tile =
      static_cast<double>(std::max<int64_t>(candidate.facts.registerTile, 1));
  const double unroll =
      static_cast<double>(std::max<int64_t>(candidate.facts.unroll, 1));
  const double conflict = static_cast<double>(std::clamp<int64_t>(
      candidate.facts.bankConflictDegree, 1, d.sharedMemoryBanks));
  const double spillBytes =
      static_cast<double>(std::max<int64_t>(res.spillStoreBytes, 0) +
                          std::max<int64_t>(res.spillLoadBytes, 0));
  const double tensorPeakGflops = candidate.facts.tf32
                                      ? d.tf32TensorPeakGflops
                                      : d.fp16TensorPeakGflops;
  if (candidate.facts.mmaTilesPerWarp > 0 && tensorPeakGflops > 0) {
    // Tensor cores: each sub-partition issues an mma every few cycles and
    // needs latency / interval of them in flight; ldmatrix loads of the
    // fragments cost issue slots, fewer per mma the more tiles share them.
    // A TF32 mma (m16n8k8) does half the work of an f16 one at half the
    // peak: the same rate of instructions.
    double peak = tensorPeakGflops * 1e3;
    if (d.getComputeCapabilityMajor() >= 9)
      peak *= kMmaSyncShareOfHopperPeak;
    const double mmaPerCyclePerPartition =
        peak / (smCount * static_cast<double>(d.boostClockMhz) *
                kSubPartitionsPerSm *
                (candidate.facts.tf32 ? kMmaFlops / 2 : kMmaFlops));
    const double needed = kMmaLatencyCycles * mmaPerCyclePerPartition;
    const double tiles = static_cast<double>(candidate.facts.mmaTilesPerWarp);
    const double mmaIlp = std::min(tiles, kMaxMmaIlp);
    e.computeEfficiency = std::min(
        1.0, activeWarps / kSubPartitionsPerSm * mmaIlp / needed);
    const double overheadPerMma =
        kLdmatrixCostPerMma *
            static_cast<double>(candidate.facts.mmaLoadsPerWarp) / tiles +
        kLoopOverheadInstructions / (tiles * unroll) + spillBytes / 4.0 / tiles;
    const double tensorRate = peak * (activeSms / smCount) *
                              e.computeEfficiency / (1.0 + overheadPerMma);
    e.computeUs = candidate.facts.flops * waveFraction / tensorRate;
  } else {
    const double issueSlots =
        static_cast<double>(d.fp32LanesPerSm) / warpSize;
    const double ilp = std::min(tile, kMaxIlp);
    e.computeEfficiency =
        std::min(1.0, activeWarps * ilp / (issueSlots * kFmaLatencyCycles));
    const double laneUtilization =
        static_cast<double>(candidate.blockThreads) /
        (static_cast<double>(e.occupancy.warpsPerBlock) * warpSize);
    const double overheadPerFma = 2.0 / std::sqrt(tile) * conflict +
                                  kLoopOverheadInstructions / (tile * unroll) +
                                  spillBytes / 4.0 / tile;
    const double peakFlopsPerUs = d.fp32PeakGflops * 1e3;
    const double computeRate = peakFlopsPerUs * (activeSms / smCount) *
                               e.computeEfficiency * laneUtilization /
                               (1.0 + overheadPerFma);
    e.computeUs = candidate.facts.flops * waveFraction / computeRate;
  }

  // Global memory: sector amplification of uncoalesced accesses, L2 hits
  // when the footprint fits, Little's law for the bytes in flight.
  const double accessBytes = std::min(
      static_cast<double>(std::max<int64_t>(candidate.facts.vectorWidth, 1) *
                          std::max<int64_t>(candidate.facts.elementBytes, 1)),
      kMaxAccessBytes);
  const double amplification =
      candidate.facts.coalesced ? 1.0
                          : kSectorBytes / std::min(accessBytes, kSectorBytes);
  const double footprint = static_cast<double>(candidate.getFootprintBytes());
  const double requested =
      std::max(static_cast<double>(candidate.facts.globalBytesRequested), footprint);
  const double l2Bytes = static_cast<double>(d.l2CacheBytes);
  const double hitRate = footprint <= l2Bytes ? 1.0 : l2Bytes / footprint;
  const double dramBytes =
      footprint * (1.0 + (amplification - 1.0) * (1.0 - hitRate)) +
      (requested - footprint) * amplification * (1.0 - hitRate);
  const double threads = grid * static_cast<double>(candidate.blockThreads);
  const double iterationsPerThread =
      std::max(1.0, candidate.facts.flops / threads / (2.0 * tile));
  const double localBytes = threads * iterationsPerThread * spillBytes;
  const double l2TrafficBytes = requested * amplification + localBytes;

  const double dramBytesPerUs = d.dramBandwidthGbps * 1e3;
  // Predicated cooperative loads keep only some lanes loading.
  const double loadLaneUse = std::clamp(candidate.facts.loadLaneUse, 0.0, 1.0);
  double loadsInFlight = std::min(unroll, kMaxLoadsInFlight);
  if (candidate.facts.pipelineStages > 1)
    loadsInFlight = std::max(
        loadsInFlight,
        std::min(static_cast<double>((candidate.facts.pipelineStages - 1) *
                                     candidate.facts.loadsPerStep),
                 kMaxAsyncCopiesInFlight));
  const double bytesInFlight = activeSms * activeWarps * warpSize *
                               accessBytes * loadLaneUse * loadsInFlight;
  const double bytesNeeded = dramBytesPerUs * kMemoryLatencyNs * 1e-3;
  e.memoryEfficiency = std::min(1.0, bytesInFlight / bytesNeeded);
  e.dramUs = dramBytes * waveFraction / (dramBytesPerUs * e.memoryEfficiency);
  e.l2Us = l2TrafficBytes * waveFraction /
           (dramBytesPerUs * kL2BandwidthRatio * e.memoryEfficiency);

  // Shared memory: banks * 4 bytes per cycle per SM, serialized by conflicts.
  const double sharedBytesPerUsPerSm =
      static_cast<double>(d.sharedMemoryBanks) * kBankBytes *
      static_cast<double>(d.boostClockMhz);
  e.sharedUs = static_cast<double>(candidate.facts.sharedBytesMoved) * waveFraction *
               conflict / (sharedBytesPerUsPerSm * activeSms);

  // Barriers (counted in compiled kernels): the warps of a block meet at
  // every barrier, and one that waits for a synchronous global load exposes
  // that load's latency. The blocks of a wave wait side by side, so a
  // wave takes at least one block's chain of waits.
  if (candidate.facts.barriersPerThread >= 0) {
    const double barrierNs = d.barrierLatencyNs > 0 ? d.barrierLatencyNs
                                                    : kDefaultBarrierLatencyNs;
    const double loadBarrierNs = d.loadBarrierLatencyNs > 0
                                     ? d.loadBarrierLatencyNs
                                     : kDefaultLoadBarrierLatencyNs;
    const double loadBarriers = static_cast<double>(std::clamp<int64_t>(
        candidate.facts.loadBarriersPerThread, 0,
        candidate.facts.barriersPerThread));
    const double barriers =
        static_cast<double>(candidate.facts.barriersPerThread);
    e.latencyUs =
        (loadBarriers * loadBarrierNs + (barriers - loadBarriers) * barrierNs) *
        1e-3;
  }

  e.waveUs = e.computeUs;
  e.bound = "compute";
  for (auto [time, unit] : {std::pair<double, const char *>{e.dramUs, "dram"},
                            {e.l2Us, "l2"},
                            {e.sharedUs, "shared"},
                            {e.latencyUs, "latency"}}) {
    if (time > e.waveUs) {
      e.waveUs = time;
      e.bound = unit;
    }
  }
  e.totalUs =
      d.launchOverheadUs + static_cast<double>(e.waves.waves) * e.waveUs;
  return e;
}

std::vector<MeasureResult>
SimulatedMeasurer::measure(llvm::ArrayRef<MeasureCandidate> candidates) {
  std::vector<MeasureResult> results;
  results.reserve(candidates.size());
  for (const MeasureCandidate &candidate : candidates) {
    SimulatedEstimate e;
    KernelResources resources = candidate.resources;
    if (candidate.plan) {
      // A compiled module: its launches run one after the other.
      e = estimatePlan(*candidate.plan, &resources);
    } else {
      e = estimate(candidate);
    }
    MeasureResult result;
    result.key = candidate.key;
    result.status = e.status;
    result.resources = resources;
    result.simulated = true;
    result.device = name();
    if (e.status != MeasureStatus::Ok) {
      result.message = e.message;
      results.push_back(std::move(result));
      continue;
    }
    std::vector<double> samples;
    samples.reserve(repeats);
    for (int i = 0; i < repeats; ++i) {
      double factor =
          noiseStddev > 0 ? std::exp(noiseStddev * nextGaussian()) : 1.0;
      samples.push_back(e.totalUs * factor);
    }
    result.timing = TimingStats::fromSamples(samples);
    result.message = llvm::formatv(
        "simulated: {0} wave(s) of {1:F2} us, {2}-bound; {3} block(s)/SM "
        "limited by {4}",
        e.waves.waves, e.waveUs, e.bound, e.occupancy.blocksPerSm,
        stringifyOccupancyLimit(e.occupancy.limit));
    results.push_back(std::move(result));
  }
  return results;
}
