// --task-equality=ignore-float-constants makes kernels that differ only in
// the values of float constants one task: here two matmul + bias layers
// whose splat biases the fusion folds into the bodies (0.5 and 0.25), as
// IREE's placeholder-weight models have them. The records of such a run
// apply to every op of the task, through --tessel-apply-tuned and through
// an exported tuning spec; an op's records under its own key come first.
//
// RUN: tessel-tune %s --list-tasks | FileCheck %s --check-prefix=STRUCTURAL
// STRUCTURAL: task weight        MFLOP kernel
// STRUCTURAL-NEXT: 0      1          0.1 matmul 32x48 * 48x48 f32 +1 fused
// STRUCTURAL-NEXT: 1      1          0.1 matmul 32x48 * 48x48 f32 +1 fused
// STRUCTURAL-NEXT: 2 tasks, 0.0 GFLOP per model run
// RUN: tessel-tune %s --list-tasks --task-equality=ignore-float-constants \
// RUN:   | FileCheck %s --check-prefix=IGNORING
// IGNORING: task weight        MFLOP kernel
// IGNORING-NEXT: 0      2          0.1 matmul 32x48 * 48x48 f32 +1 fused
// IGNORING-NEXT: 1 tasks, 0.0 GFLOP per model run
//
// Structural listings and runs say how many tasks the switch would leave.
// RUN: tessel-tune %s --list-tasks 2>&1 >/dev/null | FileCheck %s --check-prefix=HINT
// RUN: rm -f %t.hint.db %t.hint.db-wal %t.hint.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=random \
// RUN:   --trials=4 --measures-per-round=4 --db=%t.hint.db --seed=1 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=HINT
// HINT: tessel-tune: note: 2 tasks are 1 when the values of float constants do not count (--task-equality=ignore-float-constants)
// RUN: tessel-tune %s --list-tasks --task-equality=ignore-float-constants 2>&1 >/dev/null \
// RUN:   | count 0
//
// RUN: not tessel-tune %s --list-tasks --task-equality=values 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// RUN: not tessel-tune %s --trials=4 --db=%t.bad.db --task-equality=values 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: tessel-tune: task-equality=values is not one of: structural, ignore-float-constants
//
// One task of weight 2, stored under the key with `cst:<type>` for the
// values; the run's options keep the switch.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy=random \
// RUN:   --trials=8 --measures-per-round=4 --db=%t.db --seed=1 \
// RUN:   --task-equality=ignore-float-constants --report=%t.json | FileCheck %s --check-prefix=TUNED
// TUNED-NOT: task-equality
// TUNED: 0      2 {{.*}} matmul 32x48 * 48x48 f32 +1 fused
// TUNED: weighted latency {{.*}} (SIMULATED) over 1 task(s)
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// REPORT: "task_equality": "ignore-float-constants"
// REPORT: "key": "linalg.matmul ins(tensor<32x48xf32>, tensor<48x48xf32>) outs(fill(cst:f32):tensor<32x48xf32>) {{.*}} body{^(%a0:f32, %a1:f32) %r2=arith.addf(%a0, cst:f32){fastmath = #arith.fastmath<none>}:f32; linalg.yield(%r2);}"
//
// Both layers take the task's schedule, the same one.
// RUN: tessel-opt %s --tessel-apply-tuned="db=%t.db" 2>&1 | FileCheck %s --check-prefix=APPLIED
// APPLIED-NOT: no tuning record
// APPLIED: linalg.matmul {tessel.config = [[CONFIG:#tessel.config<[^>]*>]], tessel.sketch = [[SKETCH:#tessel.sketch<[^>]*>]]}
// APPLIED: linalg.matmul {tessel.config = [[CONFIG]], tessel.sketch = [[SKETCH]]}
//
// The spec has one matcher for both, and gives the same module (it applies
// to the fused model, where the biases are in the bodies).
// RUN: tessel-tune %s --db=%t.db --export-spec=%t.spec.mlir 2>&1 | FileCheck %s --check-prefix=NOTE
// NOTE: tessel-tune: tuning spec for 2 of 2 workloads in {{.*}}.spec.mlir
// RUN: FileCheck %s --check-prefix=SPEC < %t.spec.mlir
// SPEC: transform.tessel.match.workload %{{.*}} "linalg.matmul ins(tensor<32x48xf32>, tensor<48x48xf32>) outs(fill(cst:f32)
// SPEC-NOT: @match_task1
// SPEC: foreach_match
// RUN: tessel-opt %s --tessel-apply-tuned="db=%t.db" 2>/dev/null > %t.db-annotated.mlir
// RUN: tessel-opt %s --tessel-fuse --transform-preload-library=transform-library-paths=%t.spec.mlir \
// RUN:   --transform-interpreter | diff - %t.db-annotated.mlir
//
// A structural run of the second layer alone adds records under its own
// key, which win over the shared one for that layer (the second in walk
// order: the spec's matcher of its own key goes first); the first layer
// keeps the shared schedule. Both paths agree.
// RUN: rm -f %t.own.db %t.own.db-wal %t.own.db-shm
// RUN: tessel-tune %S/Inputs/task-equality-second-layer.mlir --measure=sim:h100 --sim-fidelity=analytic \
// RUN:   --strategy=random --trials=8 --measures-per-round=4 --db=%t.own.db --seed=2 --quiet
// RUN: tessel-tune %S/Inputs/task-equality-second-layer.mlir --measure=sim:h100 --sim-fidelity=analytic \
// RUN:   --strategy=random --trials=8 --measures-per-round=4 --db=%t.db --seed=2 --quiet
// RUN: tessel-opt %S/Inputs/task-equality-second-layer.mlir --tessel-apply-tuned="db=%t.own.db" 2>/dev/null \
// RUN:   | grep -o '#tessel.config<[^>]*>' > %t.own-config
// RUN: grep -o '#tessel.config<[^>]*>' %t.db-annotated.mlir | head -n 1 > %t.shared-config
// RUN: not diff -q %t.own-config %t.shared-config
// RUN: tessel-opt %s --tessel-apply-tuned="db=%t.db" 2>/dev/null > %t.mixed.mlir
// RUN: grep -o '#tessel.config<[^>]*>' %t.mixed.mlir > %t.mixed-configs
// RUN: cat %t.shared-config %t.own-config | diff - %t.mixed-configs
// RUN: tessel-tune %s --db=%t.db --export-spec=%t.mixed.spec.mlir --quiet
// RUN: tessel-opt %s --tessel-fuse --transform-preload-library=transform-library-paths=%t.mixed.spec.mlir \
// RUN:   --transform-interpreter | diff - %t.mixed.mlir

#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @two_layers(%x: tensor<32x48xf32>, %w: tensor<48x48xf32>) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %b1 = arith.constant dense<0.5> : tensor<48xf32>
  %b2 = arith.constant dense<0.25> : tensor<48xf32>
  %e = tensor.empty() : tensor<32x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<32x48xf32>, tensor<48x48xf32>) outs(%init : tensor<32x48xf32>) -> tensor<32x48xf32>
  %1 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%0, %b1 : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  %2 = linalg.matmul ins(%1, %w : tensor<32x48xf32>, tensor<48x48xf32>) outs(%init : tensor<32x48xf32>) -> tensor<32x48xf32>
  %3 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%2, %b2 : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<32x48xf32>
  return %3 : tensor<32x48xf32>
}
