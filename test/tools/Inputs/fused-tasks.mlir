// Three contractions with fused consumers (issue 41, item 6): the GPT-2 QKV
// projection with its bias (256x768 by 768x2304), a ResNet-50 3x3
// convolution with bias and ReLU (64 channels, 56x56), and BERT-base's
// first FFN projection with bias and GELU (erf form, as torch-mlir emits).
func.func @forward(%x: tensor<256x768xf32>, %wqkv: tensor<768x2304xf32>, %bqkv: tensor<2304xf32>,
                   %img: tensor<1x64x58x58xf32>, %wc: tensor<64x64x3x3xf32>, %bc: tensor<64xf32>,
                   %h: tensor<128x768xf32>, %w1: tensor<768x3072xf32>, %b1: tensor<3072xf32>)
    -> (tensor<256x2304xf32>, tensor<1x64x56x56xf32>, tensor<128x3072xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32

  %e0 = tensor.empty() : tensor<256x2304xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<256x2304xf32>) -> tensor<256x2304xf32>
  %mm0 = linalg.matmul ins(%x, %wqkv : tensor<256x768xf32>, tensor<768x2304xf32>) outs(%f0 : tensor<256x2304xf32>) -> tensor<256x2304xf32>
  %qkv = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm0, %bqkv : tensor<256x2304xf32>, tensor<2304xf32>) outs(%e0 : tensor<256x2304xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<256x2304xf32>

  %e1 = tensor.empty() : tensor<1x64x56x56xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %wc : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%f1 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(n, f, y, x) -> (n, f, y, x)>, affine_map<(n, f, y, x) -> (f)>, affine_map<(n, f, y, x) -> (n, f, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bc : tensor<1x64x56x56xf32>, tensor<64xf32>) outs(%e1 : tensor<1x64x56x56xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>

  %e2 = tensor.empty() : tensor<128x3072xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %mm2 = linalg.matmul ins(%h, %w1 : tensor<128x768xf32>, tensor<768x3072xf32>) outs(%f2 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %gelu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm2, %b1 : tensor<128x3072xf32>, tensor<3072xf32>) outs(%e2 : tensor<128x3072xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.mulf %s, %rsqrt2 : f32
    %erf = math.erf %t : f32
    %p = arith.addf %erf, %one : f32
    %q = arith.mulf %s, %p : f32
    %g = arith.mulf %q, %half : f32
    linalg.yield %g : f32
  } -> tensor<128x3072xf32>
  return %qkv, %act, %gelu : tensor<256x2304xf32>, tensor<1x64x56x56xf32>, tensor<128x3072xf32>
}
