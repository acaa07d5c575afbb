// REQUIRES: ptxas
// --tessel-apply-tuned picks, for each op, the best record of its workload:
// tune a matmul a little, then annotate a module holding it and another
// matmul the database knows nothing about.

// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tessel-tune %S/Inputs/apply-tuned-task.mlir --measure=sim:h100 --strategy=random --trials=4 --measures-per-round=2 -j 2 --db=%t.db --quiet > /dev/null
// RUN: tessel-tune --db=%t.db --export=%t.jsonl
// The expected annotation: the schedule of the fastest ok record.
// RUN: python3 -c "import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; best=min((r for r in rows if r['status']=='ok'), key=lambda r: r['median_us']); print('linalg.matmul {tessel.config = ' + best['config'] + ', tessel.sketch = ' + best['sketch'] + '}')" %t.jsonl > %t.expected
// RUN: tessel-opt %s --tessel-apply-tuned="db=%t.db" 2>/dev/null | grep -c -F -f %t.expected | FileCheck %s --check-prefix=ONE
// ONE: 1
// RUN: tessel-opt %s --tessel-apply-tuned="db=%t.db" 2>&1 | FileCheck %s
// CHECK: remark: tuned schedule from sim:h100-sxm (simulated):
// CHECK: remark: no tuning record for this op in '{{.*}}'; the default schedule applies
// The annotated module compiles: one kernel per matmul, each filling its own
// accumulators.
// RUN: tessel-opt %s --tessel-apply-tuned="db=%t.db" --tessel-to-cuda 2>/dev/null | grep -c gpu.launch_func | FileCheck %s --check-prefix=LAUNCHES
// LAUNCHES: 2

// tessel-tune --emit writes the best schedule as a transform script that
// stock mlir-opt replays, and the tuned model compiled.
// RUN: rm -rf %t.emit
// RUN: tessel-tune %S/Inputs/apply-tuned-task.mlir --measure=sim:h100 --strategy=random --trials=4 --measures-per-round=2 -j 2 --db=%t.db --resume --emit=%t.emit --quiet > /dev/null
// RUN: mlir-opt %t.emit/task0.transform.mlir --transform-interpreter | FileCheck %s --check-prefix=REPLAY
// REPLAY: gpu.launch
// RUN: grep -c 'bin = "\\7FELF' %t.emit/model.cubin.mlir | FileCheck %s --check-prefix=CUBINS
// CUBINS: 1

// RUN: not tessel-opt %s --tessel-apply-tuned="db=%t.missing.db" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: {{.*}}missing.db

func.func @forward(%a: tensor<32x48xf32>, %b: tensor<48x64xf32>, %c: tensor<64x16xf32>) -> (tensor<32x64xf32>, tensor<32x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x48xf32>, tensor<48x64xf32>) outs(%init : tensor<32x64xf32>) -> tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<32x16xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %1 = linalg.matmul ins(%0, %c : tensor<32x64xf32>, tensor<64x16xf32>) outs(%init2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %0, %1 : tensor<32x64xf32>, tensor<32x16xf32>
}
