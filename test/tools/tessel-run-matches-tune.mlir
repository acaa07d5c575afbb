// REQUIRES: ptxas
// The model latency tessel-tune reports (weight x best latency over the
// model's tasks) is what tessel-run predicts for the tuned model: each task
// is a fused group and each group one kernel (the fills, the bias and the
// ReLU are in the matmuls' kernels), so the model has as many kernels as
// tasks. Simulated (sim:h100, compiled fidelity: candidates are compiled
// as the emitted model is); the two differ only by the simulator's noise.
// RUN: rm -rf %t.db %t.db-wal %t.db-shm %t.emit
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=compiled --trials=4 --measures-per-round=4 --db=%t.db --report=%t.report.json --emit=%t.emit --quiet | FileCheck %s --check-prefix=TUNE
// TUNE: model: weighted latency {{[0-9.]+}} us (SIMULATED) over 2 task(s)
// RUN: tessel-run %t.emit/model.cubin.mlir --reference=%s --measure=sim:h100 -o %t.run.json
// RUN: python3 -c "import json,sys; t=json.load(open(sys.argv[1])); r=json.load(open(sys.argv[2])); w=t['weighted_latency_us']; m=r['timing']['median_us']; print('kernels', r['kernels_launched'], 'tasks', sum(x['weight'] for x in t['tasks'])); print('within 3%:', abs(w - m) <= 0.03 * m, w, m); print('simulated', t['simulated'], r['simulated'])" %t.report.json %t.run.json | FileCheck %s
// CHECK: kernels 2 tasks 2
// CHECK: within 3%: True
// CHECK: simulated True True
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @forward(%x: tensor<64x128xf32>, %w1: tensor<128x256xf32>, %b1: tensor<256xf32>, %w2: tensor<256x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x256xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<64x128xf32>, tensor<128x256xf32>) outs(%f1 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<64x256xf32>, tensor<256xf32>) outs(%e1 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x256xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<64x256xf32>) outs(%e1 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x256xf32>
  %e2 = tensor.empty() : tensor<64x128xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<64x256xf32>, tensor<256x128xf32>) outs(%f2 : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %m2 : tensor<64x128xf32>
}
