// REQUIRES: ptxas
// The GPT-2 QKV projection with its bias, tuned as a new user would (300
// analytic trials), applies and compiles: the search space counts the fused
// accumulator in shared memory. Before, the best schedule staged 48 KiB of
// tiles next to a 12 KiB accumulator and ptxas refused it ("uses too much
// shared data (0xf000 bytes, 0xc000 max)").

// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: tessel-tune %s --measure=sim:h100 --sim-fidelity=analytic --trials=300 --seed=1 --db=%t.db --quiet > /dev/null
// RUN: tessel-opt %s --tessel-apply-tuned="db=%t.db" --tessel-to-cuda="chip=sm_90 format=bin resources-file=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=RESOURCES < %t.json

// CHECK: gpu.binary
// CHECK-SAME: bin = "\7FELF
// RESOURCES: "shared_memory_bytes"
func.func @qkv(%a: tensor<256x768xf32>, %b: tensor<768x2304xf32>, %bias: tensor<2304xf32>) -> tensor<256x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x2304xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x2304xf32>) -> tensor<256x2304xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x768xf32>, tensor<768x2304xf32>) outs(%c : tensor<256x2304xf32>) -> tensor<256x2304xf32>
  %o = tensor.empty() : tensor<256x2304xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<256x2304xf32>, tensor<2304xf32>) outs(%o : tensor<256x2304xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256x2304xf32>
  return %r : tensor<256x2304xf32>
}
