// RUN: tessel-opt %s --tessel-strip-gpu-memory-spaces | FileCheck %s

// CHECK: memref.global "private" @smem : memref<32x8xf32>{{$}}
memref.global "private" @smem : memref<32x8xf32, #gpu.address_space<workgroup>>

// CHECK-LABEL: func @spaces
// CHECK-NOT: address_space
// CHECK: memref.get_global @smem : memref<32x8xf32>{{$}}
// CHECK: memref.alloca() : memref<512xi8>{{$}}
// CHECK: memref.alloca() : memref<4xf32>{{$}}
// CHECK: memref.view %{{.*}}[%{{.*}}][] : memref<512xi8> to memref<8x16xf32>{{$}}
// CHECK: memref.subview %{{.*}}[%{{.*}}, 0] [1, 8] [1, 1] : memref<32x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>{{$}}
// CHECK: memref.load %{{.*}} : memref<1x8xf32, strided<[8, 1], offset: ?>>{{$}}
// CHECK: memref.store %{{.*}} : memref<8x16xf32>{{$}}
// CHECK: memref.store %{{.*}} : memref<4xf32>{{$}}
// CHECK-NOT: address_space
// CHECK: return
func.func @spaces(%i: index) -> f32 {
  %0 = memref.get_global @smem : memref<32x8xf32, #gpu.address_space<workgroup>>
  %a = memref.alloca() : memref<512xi8, #gpu.address_space<workgroup>>
  %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  %c0 = arith.constant 0 : index
  %v = memref.view %a[%c0][] : memref<512xi8, #gpu.address_space<workgroup>> to memref<8x16xf32, #gpu.address_space<workgroup>>
  %s = memref.subview %0[%i, 0] [1, 8] [1, 1] : memref<32x8xf32, #gpu.address_space<workgroup>> to memref<1x8xf32, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
  %x = memref.load %s[%c0, %c0] : memref<1x8xf32, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
  memref.store %x, %v[%c0, %c0] : memref<8x16xf32, #gpu.address_space<workgroup>>
  memref.store %x, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
  return %x : f32
}

// Other memory spaces are kept.
// CHECK-LABEL: func @other_space
// CHECK-SAME: memref<4xf32, 3>
func.func @other_space(%m: memref<4xf32, 3>) -> memref<4xf32, 3> {
  return %m : memref<4xf32, 3>
}

// Function signatures are rewritten too.
// CHECK-LABEL: func @signature
// CHECK-SAME: (%{{.*}}: memref<16xf32>) -> memref<16xf32>
func.func @signature(%m: memref<16xf32, #gpu.address_space<workgroup>>) -> memref<16xf32, #gpu.address_space<workgroup>> {
  return %m : memref<16xf32, #gpu.address_space<workgroup>>
}
