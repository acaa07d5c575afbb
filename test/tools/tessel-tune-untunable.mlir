// tessel-tune says which ops it cannot tune and why, at the user's op: a
// warning when other ops are tuned (the model will not compile as it is), an
// error when none is. Loop-less ops and fused elementwise ops are not named;
// a reduction to a scalar is tuned (the fusion gives it a unit parallel
// loop).
// RUN: tessel-tune %s --measure=sim:h100 --trials=2 --db=%t.db 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not="see current operation"
// RUN: tessel-tune %s --list-tasks 2>&1 | FileCheck %s --check-prefix=LIST --implicit-check-not=warning:
// RUN: not tessel-tune %S/Inputs/only-dynamic.mlir --measure=sim:h100 --trials=2 --db=%t-none.db 2>&1 | FileCheck %s --check-prefix=NONE --implicit-check-not="see current operation"

// CHECK: tessel-tune-untunable.mlir:[[@LINE+9]]:8: warning: 'linalg.matmul' is not tuned: its shapes are dynamic (tensor<?x256xf32>); Tessel schedules static shapes only
// CHECK: generic 1024 -> 1 [pr] f32
// CHECK: model: weighted latency {{.*}} (SIMULATED) over 2 task(s)
// LIST: tessel-tune-untunable.mlir:[[@LINE+6]]:8: warning: 'linalg.matmul' is not tuned: its shapes are dynamic
// LIST: 0 {{.*}} matmul 64x256 * 256x64 f32 +1 fused
// LIST: 1 {{.*}} generic 1024 -> 1 [pr] f32
// LIST: 2 tasks
func.func @mixed(%a: tensor<?x256xf32>, %b: tensor<256x64xf32>, %c: tensor<?x64xf32>, %x: tensor<64x256xf32>, %y: tensor<64x64xf32>, %v: tensor<1024xf32>, %s: tensor<f32>, %t: tensor<f32>) -> (tensor<?x64xf32>, tensor<64x64xf32>, tensor<f32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %0 = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x64xf32>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%y : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.matmul ins(%x, %b : tensor<64x256xf32>, tensor<256x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%1 : tensor<64x64xf32>) {
  ^bb0(%o: f32):
    %m = arith.maximumf %o, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %2 = linalg.reduce ins(%v : tensor<1024xf32>) outs(%s : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %3 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%2 : tensor<f32>) outs(%t : tensor<f32>) {
  ^bb0(%i: f32, %o: f32):
    %d = arith.addf %i, %i : f32
    linalg.yield %d : f32
  } -> tensor<f32>
  return %0, %relu, %2, %3 : tensor<?x64xf32>, tensor<64x64xf32>, tensor<f32>, tensor<f32>
}

// NONE: only-dynamic.mlir:2:8: error: 'linalg.matmul' is not tuned: its shapes are dynamic (tensor<?x256xf32>); Tessel schedules static shapes only
// NONE-NEXT: %0 = linalg.matmul
// NONE: tessel-tune: the model has no tunable op
