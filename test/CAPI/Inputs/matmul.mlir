func.func @matmul(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}
