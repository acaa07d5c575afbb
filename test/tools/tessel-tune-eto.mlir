// Strategy `eto` tunes a model as an operator set: the reuse tree over the
// tasks and their 1-hop bridges is printed, roots are tuned by the backend,
// the rest by Algorithm 1 from their source's best program, with the
// estimated and actual trials of each; bridges are recorded but are not
// tasks of the model. Then `eto-topk`, and reuse across models from the
// records database (a second model tuned after this one).

// Three matmuls: @small and @larger_k are comparable (every extent <=),
// @wide and @small are not (M and N larger, K smaller) and get the 1-hop
// bridge 64x64x128, which @wide reuses.
func.func @small(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x256xf32>, tensor<256x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
func.func @larger_k(%a: tensor<64x512xf32>, %b: tensor<512x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x512xf32>, tensor<512x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
func.func @wide(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="eto backend=random backend-trials=200" --start-samples=0 --trials=1000 --db=%t.db --seed=5 --report=%t.json 2>&1 | FileCheck %s --check-prefix=ETO
// ETO: eto: reuse tree over 3 tasks, 1 of 1 bridges, 0 of 0 stored workloads: estimated 272 trials (the backend alone: 600)
// ETO-NEXT: task 1 matmul 64x512 * 512x64 f32 <- backend random (200 trials)
// ETO-NEXT: task 0 matmul 64x256 * 256x64 f32 <- task 1 (estimated 23 trials)
// ETO-NEXT: bridge (task 3) matmul 64x128 * 128x64 f32 <- task 0 (estimated 23 trials)
// ETO-NEXT: task 2 matmul 128x128 * 128x128 f32 <- bridge (task 3) (estimated 26 trials)
// ETO: task 1: backend: estimated 200, actual 200 trials, best
// ETO: task 0: reuses task 1: estimated 23, actual 28 trials, best
// ETO: bridge (task 3): reuses task 0: estimated 23, actual 20 trials, best
// ETO: task 2: reuses bridge (task 3): estimated 26, actual 34 trials, best
// ETO: 3 0 {{.*}} (not in the model) matmul 64x128 * 128x64 f32
// ETO: 282 trials in

// The bridge is recorded (its programs are reusable later) but is not a task
// of the model.
// RUN: python3 -c "import json; r = json.load(open('%t.json')); print([(t['description'], t.get('in_model', True), t['weight']) for t in r['tasks']])" | FileCheck %s --check-prefix=REPORT
// REPORT: [('matmul 64x256 * 256x64 f32', True, 1), ('matmul 64x512 * 512x64 f32', True, 1), ('matmul 128x128 * 128x128 f32', True, 1), ('matmul 64x128 * 128x64 f32', False, 0)]

// A second model on the same database: its matmul reuses the stored program
// of 64x64x512 (the backend tunes nothing).
// RUN: tessel-tune %S/Inputs/eto-second-model.mlir --measure=sim:h100 --sim-fidelity=analytic --strategy="eto backend=random backend-trials=200" --start-samples=0 --trials=1000 --db=%t.db --seed=5 2>&1 | FileCheck %s --check-prefix=STORED
// STORED: eto: reuse tree over 1 tasks, 0 of 0 bridges, 1 of 3 stored workloads: estimated 24.3 trials (the backend alone: 200)
// STORED-NEXT: stored matmul 64x512 * 512x64 f32 <- the records
// STORED-NEXT: task 0 matmul 64x1024 * 1024x64 f32 <- stored (estimated 24 trials)
// STORED-NOT: backend
// STORED: 29 trials in

// The first model again: each task re-measures the 3 best programs of its
// identical stored twin (the run's own default schedules are not stored
// workloads).
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="eto backend=random backend-trials=200" --start-samples=0 --trials=1000 --db=%t.db --seed=5 2>&1 | FileCheck %s --check-prefix=TWIN
// TWIN: eto: reuse tree over 3 tasks, 0 of 1 bridges, 3 of 4 stored workloads: estimated 9 trials (the backend alone: 600)
// TWIN: task 0 matmul 64x256 * 256x64 f32 <- stored (estimated 3 trials)
// TWIN: task 0: reuses stored (the same workload): estimated 3, actual 3 trials, best 441.0 GFLOP/s
// TWIN: task 1: reuses stored (the same workload): estimated 3, actual 3 trials, best 679.5 GFLOP/s
// TWIN: task 2: reuses stored (the same workload): estimated 3, actual 3 trials, best 736.1 GFLOP/s
// TWIN: 9 trials in

// With reuse-records=false the second model is tuned on its own.
// RUN: tessel-tune %S/Inputs/eto-second-model.mlir --measure=sim:h100 --sim-fidelity=analytic --strategy="eto backend=random backend-trials=20 reuse-records=false" --start-samples=0 --trials=1000 --db=%t.db --seed=5 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: eto: reuse tree over 1 tasks, 0 of 0 bridges, 0 of 0 stored workloads: estimated 20 trials (the backend alone: 20)
// ALONE-NEXT: task 0 matmul 64x1024 * 1024x64 f32 <- backend random (20 trials)

// eto-topk: the same tree, each reusing task measures its source's 3 best
// programs adapted to its extents.
// RUN: rm -f %t.topk.db %t.topk.db-wal %t.topk.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="eto-topk backend=random backend-trials=200 reuse-records=false" --start-samples=0 --trials=1000 --db=%t.topk.db --seed=5 2>&1 | FileCheck %s --check-prefix=TOPK
// TOPK: eto-topk: reuse tree over 3 tasks, 1 of 1 bridges, 0 of 0 stored workloads: estimated 272 trials (the backend alone: 600)
// TOPK: task 0: reuses task 1: estimated 23, actual 3 trials, best
// TOPK: task 2: reuses bridge (task 3): estimated 26, actual 3 trials, best
// TOPK: 209 trials in

// Too few trials for the tree: a warning, then the tasks late in the tree
// are left untuned.
// RUN: rm -f %t.few.db %t.few.db-wal %t.few.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="eto backend=random backend-trials=200" --start-samples=0 --trials=210 --db=%t.few.db --seed=5 2>&1 | FileCheck %s --check-prefix=FEW
// FEW: eto: the run's trials (210) are fewer than the tree's estimate; tasks late in the tree may go untuned (raise --trials)
// FEW: eto: the run's trials are spent; bridge (task 3) and the tasks after it are not tuned
// FEW: 210 trials in

// heavy-share: tasks with at least 30% of the model's weight x FLOPs (the
// two 4.2 MFLOP matmuls, 40% each) are roots; the 2.1 MFLOP one reuses.
// RUN: rm -f %t.heavy.db %t.heavy.db-wal %t.heavy.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --strategy="eto backend=random backend-trials=200 heavy-share=0.3" --start-samples=0 --trials=1000 --db=%t.heavy.db --seed=5 2>&1 | FileCheck %s --check-prefix=HEAVY
// HEAVY: eto: 2 tasks with weight x FLOPs >= 0.3 of the model's are roots (heavy-share)
// HEAVY-NEXT: eto: reuse tree over 3 tasks, 0 of 1 bridges, 0 of 0 stored workloads: estimated 423.2 trials (the backend alone: 600)
// HEAVY-NEXT: task 1 matmul 64x512 * 512x64 f32 <- backend random (200 trials)
// HEAVY-NEXT: task 2 matmul 128x128 * 128x128 f32 <- backend random (200 trials)
// HEAVY-NEXT: task 0 matmul 64x256 * 256x64 f32 <- task 1 (estimated 23 trials)

// A backend that drives a whole run is refused.
// RUN: not tessel-tune %s --measure=sim:h100 --strategy="eto backend=eto-topk" --db=%t.bad.db 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: backend=eto-topk is not a per-task strategy
