//===- Device.h - Descriptions of NVIDIA GPUs read from JSON ----*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A DeviceDescription holds the numbers of one devices/<id>.json file (see
// devices/README.md for the schema): the limits that decide occupancy and the
// throughput figures that the simulated GPU and the cost model use. Parsing is
// strict: every field is required, unknown fields are rejected, and every
// error names the file and the field.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_DEVICE_H
#define TESSEL_TUNING_DEVICE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// One NVIDIA GPU as described by a devices/<id>.json file. Field names are
/// the JSON keys in camelCase; units are those of devices/README.md.
struct DeviceDescription {
  /// Marketing name of the SKU, e.g. "NVIDIA H100 SXM5 80GB".
  std::string name;
  /// Tessel device id, the file name without `.json`, e.g. "h100-sxm".
  std::string id;
  /// CUDA compute capability, "major.minor".
  std::string computeCapability;
  /// NVPTX target, "sm_XY".
  std::string chip;

  int64_t smCount = 0;
  int64_t warpSize = 0;
  int64_t maxThreadsPerBlock = 0;
  int64_t maxThreadsPerSm = 0;
  int64_t maxBlocksPerSm = 0;
  int64_t maxWarpsPerSm = 0;
  int64_t registersPerSm = 0;
  int64_t maxRegistersPerThread = 0;
  /// Register allocation granularity, in registers per warp.
  int64_t registerAllocationUnit = 0;
  int64_t sharedMemoryPerSmBytes = 0;
  /// Largest shared memory of one block with the dynamic opt-in.
  int64_t maxSharedMemoryPerBlockBytes = 0;
  /// Largest shared memory of one block without the opt-in.
  int64_t defaultSharedMemoryPerBlockBytes = 0;
  int64_t sharedMemoryAllocationUnitBytes = 0;
  /// Number of 4-byte shared memory banks.
  int64_t sharedMemoryBanks = 0;
  int64_t l2CacheBytes = 0;
  /// Peak DRAM bandwidth in GB/s (10^9 bytes per second).
  double dramBandwidthGbps = 0;
  /// Peak non-tensor FP32 throughput in GFLOP/s (an FMA is 2 FLOP).
  double fp32PeakGflops = 0;
  int64_t boostClockMhz = 0;
  int64_t fp32LanesPerSm = 0;
  /// Peak dense FP16 tensor-core throughput with FP32 accumulation, in
  /// GFLOP/s; 0 (the field is optional) when the device has none that
  /// Tessel uses (mma.sync m16n8k16 needs sm_80).
  double fp16TensorPeakGflops = 0;
  /// Peak dense TF32 tensor-core throughput (f32 inputs rounded to TF32,
  /// FP32 accumulation), in GFLOP/s; 0 (optional) where there is none that
  /// Tessel uses (mma.sync m16n8k8 needs sm_80).
  double tf32TensorPeakGflops = 0;
  /// Time a block's warps lose at a barrier, and at a barrier that waits
  /// for a synchronous global load (its latency exposed), in nanoseconds;
  /// fitted on the measured dataset (docs/SimulatedGpu.md, "Barriers"). 0
  /// (the fields are optional): the simulator's defaults.
  double barrierLatencyNs = 0;
  double loadBarrierLatencyNs = 0;
  /// Fixed cost of one kernel launch among back-to-back launches, in
  /// microseconds (Tessel's estimate; the simulator adds it per kernel).
  double launchOverheadUs = 0;

  /// Optional `sources` object: where each value comes from, by JSON key.
  std::map<std::string, std::string> sources;

  /// Parses the text of a device file. `fileName` only prefixes the error
  /// messages, e.g. "devices/x.json: missing field 'sm_count'".
  static llvm::Expected<DeviceDescription> parse(llvm::StringRef json,
                                                 llvm::StringRef fileName);
  /// Reads and parses the file at `path`, and checks that its `id` is the
  /// file name without `.json`.
  static llvm::Expected<DeviceDescription> load(llvm::StringRef path);

  /// Major and minor parts of the compute capability ("9.0" -> 9, 0).
  int getComputeCapabilityMajor() const;
  int getComputeCapabilityMinor() const;

  /// Shared memory that the driver reserves for every resident block (1 KiB
  /// from compute capability 8.0 on, as in CUDA's cuda_occupancy.h).
  int64_t getReservedSharedMemoryPerBlockBytes() const;

  /// Serializes the description in the devices/*.json format (without
  /// `sources` when it is empty).
  std::string toJSON() const;

  /// Overrides the facts a CUDA driver reports (the device line of
  /// tessel-cuda-runner, docs/MeasureProtocol.md): name, SM count, L2 size,
  /// shared memory per SM and per block (opt-in), threads per block,
  /// registers per SM and the SM clock. Returns the names of the fields that
  /// changed.
  std::vector<std::string> applyDriverFacts(const llvm::json::Object &facts);
};

/// The device file that describes the GPU a driver reports (by its name,
/// e.g. "NVIDIA H100 80GB HBM3" -> h100-sxm), with the driver's facts
/// applied over it.
llvm::Expected<DeviceDescription>
findDeviceForDriver(const llvm::json::Object &facts,
                    llvm::StringRef devicesDir = "");

/// The device files directory: $TESSEL_DEVICES_DIR when set, else the
/// devices/ directory of the source tree (compiled in), else the devices/
/// directory beside the bin/ of the running executable (a bundle).
llvm::StringRef getDefaultDevicesDir();

/// The JSON keys of a device file, in schema order (without `sources`).
llvm::ArrayRef<llvm::StringRef> getDeviceFieldNames();

/// Resolves a device id to its description in `devicesDir` (the default
/// directory when empty). Short aliases are accepted: `h100` is `h100-sxm`
/// and `a100` is `a100-sxm4-80gb`. Unknown ids list the known ones.
llvm::Expected<DeviceDescription> findDevice(llvm::StringRef id,
                                             llvm::StringRef devicesDir = "");

/// Loads every `*.json` file of `devicesDir` (the default directory when
/// empty), sorted by id; fails on the first bad file.
llvm::Expected<std::vector<DeviceDescription>>
loadAllDevices(llvm::StringRef devicesDir = "");

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_DEVICE_H
