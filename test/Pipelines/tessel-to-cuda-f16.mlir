// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s

// Half-precision ops compile where the schedule is valid: the vector widths
// of the cooperative loads are counted in f16 elements (4 x 2 bytes here).

// CHECK-LABEL: gpu.binary @matmul_f16_kernel
// CHECK: .target sm_90
// CHECK: ld.global
// CHECK: fma.rn.f16
func.func @matmul_f16(%a: tensor<128x128xf16>, %b: tensor<128x128xf16>, %c: tensor<128x128xf16>) -> tensor<128x128xf16> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 16, 2, 1], [2, 2, 16, 2, 1], [8, 4, 4]], unroll = 64, vector = [4, 4]>}
    ins(%a, %b : tensor<128x128xf16>, tensor<128x128xf16>) outs(%c : tensor<128x128xf16>) -> tensor<128x128xf16>
  return %0 : tensor<128x128xf16>
}

// CHECK-LABEL: gpu.binary @matmul_bf16_kernel
// CHECK: .target sm_90
func.func @matmul_bf16(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %0 : tensor<64x64xbf16>
}
