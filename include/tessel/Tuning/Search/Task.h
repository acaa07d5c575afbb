//===- Task.h - Tuning tasks extracted from a model -------------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// A tuning task is one distinct kernel of a model, as in Ansor's task
// extraction: a linalg op with reduction loops (a matmul, a convolution, a
// pooling or another reduction) together with the elementwise consumers its
// kernel fuses. Identical kernels anywhere in the model share one task, keyed
// by a canonical text (the workload key), and the task's weight counts them.
// Each task carries a standalone module that runs its kernel alone, so that
// candidate schedules can be compiled and measured without the model. The
// key format and the extraction rules are in docs/SearchSpace.md.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_SEARCH_TASK_H
#define TESSEL_TUNING_SEARCH_TASK_H

#include "tessel/Dialect/Tessel/IR/TesselAttrs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tessel {

/// Name of the unit attribute marking the op a task module tunes.
constexpr llvm::StringLiteral kTaskTargetAttrName = "tessel.target";
/// Name of the function of a task module.
constexpr llvm::StringLiteral kTaskFunctionName = "main";

/// One distinct kernel of a model.
struct TuningTask {
  /// Canonical text of the kernel; equal for identical kernels.
  std::string workloadKey;
  /// The key under TaskEquality::IgnoreFloatConstants (equal to
  /// workloadKey under it, and for kernels without float constants).
  std::string keyIgnoringFloatConstants;
  /// Name of the target op without its dialect ("conv_2d_nchw_fchw").
  std::string opKind;
  /// FLOPs of one occurrence: the target op and its fused consumers.
  double flops = 0;
  /// Occurrences of the kernel in the model.
  int64_t weight = 0;
  /// Short human-readable summary, see describe().
  std::string description;
  /// Standalone module: `func.func @main` runs the kernel on its arguments.
  OwningOpRef<ModuleOp> module;
  /// Sketches the search may fill in (generateSketches of the target op).
  std::vector<SketchAttr> sketches;
  /// Number of elementwise consumers fused into the target op's kernel.
  int64_t fusedConsumers = 0;
  /// Inputs of the target op whose strict-inlinable producer (a tensor.pad,
  /// an injective linalg op) is part of the task and computed in the target
  /// op's kernel by the sketches that stage the input (SketchAttr::inlined).
  SmallVector<int64_t> inlinedInputs;

  /// The op of `module` marked `tessel.target`.
  linalg::LinalgOp getTargetOp() const;
  /// The description, e.g. "conv_2d_nchw_fchw 1x64x58x58 * 64x64x3x3 s1
  /// f32 +1 fused +pad inlined".
  const std::string &describe() const { return description; }
};

/// How many tasks `tasks` would be if the values of float constants did not
/// count (TaskEquality::IgnoreFloatConstants): the distinct
/// keyIgnoringFloatConstants.
int64_t countTasksIgnoringFloatConstants(llvm::ArrayRef<TuningTask> tasks);

/// A note for users of `tasks` when ignoring float constants would merge
/// some: "319 tasks are 13 when the values of float constants do not count
/// (--task-equality=ignore-float-constants)"; empty otherwise, and always
/// for tasks extracted under IgnoreFloatConstants (their keys are distinct).
std::string getTaskEqualityHint(llvm::ArrayRef<TuningTask> tasks);

/// Prints `tasks` as a table (index, weight, MFLOP, description) and the
/// model's GFLOP per run, as `tessel-tune --list-tasks` does.
void printTaskTable(llvm::raw_ostream &os, llvm::ArrayRef<TuningTask> tasks);

/// A linalg op that extractTasks leaves out although it needs a kernel of its
/// own, and why: Tessel cannot schedule it (dynamic shapes), so neither the
/// tuner nor `--tessel-to-cuda` can compile it.
struct UntunableOp {
  Operation *op;
  /// A sentence without the op's name, e.g. "its shapes are dynamic".
  std::string reason;
};

/// Emits one diagnostic of `severity` at each op of `ops`: "'linalg.matmul'
/// is not tuned: <reason>".
void emitUntunableOps(ArrayRef<UntunableOp> ops, DiagnosticSeverity severity);

/// Which differences between two kernels make them different tasks.
enum class TaskEquality {
  /// Every difference but SSA names, functions and the values of tensor
  /// operands (weights): the default.
  Structural,
  /// As Structural, and the values of floating-point constants inside the
  /// kernel do not count either: scalars in bodies and fills, padding
  /// values. Kernels whose weights the fusion folded into their bodies
  /// (splat weights, as in IREE's placeholder-weight models) become one task,
  /// as they would with real weights. A schedule does not depend on those
  /// values; the task's module keeps those of its first occurrence.
  IgnoreFloatConstants,
};

/// The name of `equality` as options spell it: "structural",
/// "ignore-float-constants".
llvm::StringRef stringifyTaskEquality(TaskEquality equality);
/// The TaskEquality named `name`, or std::nullopt.
std::optional<TaskEquality> parseTaskEquality(llvm::StringRef name);

/// Options of task extraction.
struct TaskExtractionOptions {
  /// Also make tasks of ops without reduction loops (elementwise, broadcast,
  /// transpose), like TVM's `include_simple_tasks=True`. Fills are never
  /// tasks.
  bool includeSimpleTasks = false;
  /// Also generate cross_thread_reduction sketches where the rule applies
  /// (see SketchRules.h).
  bool includeCrossThreadReduction = true;
  /// Also generate tensor_core sketches where the rule applies.
  bool includeTensorCore = true;
  /// Also generate TF32 tensor_core sketches of f32 contractions.
  bool includeTf32 = false;
  /// Fuse the module in place first (applyTesselFusion, as
  /// `--tessel-to-cuda` and `--tessel-apply-tuned` do), so that tasks are
  /// the fused groups that run. Idempotent.
  bool fuse = true;
  /// Which kernels are the same task (and share their workload key).
  TaskEquality equality = TaskEquality::Structural;
  /// When set, receives the ops left out that need a kernel (UntunableOp).
  std::vector<UntunableOp> *untunable = nullptr;
};

/// Extracts the tuning tasks of every function of `module`, deduplicated by
/// workload key, in the order of their first occurrence. Ops with dynamic
/// shapes or without a parallel loop are left out (and listed in
/// `options.untunable`). Fails on linalg ops that work on buffers.
llvm::Expected<std::vector<TuningTask>>
extractTasks(ModuleOp module, MLIRContext *context,
             const TaskExtractionOptions &options = {});

/// The workload key of `op` with its fused elementwise `consumers` (in
/// chain order) and the producers of its inputs `inlinedInputs`. Under
/// TaskEquality::IgnoreFloatConstants the values of floating-point constants
/// print as `cst:<type>`; without such constants both keys are equal.
std::string getWorkloadKey(linalg::LinalgOp op, ArrayRef<Operation *> consumers,
                           ArrayRef<int64_t> inlinedInputs = {},
                           TaskEquality equality = TaskEquality::Structural);

/// The inputs of `op` whose producers a task rooted at `op` includes: those
/// that some sketch of `op` inlines (as extractTasks does).
SmallVector<int64_t> getTaskInlinedInputs(linalg::LinalgOp op);

/// The consumers a task rooted at `op` fuses: the fusible elementwise chain
/// when the init of `op` is a fill, none otherwise (as extractTasks does).
SmallVector<Operation *> getTaskConsumers(linalg::LinalgOp op);

/// A clone of the task's module whose target op carries `sketch` and
/// `config` as `tessel.sketch` and `tessel.config` (and no `tessel.target`
/// marker), ready for the `tessel-to-cuda` pipeline.
OwningOpRef<ModuleOp> applySchedule(TuningTask &task, SketchAttr sketch,
                                    ConfigAttr config);

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_SEARCH_TASK_H
