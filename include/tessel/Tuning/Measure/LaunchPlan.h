//===- LaunchPlan.h - What the host code of a compiled module does -*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// `--tessel-to-cuda` leaves a host function in the LLVM dialect that
// allocates buffers and launches kernels with constant geometry. A launch
// plan is that function evaluated once, symbolically: which buffers exist
// (arguments, allocations, constant globals with their data), which kernels
// run in which order with which parameters, and where the results are. The
// CUDA runner (docs/MeasureProtocol.md) replays a plan on a GPU without
// MLIR, and the simulated GPU times its launches.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_MEASURE_LAUNCHPLAN_H
#define TESSEL_TUNING_MEASURE_LAUNCHPLAN_H

#include "tessel/Dialect/Tessel/Transforms/KernelFacts.h"
#include "tessel/Dialect/Tessel/Transforms/KernelResources.h"
#include "tessel/Runtime/Request.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// One device allocation of the plan.
struct PlanBuffer {
  enum class Kind {
    /// The `argIndex`-th argument of the function (random input data).
    Argument,
    /// Allocated by the host code; its contents start undefined.
    Temporary,
    /// A constant global of the module, uploaded from `data`.
    Constant,
  };
  Kind kind = Kind::Temporary;
  int64_t bytes = 0;
  int64_t argIndex = -1;
  std::vector<uint8_t> data;
};

/// A kernel parameter. The plan's launches and copies are the runner
/// request's own structs (tessel/Runtime/Request.h), so the request that
/// CudaMeasurer writes has one declaration.
using PlanParam = ::tessel::runtime::LaunchParam;

/// A kernel launch of the host code, with what the compiler knows of it.
struct PlanLaunch : ::tessel::runtime::LaunchStep {
  /// What ptxas reported for the kernel.
  KernelResources resources;
  /// The schedule facts of the kernel, when materialization recorded them.
  std::optional<KernelFacts> facts;

  int64_t getGridBlocks() const {
    return int64_t(grid[0]) * grid[1] * grid[2];
  }
  int64_t getBlockThreads() const {
    return int64_t(block[0]) * block[1] * block[2];
  }
};

/// A device-to-device copy of the host code (a `llvm.memcpy` between
/// buffers).
using PlanCopy = ::tessel::runtime::CopyStep;

/// One step of the host code: a launch or a copy.
struct PlanStep {
  std::optional<PlanLaunch> launch;
  std::optional<PlanCopy> copy;
};

/// Where one result of the function lies after the plan ran.
struct PlanOutput {
  int64_t buffer = 0;
  int64_t offset = 0;
  /// "f32", "f16", "bf16", "f64", "i8", "i32", "i64".
  std::string dtype;
  SmallVector<int64_t> shape;

  int64_t getNumElements() const;
};

/// The evaluated host code of a compiled module.
struct LaunchPlan {
  std::vector<PlanBuffer> buffers;
  /// Cubin (or fatbin) bytes of each `gpu.binary`, by symbol name.
  std::map<std::string, std::string> binaries;
  std::vector<PlanStep> steps;
  std::vector<PlanOutput> outputs;

  /// The launches, in order.
  SmallVector<const PlanLaunch *> getLaunches() const;
};

/// Evaluates the host function `funcName` of `compiled` (the output of
/// `--tessel-to-cuda` with format=bin or fatbin). `argumentTypes` are the
/// function's argument types before lowering (ranked tensors or memrefs
/// with static shapes); `resultTypes` likewise. Emits a diagnostic and fails
/// on host code it cannot evaluate (dynamic shapes, host loops, calls).
FailureOr<LaunchPlan> extractLaunchPlan(ModuleOp compiled, StringRef funcName,
                                        TypeRange argumentTypes,
                                        TypeRange resultTypes);

/// The dtype name of `type` ("f32", ...), or std::nullopt.
std::optional<std::string> getDTypeName(Type type);
/// Bytes per element of a dtype name (0 for unknown names).
int64_t getDTypeBytes(StringRef dtype);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_MEASURE_LAUNCHPLAN_H
