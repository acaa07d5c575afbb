// RUN: tessel-opt %s --tessel-materialize=stop-before-gpu-mapping=1 | FileCheck %s --check-prefix=LOOP
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_80 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=bin" | FileCheck %s --check-prefix=BIN

// tensor_core schedules: a 256x256x256 f16 matmul into f32 (the init fill
// fused) over 4 blocks of 128x128, 2x2 warps of 64x64 each (4x8 mma tiles of
// 16x8), a staging loop of 8 steps of K = 32 (2 mma steps of 16); a batch
// matmul; an f16 matmul accumulating in f16; a matmul reading B transposed.

// Before GPU mapping: warps are a forall of their own.
// LOOP-LABEL: func.func @matmul_f16_f32
// LOOP: scf.forall {{.*}} in (2, 2)
// LOOP: mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]

// 32 accumulators per warp stay in mma registers: every step loads A with
// ldmatrix (x4) and B with transposing ldmatrix (x2) from shared memory; the
// init's zeros are forwarded, so C is only stored (128 scalar stores per
// thread), never loaded. The staging copies load 8 f16 at a time
// (ld.global.v4.b32 under the 16-byte buffer contract, docs/Alignment.md),
// not one (ld.global.b16).
// ISA-LABEL: gpu.binary @matmul_f16_f32_kernel
// ISA-NOT: ld.global.f32
// ISA-NOT: ld.global.b32
// ISA-NOT: ld.global.b16
// ISA: ld.global.v4.b32
// ISA-NOT: ld.global.b16
// ISA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// ISA: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// ISA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// ISA: st.global
// ISA-LABEL: gpu.binary @batch_matmul_kernel
// ISA: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// ISA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// ISA-LABEL: gpu.binary @matmul_f16_f16_kernel
// ISA: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// ISA-LABEL: gpu.binary @matmul_transpose_b_kernel
// ISA-NOT: .trans
// ISA: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// ISA: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// ptxas accepts them for sm_90.
// BIN: gpu.binary @matmul_f16_f32_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90"
// BIN-SAME: bin = "
// BIN: gpu.binary @batch_matmul_kernel
// BIN: gpu.binary @matmul_f16_f16_kernel
// BIN: gpu.binary @matmul_transpose_b_kernel

func.func @matmul_f16_f32(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 2, 16]], unroll = 64, vector = [8, 8]>}
    ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

func.func @batch_matmul(%a: tensor<4x128x64xf16>, %b: tensor<4x64x128xf16>, %c: tensor<4x128x128xf32>) -> tensor<4x128x128xf32> {
  %0 = linalg.batch_matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                            tessel.config = #tessel.config<tiles = [[4, 1, 1, 1], [1, 2, 4, 16], [2, 2, 4, 8], [2, 2, 16]], vector = [8, 8]>}
    ins(%a, %b : tensor<4x128x64xf16>, tensor<4x64x128xf16>) outs(%c : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  return %0 : tensor<4x128x128xf32>
}

func.func @matmul_f16_f16(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[1, 2, 2, 16], [1, 2, 4, 8], [2, 2, 16]], unroll = 64, vector = [8, 8]>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
}

func.func @matmul_transpose_b(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
                     {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[1, 2, 2, 16], [1, 2, 4, 8], [2, 2, 16]], unroll = 64, vector = [8, 8]>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
