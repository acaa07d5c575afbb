// REQUIRES: ptxas
// --tessel-analytic-schedules (issue 52, item 2): schedules chosen with no
// measurement. BERT's QKV projection (1x128x768 by 768x768) gets the best of
// 256 sampled schedules as the analytic simulator predicts them, since it is
// predicted more than 4x faster than the default; a softmax row maximum's
// default is already within 4x and stays. The figures are SIMULATED (the
// judge's pick has measured up to 3.44x the measured best). The pick is
// deterministic for a seed, and the annotated module compiles.

// RUN: tessel-opt %s --tessel-analytic-schedules -o %t.first 2>&1 | FileCheck %s --check-prefix=DIAG
// DIAG: :26:8: remark: analytic schedule: {{[0-9.]+}} us SIMULATED on h100-sxm (default 108.5 us), best of 256 samples
// DIAG: :34:8: remark: analytic schedule: none of 256 samples is predicted 4x faster than the default ({{[0-9.]+}} us SIMULATED on h100-sxm); the default schedule applies
// RUN: tessel-opt %s --tessel-analytic-schedules -o %t.second 2>/dev/null
// RUN: diff %t.first %t.second
// RUN: FileCheck %s < %t.first
// CHECK-LABEL: func.func @qkv
// CHECK: linalg.batch_matmul {tessel.config = #tessel.config<{{.*}}>, tessel.sketch = #tessel.sketch<multi_level_tiling
// CHECK-LABEL: func.func @softmax_max
// CHECK-NOT: tessel.config
// RUN: tessel-opt %s --tessel-analytic-schedules --tessel-to-cuda="chip=sm_90 format=bin" 2>/dev/null | FileCheck %s --check-prefix=BIN
// BIN-COUNT-2: gpu.binary
func.func @qkv(%x: tensor<1x128x768xf32>, %w: tensor<1x768x768xf32>) -> tensor<1x128x768xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x768xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
  %0 = linalg.batch_matmul ins(%x, %w : tensor<1x128x768xf32>, tensor<1x768x768xf32>) outs(%c : tensor<1x128x768xf32>) -> tensor<1x128x768xf32>
  return %0 : tensor<1x128x768xf32>
}

func.func @softmax_max(%s: tensor<1x12x128x128xf32>) -> tensor<1x12x128x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x12x128x1xf32>
  %c = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x12x128x1xf32>) -> tensor<1x12x128x1xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<1x12x128x128xf32>) outs(%c : tensor<1x12x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x12x128x1xf32>
  return %0 : tensor<1x12x128x1xf32>
}

// Bad options: a clear error, no module printed.
// RUN: not tessel-opt %s --tessel-analytic-schedules="device=nope" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: error: --tessel-analytic-schedules: unknown device 'nope'
// DEVICE-NOT: note: see current operation
// RUN: not tessel-opt %s --tessel-analytic-schedules="samples=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SAMPLES
// SAMPLES: error: --tessel-analytic-schedules: samples=0 is out of range: at least 1
// SAMPLES-NOT: note: see current operation
