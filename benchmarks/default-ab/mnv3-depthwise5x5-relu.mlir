// MobileNetV3-small's 5x5 depthwise convolution (nchw_chw: loops (n, oh, ow, c,
// kh, kw) write (n, c, oh, ow)) with a fused ReLU, under a schedule sampled
// there: since session 34 its fused init and ReLU take the convolution's
// thread mapping and run on the register accumulators (167,520 bytes of
// shared memory; before, the kernel needed 261,600 and did not compile).
func.func @forward(%x: tensor<1x120x18x18xf32>, %w: tensor<120x5x5xf32>) -> tensor<1x120x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x120x14x14xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x120x14x14xf32>) -> tensor<1x120x14x14xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tessel.sketch = #tessel.sketch<multi_level_tiling, "SSSRRSRS", shared = [0, 1], register_accumulator, fused_consumers = 1>, tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [1, 1, 1, 1, 14], [1, 1, 7, 1, 2], [1, 1, 40, 1, 3], [1, 5, 1], [1, 5, 1]], unroll = 512, vector = [2, 1]>}
         ins(%x, %w : tensor<1x120x18x18xf32>, tensor<120x5x5xf32>) outs(%acc : tensor<1x120x14x14xf32>) -> tensor<1x120x14x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c : tensor<1x120x14x14xf32>) outs(%e : tensor<1x120x14x14xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x120x14x14xf32>
  return %r : tensor<1x120x14x14xf32>
}
