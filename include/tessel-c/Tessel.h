/*===-- tessel-c/Tessel.h - C API of Tessel ------------------------*- C -*-===*\
|*                                                                            *|
|* Part of the Tessel project.                                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Tessel for frontends written in C or bound from other languages, in the   *|
|* style of MLIR's C API: it works on MlirContext, MlirDialectRegistry and    *|
|* MlirModule, takes MlirStringRef, and reports through callbacks. Errors are *|
|* emitted as diagnostics on the module's context (attach a handler with      *|
|* mlirContextAttachDiagnosticHandler) and the function returns a failed      *|
|* MlirLogicalResult; nothing is printed and nothing aborts.                  *|
|*                                                                            *|
|* Link libTesselCAPI.so, which also provides MLIR's IR C API (mlir-c/IR.h).  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TESSEL_C_TESSEL_H
#define TESSEL_C_TESSEL_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Registration
 *===----------------------------------------------------------------------===*/

/// Adds the tessel dialect, the upstream dialects frontends hand to Tessel,
/// and every dialect, extension and translation the lowering to CUDA needs.
MLIR_CAPI_EXPORTED void tesselRegisterAllDialects(MlirDialectRegistry registry);

/// Registers Tessel's passes and pipelines (`tessel-to-cuda`,
/// `tessel-apply-tuned`, ...) and the upstream passes, so that textual
/// pipelines can name them. Idempotent.
MLIR_CAPI_EXPORTED void tesselRegisterAllPasses(void);

/*===----------------------------------------------------------------------===*
 * Pipelines
 *===----------------------------------------------------------------------===*/

/// Runs the textual pass pipeline `pipeline` on `module`, e.g.
/// "builtin.module(tessel-to-cuda{chip=sm_90 format=bin})". Fails on a
/// pipeline that does not parse or a pass that fails, with diagnostics.
MLIR_CAPI_EXPORTED MlirLogicalResult tesselRunPassPipeline(MlirModule module,
                                                           MlirStringRef pipeline);

/*===----------------------------------------------------------------------===*
 * Tasks
 *===----------------------------------------------------------------------===*/

/// One tuning task of a model. The strings live until the callback returns.
typedef struct {
  /// Canonical text of the kernel, equal for identical kernels.
  MlirStringRef workloadKey;
  /// The target op's name without its dialect, e.g. "matmul".
  MlirStringRef opKind;
  /// Short summary, e.g. "matmul 128x256 * 256x64 f32".
  MlirStringRef description;
  /// FLOPs of one occurrence (an FMA is 2).
  double flops;
  /// Occurrences of the kernel in the model.
  int64_t weight;
  /// Elementwise consumers fused into the kernel.
  int64_t fusedConsumers;
} TesselTask;

typedef void (*TesselTaskCallback)(const TesselTask *task, void *userData);

/// Calls `callback` for each tuning task of `module` (linalg on tensors), in
/// the order of first occurrence. Fails, with a diagnostic, on linalg ops
/// on buffers.
MLIR_CAPI_EXPORTED MlirLogicalResult
tesselExtractTasks(MlirModule module, TesselTaskCallback callback,
                   void *userData);

/*===----------------------------------------------------------------------===*
 * Tuning
 *===----------------------------------------------------------------------===*/

/// The state of a tuning run after a round.
typedef struct {
  /// The round's task and the number of tasks.
  int64_t taskIndex, taskCount;
  /// Trials measured so far, and the budget.
  int64_t trials, budget;
  /// The best GFLOP/s of the round's task; 0 when none is valid yet.
  double bestGflops;
  /// Seconds since the start (with the simulator's virtual clock).
  double elapsedSeconds;
  /// True when the measurer is a model of a GPU (sim:<device>).
  bool simulated;
} TesselTuneProgress;

typedef void (*TesselTuneProgressCallback)(const TesselTuneProgress *progress,
                                           void *userData);

/// What a finished tuning run did.
typedef struct {
  /// The run's row in the records database.
  int64_t runId;
  /// Tasks of the model, and those with a valid best schedule.
  int64_t taskCount, tunedTaskCount;
  /// Trials measured.
  int64_t trials;
  /// Weighted model latency: sum over tasks of weight x best latency (us),
  /// over the tasks with a valid schedule.
  double weightedLatencyUs;
  /// Seconds in all, with the simulator's virtual clock.
  double elapsedSeconds;
  bool simulated;
} TesselTuneSummary;

/// Tunes the kernels of `module` into the records database at `dbPath`
/// (created when missing). `optionsJson` is a JSON object with the keys of
/// tessel-tune's report "options" (docs/CAPI.md), e.g.
/// {"measure": "sim:h100", "sim_fidelity": "analytic", "trials": 64,
///  "strategy": "evolutionary", "seed": 1}; keys left out keep their
/// defaults; an empty string means all defaults. `progress` (may be NULL) is
/// called after each round. On success `*summary` (may be NULL) is filled.
/// Fails, with a diagnostic, on bad options, an unknown strategy, a database
/// that cannot be opened, or a model without tunable ops.
MLIR_CAPI_EXPORTED MlirLogicalResult
tesselTune(MlirModule module, MlirStringRef optionsJson, MlirStringRef dbPath,
           TesselTuneProgressCallback progress, void *userData,
           TesselTuneSummary *summary);

/// Annotates each tunable op of `module` with the best schedule recorded in
/// the database at `dbPath` (the `tessel-apply-tuned` pass); `target` names
/// the measurer whose records are preferred, empty to prefer GPU records.
MLIR_CAPI_EXPORTED MlirLogicalResult tesselApplyTuned(MlirModule module,
                                                      MlirStringRef dbPath,
                                                      MlirStringRef target);

#ifdef __cplusplus
}
#endif

#endif /* TESSEL_C_TESSEL_H */
