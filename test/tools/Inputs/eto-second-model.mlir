// A model tuned after tessel-tune-eto.mlir's on the same database: its one
// matmul (every extent >= those of that model's 64x64x512) reuses a stored
// program instead of running the backend.
func.func @deeper(%a: tensor<64x1024xf32>, %b: tensor<1024x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
