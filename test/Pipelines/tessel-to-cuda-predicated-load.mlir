// RUN: tessel-opt %s --tessel-materialize | FileCheck %s --check-prefix=MAT
// RUN: tessel-opt %s --tessel-to-cuda="chip=sm_90 format=isa" | FileCheck %s --check-prefix=ISA

// Threads need not divide a shared tile. This config (found by the
// evolutionary search on the ResNet-50 3x3 conv) has 56 threads per block;
// the staged input tile is 1x4x6x16 (384 elements, loaded 4 wide) and the
// filter tile 8x4x3x3 (288 elements, 1 wide). Each cooperative load runs in
// rounds of 48 threads (input: chunks of 1x2x6x16, filter: 4x4x1x3) and the
// other 8 idle behind a predicate: 6/7 of the lanes carry data.
// MAT: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c56,
// MAT: %[[BUSY:.*]] = arith.cmpi ult, %thread_id_x, %c48 : index
// MAT: scf.for
// MAT: scf.for
// MAT: scf.if %[[BUSY]] {
// MAT: tessel.inlined_pad

// ISA: load_lane_use = 0.8571428571428571 : f64
// ISA: gpu.binary @conv_predicated_load_kernel
// ISA-SAME: .shared .align {{[0-9]+}} .b8 alloca[1536];
// ISA-SAME: .shared .align {{[0-9]+}} .b8 alloca_0[1152];
func.func @conv_predicated_load(%x: tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32> {
  %w = arith.constant dense<1.000000e-02> : tensor<128x128x3x3xf32>
  %cst = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x128x28x28xf32> to tensor<1x128x30x30xf32>
  %e = tensor.empty() : tensor<1x128x28x28xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>,
     tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], register_accumulator, inlined = [0]>,
     tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [16, 1, 8, 1, 1], [7, 1, 1, 2, 2], [2, 2, 7, 1, 1], [32, 4, 1], [1, 1, 3], [1, 1, 3]], unroll = 1024, vector = [4, 1]>}
     ins(%padded, %w : tensor<1x128x30x30xf32>, tensor<128x128x3x3xf32>) outs(%f : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  return %c : tensor<1x128x28x28xf32>
}
