// RUN: tessel-opt %s --pass-pipeline="builtin.module(gpu.module(tessel-lower-kernel-vectors))" --split-input-file | FileCheck %s

// A unit-dim broadcast read back at once folds away.
// CHECK-LABEL: gpu.func @broadcast_to_unit_dims
// CHECK: %[[V:.*]] = vector.load %{{.*}} : memref<8xf32>, vector<1xf32>
// CHECK-NEXT: vector.store %[[V]], %{{.*}} : memref<8xf32>, vector<1xf32>
// CHECK-NEXT: gpu.return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @broadcast_to_unit_dims(%p: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %a = vector.load %p[%c0] : memref<8xf32>, vector<1xf32>
      %s = vector.broadcast %a : vector<1xf32> to vector<1x1x1xf32>
      %e = vector.extract %s[0, 0] : vector<1xf32> from vector<1x1x1xf32>
      vector.store %e, %p[%c0] : memref<8xf32>, vector<1xf32>
      gpu.return
    }
  }
}

// -----

// An elementwise op on a register tile with a unit dim computes on the 1-D
// vector; the shape cast back is lowered to element inserts, which the NVVM
// lowering converts.
// CHECK-LABEL: gpu.func @elementwise_on_unit_dim
// CHECK: %[[V:.*]] = vector.load %{{.*}} : memref<8xf32>, vector<4xf32>
// CHECK: %[[E:.*]] = math.exp %[[V]] : vector<4xf32>
// CHECK-NOT: vector.shape_cast
// CHECK: vector.extract %[[E]][3] : f32 from vector<4xf32>
// CHECK: vector.insert %{{.*}}, %{{.*}} [3, 0] : f32 into vector<4x1xf32>
// CHECK-NOT: vector.shape_cast
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @elementwise_on_unit_dim(%p: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %a = vector.load %p[%c0] : memref<8xf32>, vector<4xf32>
      %s = vector.shape_cast %a : vector<4xf32> to vector<4x1xf32>
      %x = math.exp %s : vector<4x1xf32>
      %e = vector.extract %x[1] : vector<1xf32> from vector<4x1xf32>
      vector.store %e, %p[%c0] : memref<8xf32>, vector<1xf32>
      gpu.return
    }
  }
}

// -----

// A reduction tile split between two consumers: the 1-D strided slices
// become shuffles (the NVVM lowering has no pattern for strided slices;
// seen on MobileBERT's attention max, test/Pipelines/tessel-to-cuda-
// extract-strided-slice.mlir).
// CHECK-LABEL: gpu.func @strided_slices_of_a_tile
// CHECK: %[[V:.*]] = vector.load %{{.*}} : memref<8xf32>, vector<4xf32>
// CHECK-NOT: vector.extract_strided_slice
// CHECK-DAG: vector.shuffle %[[V]], %[[V]] [0, 1] : vector<4xf32>, vector<4xf32>
// CHECK-DAG: vector.shuffle %[[V]], %[[V]] [2, 3] : vector<4xf32>, vector<4xf32>
// CHECK-NOT: vector.extract_strided_slice
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @strided_slices_of_a_tile(%p: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %a = vector.load %p[%c0] : memref<8xf32>, vector<4xf32>
      %lo = vector.extract_strided_slice %a {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
      %hi = vector.extract_strided_slice %a {offsets = [2], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
      %s = arith.addf %lo, %hi : vector<2xf32>
      vector.store %s, %p[%c4] : memref<8xf32>, vector<2xf32>
      gpu.return
    }
  }
}
