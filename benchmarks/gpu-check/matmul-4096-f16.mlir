// A 4096^3 f16 matmul accumulating in f32: the tensor_core sketch's shape
// (docs/results/tensor-cores-SIMULATED-h100.md). cuBLAS reference: torch.matmul
// on f16 inputs (scripts/gpu-verify-session.sh).
func.func @forward(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x4096xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
