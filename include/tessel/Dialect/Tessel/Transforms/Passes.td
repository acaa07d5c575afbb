//===- Passes.td - Tessel transformation passes ----------*- tablegen -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TESSEL_TRANSFORMS_PASSES_TD
#define TESSEL_DIALECT_TESSEL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TesselDefaultConfig : Pass<"tessel-default-config", "ModuleOp"> {
  let summary = "Give every schedulable op without a schedule a default one";
  let description = [{
    Annotates every linalg op that has no `tessel.sketch` with a sketch and a
    heuristic `tessel.config`, like TVM's fallback configs: valid for any
    static shape and reasonably fast, so that any supported model compiles
    without tuning. Contractions and convolutions get `multi_level_tiling`,
    reductions `cross_thread_reduction`, everything else
    `two_level_injective`. Ops that are fused into an annotated producer are
    left alone.

    Before:
    ```mlir
    %0 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>)
                       outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
    ```
    After:
    ```mlir
    %0 = linalg.matmul {tessel.sketch = #tessel.sketch<multi_level_tiling, ...>,
                        tessel.config = #tessel.config<tiles = [...], ...>}
                       ins(...) outs(...) -> tensor<256x256xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
  let statistics = [
    Statistic<"numAnnotated", "num-annotated", "Number of ops given a default schedule">
  ];
}

def TesselFuse : Pass<"tessel-fuse", "ModuleOp"> {
  let summary = "Fuse elementwise ops into the kernels of their neighbours";
  let description = [{
    Tessel's fusion (docs/Fusion.md, `Fusion.h`), run before task extraction,
    by `--tessel-apply-tuned` and at the start of `--tessel-to-cuda`, so that
    tasks, records and kernels are the same fused groups. Broadcasts from a
    unit tensor dimension read through a unit loop (`(0, d1) -> (d0, d1)`
    when `d0` has extent 1); an all-parallel `linalg.generic` is merged into
    a consumer `linalg.generic` that is all-parallel or reads each of its
    elements once (a reduction's prologue); a cheap one with at most four
    such consumers is recomputed in each; upstream's elementwise fusion
    clean-ups and the canonicalization patterns run with them. Contractions
    and convolutions are never merged into: their elementwise producers and
    consumers become inlined producers and fused consumers of their sketches.
    Idempotent.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def TesselIm2Col : Pass<"tessel-im2col", "ModuleOp"> {
  let summary = "Rewrite 2-D convolutions as an im2col copy and a matmul";
  let description = [{
    Every static `linalg.conv_2d_nhwc_hwcf`, and `linalg.conv_2d_nchw_fchw`
    of batch 1, becomes a `linalg.generic` that copies the input's patches,
    a `linalg.matmul` of the patches and the filter (reshaped with
    `tensor.collapse_shape`) and the `tensor.expand_shape` of its result
    (`Im2Col.h`). The matmul fits every matmul sketch, tensor cores
    included, at the price of a copy KH x KW times the input. A model
    transformation, not part of `--tessel-to-cuda`: run it before tuning
    and before compiling the tuned model, so both see the same tasks.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def TesselLowerKernelVectors : Pass<"tessel-lower-kernel-vectors"> {
  let summary = "Lower the n-D vectors left in kernels to 1-D";
  let description = [{
    Run on outlined `gpu.module`s before the NVVM conversion, which handles
    1-D vectors only: drops unit dimensions of elementwise vector ops and
    lowers the remaining `vector.shape_cast` and `vector.broadcast` ops
    (register tiles with unit dimensions in fused epilogues).
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def TesselAlignGlobalAccesses
    : Pass<"tessel-align-global-accesses", "ModuleOp"> {
  let summary = "Give kernels' vector loads and stores of global memory the "
                "alignment their addresses are known to have";
  let description = [{
    The memref lowering gives a `vector.load` the alignment of its element,
    so LLVM splits a 16-byte load of `vector<4xf32>` into four 32-bit loads
    (`ld.global.b32`). Under the contract that every buffer a kernel takes
    starts at a multiple of `buffer-alignment` bytes, this pass proves, per
    access of an outlined kernel, which power of two divides the element
    offset (the trailing zero bits of the index arithmetic: constants, sums,
    products, shifts, loop induction variables from their bounds and steps;
    thread ids and anything else unknown) and sets the access's `alignment`
    attribute, so `vector<4xf32>` becomes `ld.global.v4.f32`.

    Each kernel argument an alignment was derived from gets the argument
    attribute `tessel.buffer_alignment`, and the host function that
    launches the kernel checks it: a function argument reaching such a
    kernel gets a `cf.assert` on its aligned pointer (a clear error at
    launch rather than a misaligned-address fault); an allocation or global
    reaching it gets at least that alignment. `buffer-alignment=0` assumes
    nothing (element alignment: scalar loads). Run after outlining and
    before `convert-scf-to-cf` (loop bounds are read from `scf.for`).
  }];
  let options = [
    Option<"bufferAlignment", "buffer-alignment", "int64_t",
           /*default=*/"16",
           "Byte alignment every buffer a kernel takes starts at (a power "
           "of two; 0: none)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def TesselAlignAsyncCopies
    : Pass<"tessel-align-async-copies", "ModuleOp"> {
  let summary = "Split kernels' cp.async copies into pieces their addresses "
                "are known to be aligned for";
  let description = [{
    A `nvgpu.device_async_copy` of N bytes (cp.async) needs its global
    source and shared destination N-byte aligned. Per copy of an outlined
    kernel this pass proves the alignment of both addresses (the trailing
    zero bits of the index arithmetic, as tessel-align-global-accesses does;
    a buffer the kernel takes starts at `buffer-alignment` bytes, a shared
    buffer at its global's or the dynamic shared memory's alignment) and
    replaces a copy wider than that by copies of the widest width that is
    (16, 8 or 4 bytes; `bypassL1` kept on 16-byte pieces only, a
    zero-filled tail shared out among the pieces). A copy that no 4-byte
    piece fits (f16 at an odd element) becomes a synchronous vector load and
    store. Kernel arguments relied on get `tessel.buffer_alignment`, which
    tessel-align-global-accesses makes the launches check. Run after
    outlining and before `convert-nvgpu-to-nvvm`.
  }];
  let options = [
    Option<"bufferAlignment", "buffer-alignment", "int64_t",
           /*default=*/"16",
           "Byte alignment every buffer a kernel takes starts at (a power "
           "of two; 0: none)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def TesselContractKernelFloatOps
    : Pass<"tessel-contract-kernel-float-ops", "ModuleOp"> {
  let summary = "Let LLVM fuse the multiplies and adds of kernels into FMAs";
  let description = [{
    Marks every floating-point `arith` op of the outlined kernels
    (`gpu.func`) with the `contract` fast-math flag, so the NVPTX backend
    fuses a multiply feeding an add into one `fma.rn`, as nvcc does by
    default (`-fmad=true`). Without it, the scalar loop nests of kernels
    that are not vectorized (convolutions, generic reductions) ran each
    multiply-accumulate as `mul.rn` + `add.rn`, whose explicit rounding
    ptxas may not fuse: two instructions and two roundings where one does.
    Results round once instead of twice per product (within the f32
    tolerance of the CPU reference). Host code is left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TesselForwardFills : Pass<"tessel-forward-fills", "ModuleOp"> {
  let summary = "Initialise register accumulators with the fill's constant "
                "instead of a store and load of global memory";
  let description = [{
    In each `gpu.launch` made by materialization, a fused fill stores its
    constant (`vector.store` of a splat) into the output, and a register-
    accumulating op loads its accumulators back from the same elements
    before its main loop. Both follow the op's per-thread layout, so each
    thread reads exactly what it stored (equal indices, or `affine.apply`s
    of equal operands whose maps differ by a constant): the loads become the
    constant, and the stores are dropped when nothing in the launch reads
    the output any more and the thread's own later stores overwrite every
    element they wrote. The barrier between them then has nothing to order
    (`--tessel-place-barriers` runs after). Run after `--tessel-materialize`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TesselForwardAccumulators
    : Pass<"tessel-forward-accumulators", "ModuleOp"> {
  let summary = "Fused epilogues compute on the register accumulators: "
                "thread-private workgroup accumulators are removed";
  let description = [{
    A contraction with fused consumers keeps its block's accumulator in a
    workgroup buffer. In a `gpu.launch` whose accumulators live in
    registers, each thread stores the fill into its own elements, loads
    them into its accumulators, stores the results after the main loop and
    loads them back for the epilogue. For every workgroup buffer accessed
    only by top-level rank-1 `vector.load` / `vector.store` of the launch
    body (no views, no nested accesses), the pass enumerates the block's
    threads (the block size and the indices, functions of the thread id,
    must be constant-foldable): when every element is written by one
    thread at most and every loaded element was stored earlier by the same
    thread, by the same store at the same position in every thread, the
    loads become the stored values and the stores and the buffer go. The
    barriers that ordered them then have nothing to order
    (`--tessel-place-barriers` runs after). Run after `--tessel-materialize`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def TesselSharedBankConflicts
    : Pass<"tessel-shared-bank-conflicts", "ModuleOp"> {
  let summary = "Record the static bank-conflict degree of the kernels' "
                "shared-memory loads and stores";
  let description = [{
    For each `gpu.launch`, evaluates the address every lane of the first
    warp (block 0, loops at their first iteration) gives each shared-memory
    access (`vector.load` / `vector.store` of rank-1 vectors, `memref.load`
    / `memref.store`, `nvgpu.device_async_copy` destinations; through
    `memref.view` and `memref.subview`) and counts, per phase of the request
    (32 lanes for accesses of up to 4 bytes a lane, 16 for 8 bytes, 8 for
    16), the most distinct 4-byte words one of the 32 banks serves: 1 is
    conflict-free. The largest degree of the loads and of the stores is
    added to the launch's kernel facts (`shared_load_conflicts`,
    `shared_store_conflicts`; docs/SimulatedGpu.md), which `tessel-run`'s
    kernel report prints. Run on the launches before their memrefs are
    lowered (`--tessel-to-cuda` runs it after the linalg ops left in kernels
    become loops). An access whose address is not a function of thread and
    block ids, loop variables and constants is not counted.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark with the degree at every shared access">,
  ];
}

def TesselCountBarriers : Pass<"tessel-count-barriers", "ModuleOp"> {
  let summary = "Record how many barriers a kernel's threads execute";
  let description = [{
    For each `gpu.launch`, counts the `gpu.barrier`s one thread executes
    over the whole kernel (each barrier times the iterations of its
    enclosing `scf.for` loops) and, of those, the barriers that wait for a
    synchronous global load issued since the thread's previous barrier
    (BarrierCounts.h). Both are added to the launch's kernel facts
    (`barriers`, `load_barriers`; docs/SimulatedGpu.md, "Barriers"), which
    the simulated GPU charges and `tessel-run`'s kernel report prints. Run on
    the launches once their barriers are placed and their linalg ops are
    loops (`--tessel-to-cuda` runs it after `tessel-shared-bank-conflicts`).
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark with the counts at every gpu.launch">,
  ];
}

def TesselSplitK : Pass<"tessel-split-k", "ModuleOp"> {
  let summary = "Split contractions along their reduction loop (split-K)";
  let description = [{
    Rewrites each linalg op on tensors carrying `tessel.split_k = S` (and,
    with `factor=S`, every contraction whose reduction extent `S` divides)
    with upstream's `linalg::splitReduction`: a partial op with a new
    outermost parallel loop of `S` iterations, each reducing `K / S` of the
    reduction into an `S x ...` partial result, and a combining
    `linalg.generic` that adds the partials into the op's init. A contraction
    whose output gives fewer blocks than the GPU has SMs then runs `S` times
    as many blocks (docs/Materialization.md, "Split-K"). `--tessel-fuse`
    applies the attributes first (and so `--tessel-to-cuda`, task
    extraction and `--tessel-apply-tuned`): an epilogue fuses into the
    combining op and the tuner sees both ops. An op whose reduction extent
    `S` does not divide, or whose
    combiner upstream does not recognize, is an error at the op when it
    asked for it with the attribute.
  }];
  let options = [
    Option<"factor", "factor", "int64_t", /*default=*/"0",
           "Split every contraction without the attribute by this factor "
           "(0 or 1: only ops with tessel.split_k)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def TesselLowerBf16MmaSync : Pass<"tessel-lower-bf16-mma-sync"> {
  let summary = "Lower bf16 nvgpu.mma.sync to nvvm.mma.sync";
  let description = [{
    Upstream's NVGPU-to-NVVM conversion deduces no PTX type for bf16
    fragments. This pass lowers each bf16 `nvgpu.mma.sync` (accumulating in
    f32) to `nvvm.mma.sync` with bf16 multiplicands: every row of an A or B
    fragment (two bf16) is one 32-bit register, the accumulator's rows give
    its four f32 values, and the result struct is packed back into the
    fragment. Run before `convert-nvgpu-to-nvvm`; other `mma.sync` ops are
    left to it.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def TesselEmitTransformScript : Pass<"tessel-emit-transform-script", "ModuleOp"> {
  let summary = "Write the schedules as an upstream transform script";
  let description = [{
    Replaces the `tessel.sketch`/`tessel.config` pair of every annotated op by
    an integer marker `tessel.anchor` and appends to the module a
    `transform.named_sequence @__transform_main` made of upstream transform
    ops only, in which every tile size, the unroll setting and every vector
    width is a `transform.tune.knob` with its `selected` value. Stock
    `mlir-opt --transform-interpreter` replays the script and produces the
    same IR as `--tessel-materialize`.
  }];
  let options = [
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Write `allow_tf32` on the tensor-core conversion, so that "
           "tensor_core schedules of f32 contractions compute in TF32 when "
           "replayed">,
  ];
  let dependentDialects = [
    "::mlir::transform::TransformDialect",
  ];
}

def TesselMaterialize : Pass<"tessel-materialize", "ModuleOp"> {
  let summary = "Apply the schedules of all annotated ops";
  let description = [{
    Builds the transform script of `--tessel-emit-transform-script` and
    interprets it on the module: every annotated op is tiled for blocks,
    virtual threads, threads and registers, its shared operands are staged in
    workgroup memory with cooperative copies, the module is bufferized and
    every kernel ends up in a `gpu.launch` with the grid and block sizes of
    its config.

    With `stop-before-gpu-mapping`, the pass stops after bufferization: the
    block and thread levels are still `scf.forall` loops and the IR can run
    on the CPU, which the equivalence tests use.

    With `record-facts` (on in `--tessel-to-cuda`), every `gpu.launch` gets
    the facts of its op (work, bytes, register tile, ...) as `tessel.facts`;
    they are not part of the schedule, so emitted scripts do not set them.
  }];
  let options = [
    Option<"stopBeforeGpuMapping", "stop-before-gpu-mapping", "bool",
           /*default=*/"false",
           "Stop after bufferization, before mapping loops to the GPU">,
    Option<"dumpScripts", "dump-scripts", "bool", /*default=*/"false",
           "Print the payload and every transform script to stderr before "
           "applying the script">,
    Option<"recordFacts", "record-facts", "bool", /*default=*/"false",
           "Record the facts of every kernel (KernelFacts.h) as `tessel.facts` "
           "on its gpu.launch, for a model of the GPU">,
    Option<"asyncCopies", "async-copies", "bool", /*default=*/"true",
           "Load the shared buffers of pipelined staging loops (stages > 1) "
           "with cp.async (sm_80 and newer); off, the loads stay "
           "synchronous">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Let tensor_core schedules of f32 contractions compute in TF32 "
           "(inputs rounded to a 10-bit mantissa); off, such a schedule is "
           "an error">,
  ];
  let dependentDialects = [
    "::mlir::transform::TransformDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def TesselStripHostChecks : Pass<"tessel-strip-host-checks", "ModuleOp"> {
  let summary = "Remove frontend runtime checks and unused globals";
  let description = [{
    torch-mlir emits `cf.assert` for shape checks that are statically true
    on the static models Tessel compiles, checks on data (embedding index
    bounds), and an unused `ml_program.global @global_seed`. This pass erases
    `cf.assert` ops whose condition folds to true, fails with a diagnostic on
    one that folds to false, and drops data-dependent ones with a warning
    (kernels do not check them, like a release build). Unused
    `ml_program.global`s are erased.
  }];
}

def TesselStripGpuMemorySpaces
    : Pass<"tessel-strip-gpu-memory-spaces", "ModuleOp"> {
  let summary = "Drop GPU address spaces from memref types (CPU emulation)";
  let description = [{
    Rewrites every memref type in `#gpu.address_space<workgroup>` or
    `#gpu.address_space<private>` to the default memory space, so that a
    schedule materialized with `--tessel-materialize=stop-before-gpu-mapping`
    (block and thread loops still `scf.forall`) runs on the CPU. Also erases
    the waits and barriers of pipelined staging loops (`stages` > 1), which
    mean nothing to one thread running the loops in order. Only used to
    check schedules against the unscheduled op.
  }];
}

def TesselSerializeKernels : Pass<"tessel-serialize-kernels", "ModuleOp"> {
  let summary = "Translate the module's gpu.modules to PTX objects, one "
                "thread per module";
  let description = [{
    What `gpu-module-to-binary{format=isa}` does (each gpu.module through
    its target attributes to LLVM IR and PTX, replaced by a `gpu.binary`
    holding the `format = assembly` objects), with the modules translated
    concurrently on the context's threads and the binaries then built in
    module order: the same output, but for the `LLVMIRToISATimeInMs`
    property the target records. Serial when the context is not
    multithreaded. `toolkit-path` is the CUDA toolkit whose libdevice
    kernels may call (empty: the target's default search).

    With `cache-dir`, a module's objects are looked up in the compile cache
    under a hash of the module, its targets, LLVM's version and libdevice
    (docs/CompileCache.md) and stored there after translation.
  }];
  let options = [
    Option<"toolkitPath", "toolkit-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root for libdevice">,
    Option<"cacheDir", "cache-dir", "std::string", /*default=*/"\"off\"",
           "Compile cache directory (docs/CompileCache.md); off: none">,
    Option<"cacheSizeMb", "cache-size-mb", "unsigned", /*default=*/"2048",
           "Size limit of the compile cache in MiB">,
    Option<"cacheReport", "cache-report", "bool", /*default=*/"false",
           "Say in a remark how many objects came from the compile cache">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def TesselCompilePtx : Pass<"tessel-compile-ptx", "ModuleOp"> {
  let summary = "Assemble PTX objects of gpu.binary ops into cubins with ptxas";
  let description = [{
    Every `gpu.object` holding PTX (`format = assembly`, as produced by
    `gpu-module-to-binary` with `format=isa`) is assembled by `ptxas -v` into
    a cubin (`format = bin`) or, with `format=fatbin`, a fatbinary holding
    the cubin and the PTX. What ptxas reports for each kernel (registers,
    spill stores and loads in bytes, static shared memory in bytes) is
    recorded in the object's properties as `tessel.kernels`, and, with
    `resources-file`, written as JSON. The objects are assembled by
    concurrent ptxas processes, one per core, when the context is
    multithreaded, one at a time otherwise; the output is the same.

    With `cache-dir`, an object's payload and ptxas's report are looked up
    in the compile cache under a hash of the PTX, the chip, the format, the
    optimization level and the identity of ptxas (and fatbinary), and
    stored there after assembly (docs/CompileCache.md).

    Fails with a diagnostic naming the toolkit path when ptxas is missing.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"bin\"",
           "Output format: bin or fatbin">,
    Option<"cudaPath", "cuda-path", "std::string",
           /*default=*/"TESSEL_DEFAULT_CUDA_PATH",
           "CUDA toolkit root holding bin/ptxas">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "ptxas optimization level">,
    Option<"resourcesFile", "resources-file", "std::string",
           /*default=*/"\"\"",
           "Write the per-kernel resource table as JSON to this file">,
    Option<"cacheDir", "cache-dir", "std::string", /*default=*/"\"off\"",
           "Compile cache directory (docs/CompileCache.md); off: none">,
    Option<"cacheSizeMb", "cache-size-mb", "unsigned", /*default=*/"2048",
           "Size limit of the compile cache in MiB">,
    Option<"cacheReport", "cache-report", "bool", /*default=*/"false",
           "Say in a remark how many objects came from the compile cache">,
  ];
}

def TesselOutlineKernels : Pass<"tessel-outline-kernels", "ModuleOp"> {
  let summary = "Outline GPU kernels, keeping the facts of each kernel";
  let description = [{
    Runs upstream `gpu-kernel-outlining` and records, for every outlined
    kernel whose `gpu.launch` carried `tessel.facts` (set by
    `--tessel-materialize`), those facts in the module attribute
    `tessel.kernel_facts = {<kernel module> = {...}}`, which survives the
    lowering to LLVM and to cubins. A model of the GPU (`sim:<device>`)
    reads it to time compiled kernels.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::DLTIDialect"];
}

def TesselPlaceBarriers : Pass<"tessel-place-barriers", "ModuleOp"> {
  let summary = "Put barriers where threads exchange data, and nowhere else";
  let description = [{
    Replaces the `gpu.barrier`s of every `gpu.launch` (upstream's thread
    mapping leaves one after every thread forall: every copy round, every
    virtual thread) by barriers before the accesses that may conflict with
    an access of another thread since the last barrier, loops' back edges
    included (Barriers.h): one after a shared tile is written, one before it
    is overwritten. Launches with a pipelined staging loop keep theirs.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def TesselDynamicSharedMemory
    : Pass<"tessel-dynamic-shared-memory", "ModuleOp"> {
  let summary = "Give kernels with large shared tiles dynamic shared memory";
  let description = [{
    A kernel's shared tiles are workgroup `memref.global`s, which become
    static shared memory, and CUDA limits static shared memory to 48 KiB a
    block. Larger tiles (and the extra stages of a pipelined staging loop)
    need dynamic shared memory, up to the device's opt-in limit (227 KiB on
    sm_90). For every outlined kernel whose workgroup globals (each at its
    alignment, in order of first use) take more than `static-limit` bytes,
    this pass lays them out in one `gpu.dynamic_shared_memory` buffer (the
    same offsets, as `memref.view`s), erases the globals, and gives every
    `gpu.launch_func` of the kernel the total as its dynamic shared memory
    size; the launcher opts in above 48 KiB. Kernels within the limit keep
    their static globals (their code does not change). A kernel that needs
    more than `max-bytes` fails at its location.
  }];
  let options = [
    Option<"staticLimit", "static-limit", "int64_t", /*default=*/"49152",
           "Most bytes of shared memory a kernel keeps static">,
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"0",
           "Most bytes of shared memory a block may have (the chip's "
           "opt-in limit); 0: no check">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def TesselExternDynamicSharedMemory
    : Pass<"tessel-extern-dynamic-shared-memory"> {
  let summary = "Make the dynamic shared memory symbol an external array";
  let description = [{
    Upstream's lowering of `gpu.dynamic_shared_memory` declares the buffer
    as an internal zero-length array in address space 3, which the NVPTX
    back end demotes into the kernel as a one-byte static `.shared`
    variable: every access past its first byte is out of bounds for LLVM,
    and the block gets a static byte besides its dynamic buffer. With
    external linkage it is emitted as CUDA's `extern __shared__` array
    (`.extern .shared .align 16 .b8 name[];`), sized by the launch. Run on
    the kernels after the GPU-to-NVVM conversion.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TesselDedupeKernels : Pass<"tessel-dedupe-kernels", "ModuleOp"> {
  let summary = "Compile each distinct kernel once";
  let description = [{
    Models repeat layers: MobileBERT's 24 encoder layers, ResNet's blocks
    and BERT's heads outline into kernel modules that differ only in their
    names. This pass keys every `gpu.module` by its IR with its own symbols
    (the module, its kernels, its shared globals) renamed in order of
    appearance, keeps the first module of each key, points the
    `gpu.launch_func`s of the others at it, and erases them (and their
    entries of `tessel.kernel_facts`), so that NVVM, LLVM and ptxas see
    each distinct kernel once. The code of every kernel is unchanged.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def TesselCheckKernelSize : Pass<"tessel-check-kernel-size", "ModuleOp"> {
  let summary = "Reject kernels too large for LLVM to compile in reasonable time";
  let description = [{
    Counts the `scf.for` loops of every outlined kernel (`gpu.func`) and
    fails, at the kernel's location (the op it was made from), when one has
    more than `max-loops`. Unrolling a schedule whose per-thread work stays
    in scalar loop nests can leave thousands of them in one kernel; LLVM's
    loop passes are superlinear in their number and take minutes (seen on
    ResNet-50 convolutions: 677 loops or more took over 8 s, 2,695 took
    35 s, where kernels of up to 456 loops compiled in about a second). A
    tuner records such a schedule as a compile error and goes on.
  }];
  let options = [
    Option<"maxLoops", "max-loops", "int64_t",
           /*default=*/"::mlir::tessel::kMaxKernelLoops",
           "Most loops one kernel may have; 0: no limit">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TesselExpandScalarOps : Pass<"tessel-expand-scalar-ops", "ModuleOp"> {
  let summary = "Give linalg ops without a parallel loop one of extent 1";
  let description = [{
    Frontends emit linalg ops without loops on 0-d tensors (a fill of a
    scalar, a scalar type conversion) and reductions to a scalar (a sum of
    all elements). Every kernel needs a parallel loop to map to blocks and
    threads, so this pass rewrites each such op into an op with a leading
    parallel loop of extent 1 on `tensor<1xT>`, between
    `tensor.expand_shape` and `tensor.collapse_shape` (reductions through
    their generic form). The fusion does the same to reductions to a scalar
    first, so that the tuner sees them so.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

#endif // TESSEL_DIALECT_TESSEL_TRANSFORMS_PASSES_TD
