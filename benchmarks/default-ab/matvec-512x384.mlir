// Issue 52's matrix-vector product: 512 x 384 by 384.
func.func @forward(%a: tensor<512x384xf32>, %x: tensor<384xf32>) -> tensor<512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %r = linalg.matvec ins(%a, %x : tensor<512x384xf32>, tensor<384xf32>) outs(%f : tensor<512xf32>) -> tensor<512xf32>
  return %r : tensor<512xf32>
}
