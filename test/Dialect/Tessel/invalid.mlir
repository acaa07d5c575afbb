// RUN: tessel-opt %s -split-input-file -verify-diagnostics

func.func @product_mismatch(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{tile sizes of loop 2 multiply to 128, not to the loop extent 256}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [16, 2, 4]]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @wrong_level_count(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{loop 1 (space) has 4 tile sizes; the sketch "SSSRRSRS" has 5 space levels}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 16, 1, 1], [32, 2, 4]]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @too_many_threads(%a: tensor<1024x256xf32>, %b: tensor<256x1024xf32>, %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  // expected-error @+1 {{config uses 2048 threads per block; at most 1024 are allowed}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling>,
                      tessel.config = #tessel.config<tiles = [[16, 1, 64, 1, 1], [32, 1, 32, 1, 1], [32, 2, 4]]>}
    ins(%a, %b : tensor<1024x256xf32>, tensor<256x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

func.func @vector_too_wide(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{vector width 8 of operand 1 loads 32 bytes; at most 16 are allowed}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [8, 8, 4]], vector = [4, 8]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @vector_does_not_divide(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{vector width 4 does not divide the innermost extent 2 of the shared tile of operand 0}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [128, 1, 2]], vector = [4, 4]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @unknown_operand(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{shared operand 2 does not exist: the op has 2 inputs}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 2]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @loop_count_mismatch(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{config describes 2 loops but the op has 3}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1]]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @config_without_sketch(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'tessel.config' needs a 'tessel.sketch' on the same op}}
  %0 = linalg.matmul {tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

// Boundary blocks: the block count must be ceil(extent / block tile).
func.func @boundary_block_count(%x: tensor<8191xf32>, %init: tensor<8191xf32>) -> tensor<8191xf32> {
  // expected-error @+1 {{tile sizes of loop 0 multiply to 8448: the loop extent 8191 needs 32 blocks of 256, not 33}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8191xf32>) outs(%init : tensor<8191xf32>)
      attrs = {tessel.sketch = #tessel.sketch<two_level_injective>,
               tessel.config = #tessel.config<tiles = [[33, 256]]>} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8191xf32>
  return %0 : tensor<8191xf32>
}

// -----

func.func @not_linalg(%a: f32) -> f32 {
  // expected-error @+1 {{'tessel.sketch' can only annotate a linalg operation}}
  %0 = arith.addf %a, %a {tessel.sketch = #tessel.sketch<two_level_injective>} : f32
  return %0 : f32
}

// -----

func.func @dynamic_shape(%a: tensor<?x256xf32>, %b: tensor<256x64xf32>, %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  // expected-error @+1 {{cannot schedule an op with dynamic shapes: loop 0 has a dynamic extent}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling>}
    ins(%a, %b : tensor<?x256xf32>, tensor<256x64xf32>) outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// expected-error @+1 {{unroll 32 is not one of 0, 16, 64, 512, 1024}}
#bad_unroll = #tessel.config<tiles = [[4]], unroll = 32>

// -----

// expected-error @+1 {{unknown sketch kind 'tiling'; expected multi_level_tiling, cross_thread_reduction, two_level_injective or tensor_core}}
#bad_kind = #tessel.sketch<tiling>

// -----

// expected-error @+1 {{multi_level_tiling structure 'SSRR' must start with "SSSR" (block, virtual thread and thread levels, then the shared-memory staging level)}}
#bad_structure = #tessel.sketch<multi_level_tiling, "SSRR">

// -----

// expected-error @+1 {{sketch structure 'SSXR' must be a non-empty string of 'S' (space level) and 'R' (reduction level)}}
#bad_char = #tessel.sketch<multi_level_tiling, "SSXR">

// -----

// expected-error @+1 {{two_level_injective sketches stage no operand in shared memory}}
#bad_shared = #tessel.sketch<two_level_injective, shared = [0]>

// -----

// expected-error @+1 {{shared operands must be strictly increasing, got 1 then 0}}
#bad_order = #tessel.sketch<multi_level_tiling, shared = [1, 0]>

// -----

// expected-error @+1 {{tile size 0 of loop 1 must be at least 1}}
#bad_tile = #tessel.config<tiles = [[4], [0, 2]]>

// -----

// expected-error @+1 {{unknown config parameter 'unrol'; expected unroll, vector, stages or pad}}
#bad_key = #tessel.config<tiles = [[4]], unrol = 16>

// -----

func.func @injective_with_reduction(%x: tensor<128x768xf32>, %init: tensor<128xf32>) -> tensor<128xf32> {
  // expected-error @+1 {{two_level_injective cannot schedule an op with a reduction loop}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x768xf32>) outs(%init : tensor<128xf32>)
      attrs = {tessel.sketch = #tessel.sketch<two_level_injective>} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %0 : tensor<128xf32>
}

// -----

// expected-error @+1 {{inlined operand 1 must also be staged in shared memory (the cooperative load computes the inlined producer)}}
#not_staged = #tessel.sketch<multi_level_tiling, shared = [0], inlined = [1]>

// -----

// expected-error @+1 {{inlined operands must be strictly increasing, got 1 then 0}}
#unordered = #tessel.sketch<multi_level_tiling, shared = [0, 1], inlined = [1, 0]>

// -----

func.func @stages_out_of_range(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+2 {{stages 5 is not between 1 and 4}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], stages = 5>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @stages_without_shared_operands(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{stages 2 pipelines a shared-memory staging loop; the sketch stages no operand}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], stages = 2>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @stages_exceed_steps(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{stages 4 exceed the 2 steps of the staging loop (loop 2)}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [2, 32, 4]], stages = 4>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @stages_need_one_staging_loop(%x: tensor<1x16x10x10xf32>, %w: tensor<8x16x3x3xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+1 {{stages 2 pipelines one staging loop; the config has 2}}
  %0 = linalg.conv_2d_nchw_fchw {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                                 tessel.config = #tessel.config<tiles = [[1, 1, 1, 1, 1], [1, 1, 8, 1, 1], [1, 1, 8, 1, 1], [1, 1, 8, 1, 1], [4, 2, 2], [3, 1, 1], [1, 1, 3]], stages = 2>}
    ins(%x, %w : tensor<1x16x10x10xf32>, tensor<8x16x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

func.func @tensor_core_needs_f16(%a: tensor<64x64xf64>, %b: tensor<64x64xf64>, %c: tensor<64x64xf64>) -> tensor<64x64xf64> {
  // expected-error @+1 {{tensor_core needs two f16 or two bf16 inputs (or two f32 inputs, computed in TF32)}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>}
    ins(%a, %b : tensor<64x64xf64>, tensor<64x64xf64>) outs(%c : tensor<64x64xf64>) -> tensor<64x64xf64>
  return %0 : tensor<64x64xf64>
}

// -----

func.func @tensor_core_tf32_accumulates_f32(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf16>) -> tensor<64x64xf16> {
  // expected-error @+1 {{tensor_core accumulates TF32 products in f32}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %0 : tensor<64x64xf16>
}

// -----

func.func @tensor_core_bf16_accumulates_f32(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  // expected-error @+1 {{tensor_core accumulates bf16 products in f32}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>}
    ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%c : tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %0 : tensor<64x64xbf16>
}

// -----

func.func @tensor_core_needs_one_input_type(%a: tensor<64x64xbf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{tensor_core needs two f16 or two bf16 inputs (or two f32 inputs, computed in TF32)}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>}
    ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @tensor_core_tf32_instruction_multiples(%a: tensor<64x12xf32>, %b: tensor<12x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{tensor_core needs the K extent to be a multiple of 8; loop 2 has 12}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>}
    ins(%a, %b : tensor<64x12xf32>, tensor<12x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @tensor_core_tf32_instruction_level(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{the innermost tile of loop 2 is one mma.sync instruction: 8, not 16}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[1, 2, 2, 16], [1, 2, 4, 8], [2, 2, 16]]>}
    ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @tensor_core_needs_instruction_multiples(%a: tensor<64x40xf16>, %b: tensor<40x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{tensor_core needs the K extent to be a multiple of 16; loop 2 has 40}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>}
    ins(%a, %b : tensor<64x40xf16>, tensor<40x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @tensor_core_needs_a_matmul(%x: tensor<1x16x10x10xf16>, %w: tensor<16x16x3x3xf16>, %o: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  // expected-error @+1 {{tensor_core needs operands indexed by loops (no convolution windows)}}
  %0 = linalg.conv_2d_nchw_fchw {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>}
    ins(%x, %w : tensor<1x16x10x10xf16>, tensor<16x16x3x3xf16>) outs(%o : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}

// -----

func.func @tensor_core_instruction_level(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{the innermost tile of loop 1 is one mma.sync instruction: 8, not 16}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[1, 2, 2, 16], [1, 2, 2, 16], [2, 2, 16]]>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @tensor_core_stages(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{stages 3 exceed the 2 steps of the staging loop (loop 2)}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<tensor_core, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[1, 2, 2, 16], [1, 2, 4, 8], [2, 2, 16]], stages = 3>}
    ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// expected-error @+1 {{tensor_core sketches stage both operands in shared memory: shared = [0, 1]}}
#bad_tc = #tessel.sketch<tensor_core, shared = [0]>

// -----

// expected-error @+1 {{pad -4 must not be negative}}
#negative_pad = #tessel.config<tiles = [[4]], pad = [-4]>

// -----

func.func @pad_count(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{config pads 1 shared tiles but the sketch stages 2 operands}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], vector = [4, 4], pad = [4]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @pad_not_a_vector_multiple(%a: tensor<128x256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{pad 2 of operand 0 is not a multiple of its vector width 4}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], vector = [4, 4], pad = [2, 0]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @pad_inlined_tile(%x: tensor<128x256xf32>, %bias: tensor<256xf32>, %b: tensor<256x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %e = tensor.empty() : tensor<128x256xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<128x256xf32>, tensor<256xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%in: f32, %bi: f32, %out: f32):
    %s = arith.addf %in, %bi : f32
    linalg.yield %s : f32
  } -> tensor<128x256xf32>
  // expected-error @+1 {{pad 4 of operand 0: the tile of an inlined producer is not padded}}
  %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, shared = [0, 1], inlined = [0]>,
                      tessel.config = #tessel.config<tiles = [[4, 2, 8, 2, 1], [4, 1, 16, 1, 1], [32, 2, 4]], vector = [4, 4], pad = [4, 0]>}
    ins(%a, %b : tensor<128x256xf32>, tensor<256x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0 : tensor<128x64xf32>
}

// -----

func.func @pad_without_staging_tiles(%x: tensor<128x768xf32>, %init: tensor<128xf32>) -> tensor<128xf32> {
  // expected-error @+1 {{pad applies to the shared tiles of a multi_level_tiling or tensor_core sketch, not cross_thread_reduction}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x768xf32>) outs(%init : tensor<128xf32>)
      attrs = {tessel.sketch = #tessel.sketch<cross_thread_reduction>, tessel.config = #tessel.config<tiles = [[128], [256, 3]], pad = [4]>} {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  return %0 : tensor<128xf32>
}
