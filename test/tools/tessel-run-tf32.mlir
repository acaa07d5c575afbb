// tessel-run compiles a TF32 tensor_core schedule only when allowed, and
// says so at the user's op otherwise (file:line:col, no generated IR).
// RUN: not tessel-run %s --measure=sim:h100 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: tessel-run-tf32.mlir:12:8: error: tensor_core on f32 inputs computes in TF32 (inputs rounded to a 10-bit mantissa); allow it explicitly (allow-tf32)
// REFUSED-NOT: see current operation
// RUN: tessel-run %s --measure=sim:h100 --allow-tf32 | FileCheck %s --check-prefix=ALLOWED
// ALLOWED: "status": "ok"
func.func @matmul_tf32(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%cst : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[2, 2, 4, 16], [2, 2, 8, 8], [8, 4, 8]], unroll = 64, vector = [4, 4]>}
    ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
