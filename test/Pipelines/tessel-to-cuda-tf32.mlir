// RUN: not tessel-opt %s --tessel-to-cuda="chip=sm_80 format=isa" 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_80 format=isa allow-tf32=1" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin allow-tf32=1" | FileCheck %s --check-prefix=BIN
// RUN: tessel-opt %s --tessel-emit-transform-script | FileCheck %s --check-prefix=SCRIPT
// RUN: tessel-opt %s --tessel-emit-transform-script=allow-tf32=1 | FileCheck %s --check-prefix=SCRIPT-TF32

// tensor_core schedules of f32 contractions compute in TF32 (m16n8k8, the
// inputs rounded to a 10-bit mantissa): only with the pipeline's allow-tf32.
// Without it, the schedule is an error at the user's op.
// STRICT: tessel-to-cuda-tf32.mlir:[[# @LINE + 26]]:8: error: tensor_core on f32 inputs computes in TF32 (inputs rounded to a 10-bit mantissa); allow it explicitly (allow-tf32)

// A row-major: ldmatrix x4 (each 8x8 b16 matrix is 8x4 f32); B row-major
// (K, N) has no 32-bit transposing ldmatrix: two scalar shared loads per
// fragment. A transposed B (N, K) is read with ldmatrix x2.
// ISA-LABEL: gpu.binary @matmul_tf32_kernel
// ISA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// ISA: ld.shared.b32
// ISA: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// ISA-LABEL: gpu.binary @matmul_tf32_transpose_b_kernel
// ISA: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// ISA: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32

// ptxas accepts them for sm_90.
// BIN: gpu.binary @matmul_tf32_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90"
// BIN-SAME: bin = "
// BIN: gpu.binary @matmul_tf32_transpose_b_kernel

// The replayable script states the permission only when given it.
// SCRIPT: transform.tessel.convert_to_mma_sync %{{.*}} : !transform.any_op
// SCRIPT-TF32: transform.tessel.convert_to_mma_sync %{{.*}} {allow_tf32} : !transform.any_op

func.func @matmul_tf32(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 4, 8]], unroll = 64, vector = [4, 4]>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

func.func @matmul_tf32_transpose_b(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
                     {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[1, 2, 2, 16], [1, 2, 4, 8], [4, 2, 8]], unroll = 64, vector = [4, 4]>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
