// REQUIRES: ptxas
// A task with an i1 operand (a mask; torch-mlir's adaptive average pool in
// AlexNet takes a tensor<2x2xi1>) is measured like any other: its launch
// plan and random inputs have an i1 type (a byte an element, 0 or 1).
// Before, every compiled candidate was a compile_error: "cannot plan
// argument 2 of type 'tensor<64x256xi1>'".

// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=compiled --strategy=random --start-samples=0 --trials=4 --seed=1 --db=%t.db --quiet > /dev/null
// RUN: /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select group_concat(status || ' ' || n, ', ') from (select status, count(*) n from measurements group by 1)\").fetchone()[0])" %t.db | FileCheck %s
// CHECK: {{^}}ok 5{{$}}

func.func @forward(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>, %mask: tensor<64x256xi1>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%mask, %mm : tensor<64x256xi1>, tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%m: i1, %v: f32, %o: f32):
    %s = arith.select %m, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}
