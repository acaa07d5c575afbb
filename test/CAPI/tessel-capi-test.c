/*===- tessel-capi-test.c - Test of Tessel's C API -------------------------===*\
|*                                                                            *|
|* Part of the Tessel project.                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* A frontend written in C: parse a model, list its tasks, tune it on the
 * simulator into a records database, apply the records, compile to PTX, and
 * hand each entry point bad input. Checked by FileCheck.
 *
 * RUN: rm -f %t.db
 * RUN: tessel-capi-test %S/Inputs/matmul.mlir %S/Inputs/malformed.mlir %t.db 2>&1 | FileCheck %s
 */

#include "tessel-c/Tessel.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

/* Prints each diagnostic as "diagnostic: LOCATION: MESSAGE". */
static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                        void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), printToStdout,
                    NULL);
  printf(": ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static void printTask(const TesselTask *task, void *userData) {
  int *count = (int *)userData;
  printf("task %d: %.*s, %.0f FLOP, weight %lld, %lld fused\n", (*count)++,
         (int)task->opKind.length, task->opKind.data, task->flops,
         (long long)task->weight, (long long)task->fusedConsumers);
}

typedef struct {
  int rounds;
  long long lastTrials, budget;
  int simulated;
} Progress;

static void onProgress(const TesselTuneProgress *p, void *userData) {
  Progress *progress = (Progress *)userData;
  progress->rounds++;
  progress->lastTrials = p->trials;
  progress->budget = p->budget;
  progress->simulated = p->simulated;
}

/* Counts occurrences of `needle` in the printed module. */
typedef struct {
  const char *needle;
  size_t matched;
  int count;
} Counter;

static void countInText(MlirStringRef text, void *userData) {
  Counter *c = (Counter *)userData;
  size_t needleLength = strlen(c->needle);
  for (size_t i = 0; i < text.length; ++i) {
    c->matched = text.data[i] == c->needle[c->matched]
                     ? c->matched + 1
                     : (text.data[i] == c->needle[0] ? 1 : 0);
    if (c->matched == needleLength) {
      c->count++;
      c->matched = 0;
    }
  }
}

static int count(MlirModule module, const char *needle) {
  Counter c = {needle, 0, 0};
  mlirOperationPrint(mlirModuleGetOperation(module), countInText, &c);
  return c.count;
}

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static const char *kOptions =
    "{\"measure\": \"sim:h100\", \"sim_fidelity\": \"analytic\", "
    "\"trials\": 16, \"strategy\": \"evolutionary\", \"seed\": 1}";

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s MODEL MALFORMED DB\n", argv[0]);
    return 2;
  }
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  tesselRegisterAllDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);
  tesselRegisterAllPasses();

  /* Malformed text: the parser's diagnostic, located in the user's file. */
  MlirModule bad = mlirModuleCreateParseFromFile(context, str(argv[2]));
  printf("malformed module is null: %d\n", mlirModuleIsNull(bad));
  // CHECK: diagnostic: loc("{{.*}}malformed.mlir":2:{{[0-9]+}}): expected ')'
  // CHECK: malformed module is null: 1

  MlirModule model = mlirModuleCreateParseFromFile(context, str(argv[1]));
  if (mlirModuleIsNull(model))
    return 1;

  int taskCount = 0;
  MlirLogicalResult r = tesselExtractTasks(model, printTask, &taskCount);
  printf("extract: %s, %d task(s)\n", mlirLogicalResultIsSuccess(r) ? "ok" : "failed",
         taskCount);
  // CHECK: task 0: matmul, 4194304 FLOP, weight 1, 0 fused
  // CHECK: extract: ok, 1 task(s)

  Progress progress = {0, 0, 0, 0};
  TesselTuneSummary summary;
  r = tesselTune(model, str(kOptions), str(argv[3]), onProgress, &progress,
                 &summary);
  printf("tune: %s, run %lld, %lld trials, %lld/%lld tasks tuned, "
         "simulated %d, latency > 0: %d\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed",
         (long long)summary.runId, (long long)summary.trials,
         (long long)summary.tunedTaskCount, (long long)summary.taskCount,
         summary.simulated, summary.weightedLatencyUs > 0);
  printf("progress: %d round(s) > 0: %d, last %lld of %lld trials, "
         "simulated %d\n",
         progress.rounds, progress.rounds > 0, progress.lastTrials,
         progress.budget, progress.simulated);
  // CHECK: tune: ok, run 1, 16 trials, 1/1 tasks tuned, simulated 1, latency > 0: 1
  // CHECK: progress: {{[0-9]+}} round(s) > 0: 1, last 16 of 16 trials, simulated 1

  /* The records annotate the model, which then compiles to PTX. */
  r = tesselApplyTuned(model, str(argv[3]), str(""));
  printf("apply: %s, %d config(s)\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed",
         count(model, "tessel.config = #tessel.config<"));
  // CHECK: diagnostic: loc("{{.*}}matmul.mlir":2:8): tuned schedule from sim:h100-sxm:analytic (simulated):
  // CHECK: apply: ok, 1 config(s)
  r = tesselRunPassPipeline(
      model, str("builtin.module(tessel-to-cuda{chip=sm_90 format=isa})"));
  printf("compile: %s, %d binary, %d linalg op(s) left\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed",
         count(model, "gpu.binary @"), count(model, "linalg."));
  // CHECK: compile: ok, 1 binary, 0 linalg op(s) left

  /* Bad input to each entry point: a diagnostic and a failed result. */
  MlirModule fresh = mlirModuleCreateParseFromFile(context, str(argv[1]));
  r = tesselTune(fresh, str("{\"strategy\": \"annealing\", \"trials\": 4}"),
                 str(argv[3]), NULL, NULL, NULL);
  printf("unknown strategy: %s\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
  // One CHECK a line: a reflowed CHECK checks nothing after its first line.
  // clang-format off
  // CHECK: diagnostic: loc("{{.*}}matmul.mlir":0:0): unknown strategy 'annealing' (known: dgd, eto, eto-topk, evolutionary, {{(fasor, )?}}psa, random)
  // CHECK: unknown strategy: failed
  // clang-format on
  r = tesselTune(fresh, str("{\"trials\": 0}"), str(argv[3]), NULL, NULL, NULL);
  printf("bad options: %s\n", mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
  // CHECK: diagnostic: {{.*}}: trials=0 is out of range: at least 1
  // CHECK: bad options: failed
  r = tesselTune(fresh, str("{\"trials\": "), str(argv[3]), NULL, NULL, NULL);
  printf("bad JSON: %s\n", mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
  // CHECK: diagnostic: {{.*}}: tuning options: invalid JSON:
  // CHECK: bad JSON: failed
  r = tesselTune(fresh, str(kOptions), str(argv[1]), NULL, NULL, NULL);
  printf("not a database: %s\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
  // CHECK: diagnostic: {{.*}}: {{.*}}matmul.mlir: cannot open records database: file is not a database
  // CHECK: not a database: failed
  r = tesselApplyTuned(fresh, str("/nonexistent/dir/records.db"), str(""));
  printf("apply, missing database: %s\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
  // CHECK: diagnostic: {{.*}}: /nonexistent/dir/records.db: records database does not exist
  // CHECK: apply, missing database: failed
  r = tesselRunPassPipeline(fresh, str("builtin.module(no-such-pass)"));
  printf("bad pipeline: %s\n", mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
  // CHECK: diagnostic: {{.*}}: cannot parse the pass pipeline 'builtin.module(no-such-pass)': {{.*}}error: 'no-such-pass' does not refer to a registered pass or pass pipeline
  // CHECK: bad pipeline: failed
  r = tesselRunPassPipeline(fresh, str("func.func(canonicalize)"));
  printf("pipeline on functions: %s\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
  // CHECK: diagnostic: {{.*}}: the pass pipeline 'func.func(canonicalize)' is anchored on 'func.func'; expected builtin.module(...)
  // CHECK: pipeline on functions: failed

  /* A second run appends to the same database. */
  r = tesselTune(fresh, str(kOptions), str(argv[3]), NULL, NULL, &summary);
  printf("second run: %s, run %lld\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed",
         (long long)summary.runId);
  // CHECK: second run: ok, run 2

  mlirModuleDestroy(fresh);
  mlirModuleDestroy(model);
  mlirContextDestroy(context);
  return 0;
}
