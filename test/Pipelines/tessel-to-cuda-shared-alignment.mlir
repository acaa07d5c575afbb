// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s
// RUN: tessel-opt %s --tessel-materialize | FileCheck %s --check-prefix=GLOBALS

// Regression test for a fault first seen on an H200: the BERT-base QKV
// projection with a 1x3 A tile (12 bytes) and a 3x384 B tile staged with
// 4-wide vector stores. Shared buffers without alignment were packed byte-
// aligned by ptxas, the B tile started at byte 12 and its st.shared.v4
// faulted with CUDA_ERROR_MISALIGNED_ADDRESS. Every shared buffer is now
// 16-byte aligned.
// GLOBALS-DAG: memref.global "private" @alloca : memref<12xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// GLOBALS-DAG: memref.global "private" @alloca_0 : memref<4608xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
// CHECK-DAG: .shared .align 16 .b8 alloca[12];
// CHECK-DAG: .shared .align 16 .b8 alloca_0[4608];
// CHECK: st.shared.v4.b32
func.func @qkv(%a: tensor<128x768xf32>, %b: tensor<768x2304xf32>) -> tensor<128x2304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x2304xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  %r = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator>,
                      tessel.config = #tessel.config<tiles = [[128, 1, 1, 1, 1], [6, 4, 4, 2, 12], [256, 3, 1]], unroll = 64, vector = [1, 4]>}
      ins(%a, %b : tensor<128x768xf32>, tensor<768x2304xf32>) outs(%c : tensor<128x2304xf32>) -> tensor<128x2304xf32>
  return %r : tensor<128x2304xf32>
}
