// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_80 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_80 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// tensor_core schedules of bf16 contractions accumulating in f32: a
// 256x256x256 matmul with its fill (4 blocks of 128x128, 2x2 warps of 64x64),
// a batch matmul and a matmul reading B transposed. The tiles are staged and
// read with ldmatrix exactly as f16 tiles are; the instruction is the bf16
// mma.sync (Tessel's own lowering: upstream's NVGPU conversion has none).

// ISA-LABEL: gpu.binary @matmul_bf16_kernel
// ISA-NOT: ld.global.f32
// ISA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// ISA: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// ISA: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// ISA: st.global
// ISA-LABEL: gpu.binary @batch_matmul_bf16_kernel
// ISA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// ISA: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// ISA-LABEL: gpu.binary @matmul_transpose_b_bf16_kernel
// ISA-NOT: .trans
// ISA: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// ISA: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32

// ptxas accepts them.
// BIN: gpu.binary @matmul_bf16_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_{{80|90}}"
// BIN-SAME: bin = "
// BIN: gpu.binary @batch_matmul_bf16_kernel
// BIN-SAME: bin = "
// BIN: gpu.binary @matmul_transpose_b_bf16_kernel
// BIN-SAME: bin = "

func.func @matmul_bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 2, 16]], unroll = 64, vector = [8, 8]>}
    ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

func.func @batch_matmul_bf16(%a: tensor<4x128x64xbf16>, %b: tensor<4x64x128xbf16>, %c: tensor<4x128x128xf32>) -> tensor<4x128x128xf32> {
  %0 = linalg.batch_matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                            tessel.config = #tessel.config<tiles = [[4, 1, 1, 1], [1, 2, 4, 16], [2, 2, 4, 8], [2, 2, 16]], vector = [8, 8]>}
    ins(%a, %b : tensor<4x128x64xbf16>, tensor<4x64x128xbf16>) outs(%c : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  return %0 : tensor<4x128x128xf32>
}

func.func @matmul_transpose_b_bf16(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
                     {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[1, 2, 2, 16], [1, 2, 4, 8], [2, 2, 16]], unroll = 64, vector = [8, 8]>}
    ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
