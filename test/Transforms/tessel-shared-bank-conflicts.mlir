// RUN: tessel-opt %s --tessel-shared-bank-conflicts=remarks=1 -verify-diagnostics -o /dev/null

// The degree of each shared access of a warp: per phase of the request (32
// lanes of 4 bytes, 8 lanes of 16), the most distinct words one bank serves.

memref.global "private" @buf : memref<64x64xf32, #gpu.address_space<workgroup>> {alignment = 16 : i64}
memref.global "private" @bytes : memref<8192xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
#twice = affine_map<()[s0] -> (s0 * 2)>
#four = affine_map<()[s0] -> (s0 * 4)>
#eight = affine_map<()[s0] -> (s0 * 8)>
#plus = affine_map<()[s0] -> (s0 * 4 + 1)>
#plus2 = affine_map<()[s0] -> (s0 * 4 + 2)>
#plus3 = affine_map<()[s0] -> (s0 * 4 + 3)>
#half = affine_map<()[s0] -> (s0 floordiv 2)>
func.func @degrees(%out: memref<64x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c64, %b = %c1, %d = %c1) {
    %s = memref.get_global @buf : memref<64x64xf32, #gpu.address_space<workgroup>>
    // Consecutive words: conflict-free.
    // expected-remark @below {{shared load of 4 bytes a lane: bank-conflict degree 1}}
    %l0 = memref.load %s[%c0, %tx] : memref<64x64xf32, #gpu.address_space<workgroup>>
    // A stride of two words: lanes t and t + 16 share a bank.
    %t2 = affine.apply #twice()[%tx]
    // expected-remark @below {{shared load of 4 bytes a lane: bank-conflict degree 2}}
    %l1 = memref.load %s[%c0, %t2] : memref<64x64xf32, #gpu.address_space<workgroup>>
    // A column: stride 64 words, every lane in bank 0.
    // expected-remark @below {{shared load of 4 bytes a lane: bank-conflict degree 32}}
    %l2 = memref.load %s[%tx, %c0] : memref<64x64xf32, #gpu.address_space<workgroup>>
    // Pairs of lanes read one word (a broadcast).
    %h = affine.apply #half()[%tx]
    // expected-remark @below {{shared load of 4 bytes a lane: bank-conflict degree 1}}
    %l3 = memref.load %s[%c0, %h] : memref<64x64xf32, #gpu.address_space<workgroup>>
    // 16 bytes a lane, consecutive: a quarter warp reads 128 bytes.
    %t4 = affine.apply #four()[%tx]
    // expected-remark @below {{shared load of 16 bytes a lane: bank-conflict degree 1}}
    %v0 = vector.load %s[%c0, %t4] : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    // 16 bytes a lane, 32 bytes apart: a quarter warp spans 256 bytes.
    %t8 = affine.apply #eight()[%tx]
    // expected-remark @below {{shared store of 16 bytes a lane: bank-conflict degree 2}}
    vector.store %v0, %s[%c0, %t8] : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
    gpu.barrier
    // Four scalar loads of one aligned 16 bytes per lane: one ld.shared.v4,
    // reported at the first.
    %p1 = affine.apply #plus()[%tx]
    %p2 = affine.apply #plus2()[%tx]
    %p3 = affine.apply #plus3()[%tx]
    // expected-remark @below {{shared load of 16 bytes a lane: bank-conflict degree 1}}
    %e0 = memref.load %s[%c1, %t4] : memref<64x64xf32, #gpu.address_space<workgroup>>
    %e1 = memref.load %s[%c1, %p1] : memref<64x64xf32, #gpu.address_space<workgroup>>
    %e2 = memref.load %s[%c1, %p2] : memref<64x64xf32, #gpu.address_space<workgroup>>
    %e3 = memref.load %s[%c1, %p3] : memref<64x64xf32, #gpu.address_space<workgroup>>
    // Through a view of bytes and a column subview: stride 64 words again.
    %raw = memref.get_global @bytes : memref<8192xi8, #gpu.address_space<workgroup>>
    %view = memref.view %raw[%c0][] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<32x64xf32, #gpu.address_space<workgroup>>
    %col = memref.subview %view[0, 3] [32, 1] [1, 1] : memref<32x64xf32, #gpu.address_space<workgroup>> to memref<32xf32, strided<[64], offset: 3>, #gpu.address_space<workgroup>>
    %r = arith.remui %tx, %c64 : index
    %r32 = affine.apply #half()[%r]
    // expected-remark @below {{shared load of 4 bytes a lane: bank-conflict degree 16}}
    %l4 = memref.load %col[%r32] : memref<32xf32, strided<[64], offset: 3>, #gpu.address_space<workgroup>>
    // An index of a loaded value: not analyzed.
    %i = memref.load %out[%c0, %c0] : memref<64x64xf32>
    %k = arith.fptosi %i : f32 to i32
    %ki = arith.index_cast %k : i32 to index
    // expected-remark @below {{shared load: not analyzed}}
    %l5 = memref.load %s[%c0, %ki] : memref<64x64xf32, #gpu.address_space<workgroup>>
    %sum0 = arith.addf %l0, %l1 : f32
    %sum1 = arith.addf %l2, %l3 : f32
    %sum2 = arith.addf %e0, %e1 : f32
    %sum3 = arith.addf %e2, %e3 : f32
    %sum4 = arith.addf %l4, %l5 : f32
    memref.store %sum0, %out[%c0, %tx] : memref<64x64xf32>
    memref.store %sum1, %out[%c1, %tx] : memref<64x64xf32>
    memref.store %sum2, %out[%tx, %c0] : memref<64x64xf32>
    memref.store %sum3, %out[%tx, %c1] : memref<64x64xf32>
    memref.store %sum4, %out[%tx, %tx] : memref<64x64xf32>
    gpu.terminator
  }
  return
}
