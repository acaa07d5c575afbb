// A 4096 x 4096 matrix-vector product (64 MiB of matrix: bandwidth-bound).
func.func @forward(%a: tensor<4096x4096xf32>, %x: tensor<4096xf32>) -> tensor<4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  %r = linalg.matvec ins(%a, %x : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%f : tensor<4096xf32>) -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
