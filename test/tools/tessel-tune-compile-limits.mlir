// REQUIRES: ptxas
// Each candidate compiles in a child process with a memory and a time
// limit (--compile-memory-mib, --compile-timeout; docs/Tuning.md): a
// compilation that exceeds them is a compile error of its candidate, with
// the reason, and the run goes on to its end. Before, candidates compiled
// in the tuner's threads, and one schedule of BERT-base whose vector
// lowering allocated without bound ended the run (test/KNOWN_ISSUES.md,
// session 27).

// RUN: rm -f %t-time.db
// RUN: tessel-tune %s --measure=sim:h100 --strategy=random --trials=3 --measures-per-round=3 -j 2 --db=%t-time.db --seed=5 --quiet --compile-timeout=0.001 2>&1 | FileCheck %s --check-prefix=TIME
// TIME: 3 trials in {{.*}} (4 compiled)
// RUN: tessel-tune --db=%t-time.db --export=- | grep -c '"message":"the compilation took longer than 0.001 s (killed)".*"status":"compile_error"' | FileCheck %s --check-prefix=FOUR
// FOUR: 4

// RUN: rm -f %t-memory.db
// RUN: tessel-tune %s --measure=sim:h100 --strategy=random --trials=3 --measures-per-round=3 -j 2 --db=%t-memory.db --seed=5 --quiet --compile-memory-mib=1
// RUN: tessel-tune --db=%t-memory.db --export=- | grep -c '"message":"the compilation ran out of memory (limit 1 MiB)".*"status":"compile_error"' | FileCheck %s --check-prefix=FOUR

// Within the default limits the same candidates compile and are measured;
// the limits are stored with the run only when not the defaults.
// RUN: rm -f %t-ok.db
// RUN: tessel-tune %s --measure=sim:h100 --strategy=random --trials=3 --measures-per-round=3 -j 2 --db=%t-ok.db --seed=5 --quiet
// RUN: tessel-tune --db=%t-ok.db --export=- | grep -c '"status":"ok"' | FileCheck %s --check-prefix=FOUR
// RUN: tessel-tune --db=%t-memory.db --export=%t-memory.jsonl
// RUN: grep -o '"options_json":"{[^}]*' %t-memory.jsonl | uniq | FileCheck %s --check-prefix=STORED
// STORED: compile_memory_mib\":1
// RUN: tessel-tune --db=%t-ok.db --export=%t-ok.jsonl
// RUN: grep -o '"options_json":"{[^}]*' %t-ok.jsonl | uniq | FileCheck %s --check-prefix=DEFAULTS
// DEFAULTS: options_json
// DEFAULTS-NOT: compile_

// Bad limits: one line, exit 1.
// RUN: not tessel-tune %s --measure=sim:h100 --trials=1 --db=%t-bad.db --compile-timeout=-1 2>&1 | FileCheck %s --check-prefix=BADTIME
// BADTIME: tessel-tune: compile-timeout=-1 is out of range: at least 0 (0: no limit)
// RUN: not tessel-tune %s --measure=sim:h100 --trials=1 --db=%t-bad.db --compile-memory-mib=-5 2>&1 | FileCheck %s --check-prefix=BADMEMORY
// BADMEMORY: tessel-tune: compile-memory-mib=-5 is out of range: at least 0 (0: no limit)

func.func @main(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>) -> tensor<32x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
